// For engines: every legal turn of a position with the value it leads to,
// best first (what Fathom's tb_probe_root is for chess). It needs the rules,
// so it lives with them rather than in the rule-free lookup library.
#pragma once

#include <string>
#include <vector>

#include "db/database.hpp"
#include "game/position.hpp"

namespace morris {

struct RankedTurn {
    Turn turn;
    // For the side that plays the turn, with plies counted from the position
    // before it: a turn into the opponent's loss in 4 is a win in 5.
    Outcome outcome;
};

struct RankedTurns {
    std::vector<RankedTurn> turns;  // best first; ties in generation order
    std::string error;              // empty on success
    bool ok() const { return error.empty(); }
};

RankedTurns rank_turns(const Database& database, const Position& position);

// Whether `a` is better than `b` for the side choosing: quicker wins, then
// draws, then slower losses.
bool better(const Outcome& a, const Outcome& b);

}  // namespace morris
