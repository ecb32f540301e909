#include "tools/serve.hpp"

#include <fmt/core.h>
#include <httplib.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <stdexcept>
#include <thread>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/notation.hpp"
#include "game/turns.hpp"
#include "tools/query.hpp"
#include "tools/render.hpp"

namespace morris {

extern const char* const kPage;  // tools/web/index.html, built in (page.cpp.in)

namespace {

// Longer text than any position, FEN or game of turns a page sends.
constexpr size_t kLongestParameter = 4096;
constexpr size_t kLongestRequestBody = 64 * 1024;

// A required query parameter; std::invalid_argument (400) when it is missing.
std::string parameter(const httplib::Request& request, const char* key) {
    if (!request.has_param(key))
        throw std::invalid_argument(std::string("missing parameter '") + key + "'");
    std::string value = request.get_param_value(key);
    if (value.size() > kLongestParameter)
        throw std::invalid_argument(std::string("parameter '") + key + "' is too long");
    return value;
}

std::string error_json(const std::string& message) {
    return "{\"error\": " + json_string(message) + "}";
}

// Runs `answer` for a JSON response: bad input (std::invalid_argument, which
// NotationError is) is 400, distances asked of WDL-only files 501,
// anything else (a damaged file) 500, all with the message.
template <typename Answer>
void respond(httplib::Response& response, Answer&& answer) {
    try {
        response.set_content(answer(), "application/json");
    } catch (const NeedsFullDatabase& e) {
        response.status = 501;  // the request is sound; these files cannot answer it
        response.set_content(error_json(e.what()), "application/json");
    } catch (const std::invalid_argument& e) {
        response.status = 400;
        response.set_content(error_json(e.what()), "application/json");
    } catch (const std::exception& e) {
        response.status = 500;
        response.set_content(error_json(e.what()), "application/json");
    }
}

// The position's text, with the counter as its fifth field under the N-move rule.
std::string counted_text(const Variant& v, const CountedPosition& at) {
    std::string text = to_string(v, at.position);
    if (v.rules.has_n_move()) text += " " + std::to_string(at.counter);
    return text;
}

// What the page needs to draw the board: points in canonical order (bit i of
// a position is points[i]; names give their place), edges, the start.
std::string board_json(const Variant& v) {
    const Board& board = *v.board;
    std::string points, edges;
    for (int a = 0; a < board.points; ++a) {
        points += (a ? ", " : "") + json_string(board.point_names[a]);
        for (int b = a + 1; b < board.points; ++b)
            if (board.neighbours[a] >> b & 1)
                edges += fmt::format("{}[{}, {}]", edges.empty() ? "" : ", ", a, b);
    }
    return fmt::format(
        "{{\"variant\": {}, \"board\": {}, \"stones\": {}, \"n_move\": {}, \"rules\": {}, "
        "\"points\": [{}], \"edges\": [{}], \"start\": {}}}",
        json_string(v.name), json_string(board.name), v.stones,
        v.rules.has_n_move() ? std::to_string(v.rules.n_move) : "null", json_string(v.rule_text()),
        points, edges, json_string(counted_text(v, {start_position(v), 0})));
}

// The position a turn leads to; under the N-move rule, "drawn_by_rule" when
// the turn used up the counter (that position has no counter to write).
std::string after_json(const Variant& v, const std::string& position, const std::string& turn) {
    const CountedPosition before = parse_counted_position(v, position);
    const CountedPosition at = play_turn(v, before, parse_legal_turn(v, before.position, turn));
    if (drawn_by_n_move(v.rules, at.counter))
        return fmt::format("{{\"position\": {}, \"drawn_by_rule\": true}}",
                           json_string(to_string(v, at.position)));
    return fmt::format("{{\"position\": {}, \"drawn_by_rule\": false}}",
                       json_string(counted_text(v, at)));
}

std::string best_json(const Database& db, const std::string& position) {
    const CountedPosition at = parse_counted_position(db.variant(), position);
    const PickedTurn picked = pick_turn(db, at.position, at.counter);
    if (picked.needs_full_database) throw NeedsFullDatabase(picked.error);
    if (!picked.ok()) throw DatabaseError(picked.error);
    if (!picked.turn) return "{\"turn\": null}";
    return fmt::format("{{\"turn\": {}}}", json_string(to_string(db.variant(), picked.turn->turn)));
}

// Blocks SIGINT and SIGTERM in this thread and those it starts, and stops
// the server from a thread of its own when one arrives: a signal handler may
// not call into the server. A stop asked before the server listens does
// nothing, so the waiter asks again until the listening ends.
class StopOnSignal {
  public:
    explicit StopOnSignal(httplib::Server& server) {
        sigemptyset(&signals_);
        sigaddset(&signals_, SIGINT);
        sigaddset(&signals_, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
        waiter_ = std::thread([this, &server] {
            int signal = 0;
            sigwait(&signals_, &signal);
            while (!listening_ended_) {
                server.stop();
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        });
    }
    // Called once the server's listen returned.
    ~StopOnSignal() {
        listening_ended_ = true;
        pthread_kill(waiter_.native_handle(), SIGTERM);  // wakes a waiter still in sigwait
        waiter_.join();
    }

  private:
    sigset_t signals_;
    std::atomic<bool> listening_ended_{false};
    std::thread waiter_;
};

}  // namespace

int run_serve(const Variant& v, const ServeOptions& options) {
    require_database_directory(options.directory);
    const Database db(options.directory, v);
    const Databases dbs{db};
    httplib::Server server;
    server.set_payload_max_length(kLongestRequestBody);

    auto page = [](const httplib::Request&, httplib::Response& response) {
        response.set_content(kPage, "text/html; charset=utf-8");
    };
    server.Get("/", page);
    server.Get("/index.html", page);
    server.Get("/api/board", [&](const httplib::Request&, httplib::Response& response) {
        respond(response, [&] { return board_json(v); });
    });
    server.Get("/api/query", [&](const httplib::Request& request, httplib::Response& response) {
        respond(response, [&] {
            return query_json(v, answer_position(dbs, parameter(request, "position")));
        });
    });
    server.Get("/api/after", [&](const httplib::Request& request, httplib::Response& response) {
        respond(response, [&] {
            return after_json(v, parameter(request, "position"), parameter(request, "turn"));
        });
    });
    server.Get("/api/best", [&](const httplib::Request& request, httplib::Response& response) {
        respond(response, [&] { return best_json(db, parameter(request, "position")); });
    });
    server.set_error_handler([](const httplib::Request& request, httplib::Response& response) {
        if (response.status == 404)
            response.set_content(error_json("no such page: " + request.path), "application/json");
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
            response.status = 500;
            response.set_content(error_json("internal error"), "application/json");
        });

    const int port = options.port == 0
                         ? server.bind_to_any_port(options.address)
                         : (server.bind_to_port(options.address, options.port) ? options.port : -1);
    if (port < 0)
        throw std::runtime_error(
            fmt::format("cannot listen on {}:{}", options.address, options.port));
    fmt::print("morris serve: {} at http://{}:{}/ (Ctrl-C to stop)\n", v.name, options.address,
               port);
    std::fflush(stdout);
    {
        StopOnSignal stop(server);
        server.listen_after_bind();
    }
    fmt::print("morris serve: stopped\n");
    return 0;
}

}  // namespace morris
