"""The Python module answers as `morris query --json` does, takes positions in
every notation (the project's, turn lists, Sanmill's FEN), reads the N-move
counter, and raises an exception naming the problem on bad input.

Run by ctest with PYTHONPATH at the built module and MORRIS at the morris tool.
"""
import json
import os
import random
import shutil
import subprocess
import threading

import pytest

import morris

MORRIS = os.environ["MORRIS"]
NINE_3_3 = "......B....WW..BWB...... w 0 0"
NINE_3_3_FEN = "O@O@O@**/********/******** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"
FIVE_MOVING = "W.W.B.B.W.B.W.B. w 0 0"


def solve(directory, variant, *options):
    subprocess.run([MORRIS, "solve", "--variant", variant, "--db", str(directory),
                    "--no-progress", *options], check=True, stdout=subprocess.DEVNULL)


def query(directory, variant, position, *options):
    """morris query's answer; a position that is a turn list goes in --moves."""
    where = [position] if "." in position or "/" in position else ["--moves", position]
    out = subprocess.run([MORRIS, "query", *where, "--variant", variant, "--db",
                          str(directory), "--json", *options],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.fixture(scope="module")
def dbs(tmp_path_factory):
    root = tmp_path_factory.mktemp("dbs")
    solve(root / "five", "five")
    solve(root / "five-n9", "five", "--rule", "n_move=9")
    solve(root / "nine", "nine", "--sectors", "3-3-0-0")
    subprocess.run([MORRIS, "compact", "--variant", "five", "--db", str(root / "five"), "--out",
                    str(root / "five-wdl"), "--no-progress"], check=True,
                   stdout=subprocess.DEVNULL)
    return root


def expect_as_query(db, answer, position):
    outcome = db.probe(position)
    assert outcome.value == answer["value"]
    assert outcome.plies == answer["plies"]
    turns = db.turns(position)
    assert [t.text for t in turns] == [t["turn"] for t in answer["turns"]]
    assert [(t.value, t.plies) for t in turns] == [(t["value"], t["plies"])
                                                   for t in answer["turns"]]


@pytest.mark.parametrize("moves", ["", "a1 b2 a3 c2", "a1 b2 a3 c2 a5xb2"])
def test_answers_as_query_does(dbs, moves):
    with morris.open(str(dbs / "five"), "five") as db:
        answer = query(dbs / "five", "five", moves)
        expect_as_query(db, answer, moves)
        expect_as_query(db, answer, answer["position"])
        assert db.position(moves) == answer["position"]


@pytest.mark.parametrize("counter", [0, 4, 6, 8])
def test_the_counter_under_the_n_move_rule(dbs, counter):
    db = morris.open(str(dbs / "five-n9"), "five", rules="n_move=9")
    position = f"{FIVE_MOVING} {counter}"
    answer = query(dbs / "five-n9", "five", position, "--rule", "n_move=9")
    expect_as_query(db, answer, position)
    drawn = [t.drawn_by_counter for t in db.turns(position)]
    assert drawn == [t["draw_by_counter"] for t in answer["turns"]]


def test_fen_in_and_out(dbs):
    db = morris.open(str(dbs / "nine"), "nine")
    assert db.fen(NINE_3_3) == NINE_3_3_FEN
    assert db.position(NINE_3_3_FEN) == NINE_3_3
    assert db.probe(NINE_3_3_FEN) == db.probe(NINE_3_3)
    expect_as_query(db, query(dbs / "nine", "nine", NINE_3_3), NINE_3_3_FEN)


def test_turn_fields(dbs):
    db = morris.open(str(dbs / "five"), "five")
    for turn in db.turns(FIVE_MOVING):
        assert turn.origin is not None and turn.text.startswith(turn.origin + "-")
        assert turn.text.split("-")[1].startswith(turn.destination)
        assert all("x" + point in turn.text for point in turn.removed)
    placements = db.turns("")
    assert all(t.origin is None and t.text == t.destination for t in placements)
    assert repr(placements[0]).startswith("Turn(text=")


def test_threads_share_a_database(dbs):
    db = morris.open(str(dbs / "five"), "five")
    expected = [repr(t) for t in db.turns("a1 b2 a3 c2")]
    seen = []

    def sweep():
        for _ in range(20):
            seen.append([repr(t) for t in db.turns("a1 b2 a3 c2")])

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 80 and all(s == expected for s in seen)


def test_bad_arguments_raise_value_error(dbs):
    with pytest.raises(ValueError, match="no-such-variant"):
        morris.open(str(dbs / "five"), "no-such-variant")
    with pytest.raises(ValueError, match="n_move"):
        morris.open(str(dbs / "five"), "five", rules="n_move=0")
    db = morris.open(str(dbs / "five"), "five")
    for bad in ["not a position", "x" * 16 + " w 5 5", "a1 a1", FIVE_MOVING + " 3",
                NINE_3_3_FEN]:
        with pytest.raises(ValueError):
            db.probe(bad)
    with pytest.raises(TypeError):
        db.probe(None)


def test_random_text_never_crashes(dbs):
    db = morris.open(str(dbs / "five"), "five")
    rng = random.Random(20261202)
    alphabet = "WB.wb0123456789 -xabcde/*O@"
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        try:
            db.probe(text)
        except ValueError:
            pass


def test_missing_and_damaged_files_raise_database_error(dbs, tmp_path):
    with pytest.raises(morris.DatabaseError, match="no such database directory"):
        morris.open(str(tmp_path / "none"), "five")
    damaged = tmp_path / "damaged"
    shutil.copytree(dbs / "five", damaged)
    [start] = [f for f in os.listdir(damaged) if "_0-0-5-5." in f]
    with open(damaged / start, "r+b") as f:
        f.truncate(100)
    db = morris.open(str(damaged), "five")
    with pytest.raises(morris.DatabaseError, match=start):
        db.probe("")
    # A database for other rules is foreign.
    foreign = morris.open(str(dbs / "five"), "five", rules="removal=strict")
    with pytest.raises(morris.DatabaseError):
        foreign.probe("")
    db.close()
    with pytest.raises(morris.DatabaseError, match="closed"):
        db.probe("")
    assert issubclass(morris.DatabaseError, RuntimeError)


def test_wdl_only_files_give_values_not_distances(dbs):
    full = morris.open(str(dbs / "five"), "five")
    wdl = morris.open(str(dbs / "five-wdl"), "five")
    rng = random.Random(7)
    for _ in range(200):
        moves = []
        for _ in range(rng.randrange(30)):
            turns = full.turns(" ".join(moves))
            if not turns:
                break
            moves.append(rng.choice(turns).text)
        position = " ".join(moves)
        assert wdl.probe_wdl(position) == full.probe(position).value == full.probe_wdl(position)
    with pytest.raises(morris.DatabaseError, match="full database"):
        wdl.probe("")
