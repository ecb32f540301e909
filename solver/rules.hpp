// The rules of SPEC §3: legal turns, their results, terminal positions and,
// for the retrograde solver, the predecessors by turns that remove nothing.
#pragma once

#include <string_view>
#include <vector>

#include "indexing/position.hpp"
#include "indexing/variant.hpp"

namespace morris {

// How a position stands before any turn is looked at.
enum class Status {
    playing,  // the side to move has a legal turn
    loss,     // fewer than 3 stones, or blocked (and the full-board rule says loss)
    draw,     // blocked on a full board under full_board=draw
};

// All legal turns, each removal choice its own turn. Cleared first.
void generate_turns(const Variant& variant, const Position& position, std::vector<Turn>& turns);

Status status(const Variant& variant, const Position& position);

// The position after a turn; the turn must be legal.
Position apply_turn(const Variant& variant, const Position& position, const Turn& turn);

// Every position Q whose legal turns include one that removes nothing and
// leads to `position` (Q valid and not over). Cleared first; no duplicates.
void generate_unturns(const Variant& variant, const Position& position,
                      std::vector<Position>& predecessors);

// The opponent stones the side to move may remove from `position` after
// closing a mill, under the variant's removal rule.
Bitboard removable(const Variant& variant, Bitboard opponent_stones);

// Parses a position, or a list of turns from the start (each checked for
// legality). Throws NotationError with one line naming the problem.
Position parse_position_or_turns(const Variant& variant, std::string_view text);

}  // namespace morris
