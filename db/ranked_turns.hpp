// For engines: every legal turn of a position with the value it leads to,
// best first (what Fathom's tb_probe_root is for chess), and the N-move
// rule's reading of stored outcomes at a counter (docs/rules.md §8).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "game/position.hpp"
#include "game/turns.hpp"

namespace morris {

struct RankedTurn {
    Turn turn;
    // For the side that plays the turn, with plies counted from the position
    // before it: a turn into the opponent's loss in 4 is a win in 5. Under
    // the N-move rule the plies count to the next resetting turn: a turn that
    // resets is one ply.
    Outcome outcome;
    // A draw only because of the N-move rule: the turn leads to a win or a
    // loss that the counter it leaves has no room for.
    bool drawn_by_rule = false;
};

struct RankedTurns {
    std::vector<RankedTurn> turns;     // best first; ties in generation order
    std::string error;                 // empty on success
    bool needs_full_database = false;  // as ProbeResult's
    bool ok() const { return error.empty(); }
};

// Every legal turn of `position`, at `counter` plies since the last resetting
// turn (always 0 without the N-move rule).
RankedTurns rank_turns(const Database& database, const Position& position, int counter = 0);

// The turn an engine plays (`morris play`, the page of `morris serve`): the
// fastest win; in a lost position the slowest loss; in a drawn one, of the
// drawing turns, the one after which the opponent has the most turns that
// lose, so that a fallible opponent has the most chances to go wrong. Ties go
// to the turn ranked first. No turn when the game is over.
struct PickedTurn {
    std::optional<RankedTurn> turn;
    std::string error;  // empty on success
    // The error is that the files are WDL-only: picking needs distances.
    bool needs_full_database = false;
    bool ok() const { return error.empty(); }
};
PickedTurn pick_turn(const Database& database, const Position& position, int counter = 0);

// A stored outcome (the value at counter 0) read at `counter`: under the
// N-move rule a win or loss is one only when its plies fit in what the
// counter leaves, n_move - counter; otherwise it is a draw. Without the rule,
// the outcome itself.
Outcome at_counter(const Rules& rules, const Outcome& stored, int counter);

// The outcome of the position a turn leads to, for its side to move, given
// its stored outcome: at the counter the turn leaves, and under the N-move
// rule with no plies beyond a resetting turn (the next resetting turn is
// that one).
Outcome after_turn(const Rules& rules, const Turn& turn, const Outcome& stored, int counter);

// What a turn to a position of outcome `after` (for its side to move) gives
// the side that plays it: a win in plies + 1 for a loss, and so on.
Outcome for_the_mover(const Outcome& after);

// Whether `a` is better than `b` for the side choosing: quicker wins, then
// draws, then slower losses.
bool better(const Outcome& a, const Outcome& b);

}  // namespace morris
