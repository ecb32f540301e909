#include "tools/play.hpp"

#include <fmt/core.h>

#include <iostream>
#include <string>
#include <utility>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/notation.hpp"
#include "game/turns.hpp"
#include "tools/query.hpp"
#include "tools/render.hpp"

namespace morris {

namespace {

const char* name(Colour c) { return c == white ? "White" : "Black"; }

std::string legal_turns(const Variant& v, const Position& p) {
    std::vector<Turn> turns;
    generate_turns(v, p, turns);
    std::string list;
    for (const Turn& t : turns) list += (list.empty() ? "" : " ") + to_string(v, t);
    return list;
}

std::string plies(int n) { return fmt::format("{} {}", n, n == 1 ? "ply" : "plies"); }

// The outcome for the side to move, in words: "White to move wins in 13 plies".
std::string in_words(Colour side, const Outcome& o) {
    switch (o.value) {
        case Value::win: return fmt::format("{} to move wins in {}", name(side), plies(o.plies));
        case Value::loss: return fmt::format("{} to move loses in {}", name(side), plies(o.plies));
        case Value::draw: break;
    }
    return fmt::format("{} to move: a draw with best play", name(side));
}

// Ends the game if it is over; returns whether it was.
bool game_over(const Variant& v, const CountedPosition& at) {
    const Position& p = at.position;
    switch (status(v, p)) {
        case Status::loss:
            fmt::print("{} wins: {} {}.\n", name(p.other()), name(p.side),
                       p.total(p.side) < kFewestStones ? "has fewer than 3 stones" : "cannot move");
            return true;
        case Status::draw: fmt::print("Draw: the board is full.\n"); return true;
        case Status::playing: break;
    }
    if (drawn_by_n_move(v.rules, at.counter)) {
        fmt::print("Draw by the N-move rule: {} plies without a placement or removal.\n",
                   v.rules.n_move);
        return true;
    }
    return false;
}

}  // namespace

int run_play(const Variant& v, const std::string& directory, Colour human,
             const std::string& position_text) {
    require_database_directory(directory);
    const Database db(directory, v);
    CountedPosition at{start_position(v), 0};
    if (!position_text.empty()) at = parse_counted_position(v, position_text);
    fmt::print(
        "You play {} in {}. Type a turn (d2, a1-a4, d2xg7), 'turns' for the legal "
        "turns with their values, or 'quit'.\n",
        name(human), v.name);
    // Whether the position is new since the board was last drawn: input that
    // plays no turn does not draw it again.
    bool moved = true;
    for (;;) {
        const Position& p = at.position;
        if (std::exchange(moved, false)) {
            fmt::print("\n{}\n{}\n", draw_board(v, p), to_string(v, p));
            if (game_over(v, at)) return 0;
            const ProbeResult r = db.probe(p);
            if (!r.ok()) throw DatabaseError(r.error);
            fmt::print("{}\n", in_words(p.side, at_counter(v.rules, r.outcome, at.counter)));
        }

        Turn turn;
        if (p.side == human) {
            fmt::print("{}> ", name(human));
            std::fflush(stdout);
            std::string line;
            if (!std::getline(std::cin, line) || line == "quit") {
                fmt::print("\nGame left at {}.\n", to_string(v, p));
                return 0;
            }
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            if (line == "turns") {
                const RankedTurns ranked = rank_turns(db, p, at.counter);
                if (!ranked.ok()) throw DatabaseError(ranked.error);
                for (const RankedTurn& t : ranked.turns)
                    fmt::print("  {:<12} {}\n", to_string(v, t.turn), to_string(t.outcome));
                continue;
            }
            try {
                turn = parse_legal_turn(v, p, split_words(line).front());
            } catch (const NotationError& e) {
                fmt::print("{}\nLegal turns: {}\n", e.what(), legal_turns(v, p));
                continue;
            }
        } else {
            const PickedTurn picked = pick_turn(db, p, at.counter);
            if (!picked.ok()) throw DatabaseError(picked.error);
            turn = picked.turn->turn;
            fmt::print("morris plays {} ({} for {})\n", to_string(v, turn),
                       to_string(picked.turn->outcome), name(p.side));
        }
        at = play_turn(v, at, turn);
        moved = true;
    }
}

}  // namespace morris
