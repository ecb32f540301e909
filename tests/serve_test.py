"""`morris serve` as people and scripts use it: its JSON API over real HTTP
(several clients at once, bad input, unknown paths, Ctrl-C), and its page in
headless Chromium, driven over the DevTools protocol: the page is loaded,
points and turns are clicked and keys pressed, and the values it then shows
are checked against `morris query`. Screenshots go to OUT_DIR.

Run by ctest with MORRIS (the tool), CHROMIUM and OUT_DIR set.
"""
import base64
import json
import os
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

MORRIS = os.environ["MORRIS"]
CHROMIUM = os.environ.get("CHROMIUM", "chromium")
OUT_DIR = os.environ.get("OUT_DIR", ".")
FIVE_MOVING = "W.W.B.B.W.B.W.B. w 0 0"


def query(db, position, *options):
    where = [position] if "." in position else ["--moves", position]
    out = subprocess.run([MORRIS, "query", *where, "--variant", "five", "--db", str(db),
                          "--json", *options], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


class Server:
    def __init__(self, db, *options, variant="five"):
        self.process = subprocess.Popen(
            [MORRIS, "serve", "--variant", variant, "--db", str(db), "--port", "0", *options],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        self.url = line.split(" at ")[1].split()[0]

    def get(self, path, **params):
        """(status, JSON body) of a GET."""
        url = self.url + path.lstrip("/") + ("?" + urllib.parse.urlencode(params) if params else "")
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        rest = self.process.communicate(timeout=10)[0]
        return self.process.returncode, rest


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    directory = tmp_path_factory.mktemp("five")
    subprocess.run([MORRIS, "solve", "--variant", "five", "--db", str(directory),
                    "--no-progress"], check=True, stdout=subprocess.DEVNULL)
    return directory


@pytest.fixture(scope="module")
def server(db):
    s = Server(db)
    yield s
    s.stop()


# ---- the API -----------------------------------------------------------------

@pytest.mark.parametrize("position", ["", "a1 b2 a3", FIVE_MOVING])
def test_query_answers_as_morris_query_json(db, server, position):
    status, body = server.get("/api/query", position=position)
    assert status == 200
    assert body == query(db, position)


def test_after_and_best(db, server):
    status, body = server.get("/api/after", position="a1 b2", turn="a3")
    assert (status, body) == (200, {"position": query(db, "a1 b2 a3")["position"],
                                    "drawn_by_rule": False})
    status, body = server.get("/api/best", position=FIVE_MOVING)
    assert status == 200
    assert body["turn"] in [t["turn"] for t in query(db, FIVE_MOVING)["turns"]]


def test_several_clients_at_once(db, server):
    expected = query(db, "a1 b2 a3 c2")
    answers = []

    def client():
        for _ in range(10):
            answers.append(server.get("/api/query", position="a1 b2 a3 c2"))

    threads = [threading.Thread(target=client) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [(200, expected)] * 60


@pytest.mark.parametrize("path, params, needle", [
    ("/api/query", {"position": "zz"}, "unknown point"),
    ("/api/query", {"position": "a1 a1"}, "illegal turn"),
    ("/api/query", {"position": "W" * 16 + " w 0 0"}, "invalid position"),
    ("/api/query", {"position": "x" * 5000}, "too long"),
    ("/api/query", {}, "missing parameter 'position'"),
    ("/api/after", {"position": "a1", "turn": "a1"}, "illegal turn"),
    ("/api/best", {"position": "\x00\xff"}, ""),
])
def test_bad_input_is_400_with_the_message(server, path, params, needle):
    status, body = server.get(path, **params)
    assert status == 400
    assert needle in body["error"]


def test_unknown_path_is_404(server):
    assert server.get("/no/such/page")[0] == 404
    # And the server still answers.
    assert server.get("/api/board")[0] == 200


def test_raw_garbage_does_not_crash_it(server):
    import socket
    host, port = server.url.split("//")[1].rstrip("/").split(":")
    for garbage in [b"\x00\x01\x02\r\n\r\n", b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n\r\n",
                    b"POST /api/query HTTP/1.1\r\nContent-Length: 99999999\r\n\r\nxx"]:
        with socket.create_connection((host, int(port)), timeout=5) as s:
            s.sendall(garbage)
            s.shutdown(socket.SHUT_WR)
            try:
                s.recv(1000)
            except OSError:
                pass
    assert server.get("/api/board")[0] == 200


def test_ctrl_c_stops_it_cleanly(db):
    s = Server(db)
    assert s.get("/api/board")[0] == 200
    code, rest = s.stop()
    assert code == 0 and "stopped" in rest


def test_wdl_only_files_say_distances_need_the_full_database(db, tmp_path):
    wdl = tmp_path / "five-wdl"
    subprocess.run([MORRIS, "compact", "--variant", "five", "--db", str(db), "--out", str(wdl),
                    "--no-progress"], check=True, stdout=subprocess.DEVNULL)
    s = Server(wdl)
    try:
        for path in ("/api/query", "/api/best"):
            status, body = s.get(path, position=FIVE_MOVING)
            assert status == 501 and "full database" in body["error"], (path, body)
    finally:
        s.stop()


def test_database_errors_are_500_naming_the_file(db, tmp_path):
    import shutil
    damaged = tmp_path / "damaged"
    shutil.copytree(db, damaged)
    [start] = [f for f in os.listdir(damaged) if "_0-0-5-5." in f]
    os.truncate(damaged / start, 100)
    s = Server(damaged)
    status, body = s.get("/api/query", position="")
    s.stop()
    assert status == 500 and start in body["error"]


# ---- the page in Chromium -------------------------------------------------------

class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe (fds 3
    and 4 of the browser: commands in, replies and events out, each JSON
    message ended by a NUL)."""

    def __init__(self, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w}', CHROMIUM,
             "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "about:blank"],
            pass_fds=(to_browser_r, from_browser_w), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]

    def send(self, method, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 16)
                assert chunk, "Chromium closed the pipe"
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return reply["result"]

    def page(self, method, **params):
        return self.send(method, session=self.session, **params)

    def evaluate(self, expression):
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def wait_for(self, expression, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + expression)

    def click(self, selector):
        """A real mouse click at the middle of the element."""
        x, y = self.evaluate(f"(() => {{ const r = document.querySelector('{selector}')"
                             f".getBoundingClientRect(); return [r.x + r.width / 2, "
                             f"r.y + r.height / 2]; }})()")
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def key(self, key, code, keycode, text=""):
        for kind in ("keyDown", "keyUp"):
            self.page("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                      windowsVirtualKeyCode=keycode, text=text if kind == "keyDown" else "")

    def screenshot(self, name):
        data = self.page("Page.captureScreenshot", format="png")["data"]
        path = os.path.join(OUT_DIR, name)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self):
        self.process.kill()
        self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


class Page:
    """The page's state as a player sees it."""

    def __init__(self, browser):
        self.browser = browser

    def shown(self):
        return int(self.browser.evaluate("(document.body && document.body.dataset.shown) || 0"))

    def wait_shown(self, count):
        self.browser.wait_for(
            f"document.body && Number(document.body.dataset.shown || 0) >= {count}")

    def position(self):
        return self.browser.evaluate("document.getElementById('position').value")

    def turns(self):
        return self.browser.evaluate(
            "[...document.querySelectorAll('#turns button')].map(b => "
            "[b.dataset.turn, b.dataset.value, b.dataset.plies])")


def shown_as_query(answer):
    return [[t["turn"], t["value"], "" if t["plies"] is None else str(t["plies"])]
            for t in answer["turns"]]


def expect_page_shows(page, db, position):
    answer = query(db, position)
    assert page.position() == answer["position"]
    assert page.turns() == shown_as_query(answer)
    return answer


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    b.page("Page.enable")
    b.page("Emulation.setDeviceMetricsOverride", width=1000, height=760, deviceScaleFactor=1,
           mobile=False)
    yield b
    b.close()


def test_page_plays_clicked_turns_and_shows_the_databases_values(db, server, browser):
    page = Page(browser)
    browser.page("Page.navigate", url=server.url)
    page.wait_shown(1)
    expect_page_shows(page, db, "")
    assert browser.evaluate("document.querySelectorAll('#board [data-point]').length") == 16

    # Click an empty point: the placement a1.
    browser.click('[data-point="a1"]')
    page.wait_shown(2)
    expect_page_shows(page, db, "a1")

    # Play the best turn from the list with the keyboard.
    best = page.turns()[0][0]
    browser.evaluate("document.querySelector('#turns button').focus()")
    browser.key("Enter", "Enter", 13, "\r")
    page.wait_shown(3)
    expect_page_shows(page, db, f"a1 {best}")

    # Back and forward with the arrow keys.
    browser.evaluate("document.activeElement.blur()")
    browser.key("ArrowLeft", "ArrowLeft", 37)
    page.wait_shown(4)
    expect_page_shows(page, db, "a1")
    browser.key("ArrowRight", "ArrowRight", 39)
    page.wait_shown(5)
    expect_page_shows(page, db, f"a1 {best}")


def test_page_moves_a_stone_by_two_clicks_from_a_typed_position(db, server, browser):
    page = Page(browser)
    browser.page("Page.navigate", url=server.url)
    page.wait_shown(1)
    browser.evaluate("(() => { const box = document.getElementById('position');"
                     f" box.value = '{FIVE_MOVING}'; box.focus(); }})()")
    browser.key("Enter", "Enter", 13, "\r")
    page.wait_shown(2)
    answer = expect_page_shows(page, db, FIVE_MOVING)
    # The best move without a removal, played by clicking its stone then its point.
    turn = next(t["turn"] for t in answer["turns"] if "x" not in t["turn"])
    origin, destination = turn.split("-")
    browser.click(f'[data-point="{origin}"]')
    assert browser.evaluate("document.querySelectorAll('.selected').length") == 1
    browser.click(f'[data-point="{destination}"]')
    page.wait_shown(3)
    points = json.loads(urllib.request.urlopen(server.url + "api/board").read())["points"]
    board = list(FIVE_MOVING.split()[0])
    board[points.index(destination)], board[points.index(origin)] = "W", "."
    expect_page_shows(page, db, "".join(board) + " b 0 0")
    browser.screenshot("serve.png")


def test_page_closes_a_mill_and_removes_the_clicked_stone(db, server, browser):
    page = Page(browser)
    win_in_1 = "WW.......WB..BB. w 0 0"  # c5-a5 closes a1-a3-a5; d2, e1 or e3 goes
    browser.page("Page.navigate", url=server.url + "?position=" + urllib.parse.quote(win_in_1))
    page.wait_shown(1)
    expect_page_shows(page, db, win_in_1)
    browser.click('[data-point="c5"]')
    browser.click('[data-point="a5"]')
    # The removable stones are marked now, and nothing is played yet.
    marked = browser.evaluate("document.querySelectorAll('.mark').length")
    assert marked == 3 and page.shown() == 1
    browser.click('[data-point="e1"]')
    page.wait_shown(2)
    expect_page_shows(page, db, "WWW.......B...B. b 0 0")


def test_computer_answers_with_a_best_turn(db, server, browser):
    page = Page(browser)
    browser.page("Page.navigate", url=server.url)
    page.wait_shown(1)
    browser.click("#computer")
    assert browser.evaluate("document.getElementById('computer').checked")
    browser.click('[data-point="c2"]')
    page.wait_shown(3)
    after_player = query(db, "c2")
    final = expect_page_shows(page, db, page.position())
    # The computer's turn keeps its best value: the player now faces its mirror.
    best = after_player["turns"][0]
    assert final["value"] == {"win": "loss", "loss": "win", "draw": "draw"}[best["value"]]
    if best["value"] != "draw":
        assert final["plies"] == best["plies"] - 1


def test_page_fits_a_phone(server, browser):
    page = Page(browser)
    browser.page("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2,
                 mobile=True)
    browser.page("Page.navigate", url=server.url)
    page.wait_shown(1)
    assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    browser.screenshot("serve-phone.png")


@pytest.mark.parametrize("variant, points, edges", [
    ("five", 16, 20), ("seven", 17, 24), ("nine", 24, 32), ("nine-diagonal", 24, 40)])
def test_page_draws_every_board_and_names_a_missing_database(browser, tmp_path, variant, points,
                                                             edges):
    s = Server(tmp_path, variant=variant)  # an empty directory: no sector files
    try:
        page = Page(browser)
        browser.page("Page.navigate", url=s.url)
        page.wait_shown(1)
        assert browser.evaluate("document.querySelectorAll('#board [data-point]').length") == points
        assert browser.evaluate("document.querySelectorAll('#board line.edge').length") == edges
        assert "missing" in browser.evaluate("document.getElementById('error').textContent")
    finally:
        s.stop()


def test_a_full_board_is_shown_as_a_draw(browser, tmp_path):
    # Twelve's 12-12 sector: after the last placement every point is taken.
    subprocess.run([MORRIS, "solve", "--variant", "twelve", "--db", str(tmp_path), "--sectors",
                    "12-12-0-0", "--no-progress"], check=True, stdout=subprocess.DEVNULL)
    s = Server(tmp_path, variant="twelve")
    try:
        page = Page(browser)
        full = "WBWBWBWBWBWBBWBWBWBWBWBW w 0 0"
        browser.page("Page.navigate", url=s.url + "?position=" + urllib.parse.quote(full))
        page.wait_shown(1)
        assert page.turns() == []
        assert "Draw" in browser.evaluate("document.getElementById('status').textContent")
    finally:
        s.stop()
