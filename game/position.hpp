// Positions and turns as values, and the one validity rule of positions
// (docs/rules.md §6). Their text forms are in game/notation.hpp.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "game/counts.hpp"
#include "game/variant.hpp"

namespace morris {

struct Position {
    Bitboard stones[2] = {0, 0};  // by colour
    uint8_t in_hand[2] = {0, 0};  // by colour
    Colour side = white;          // to move

    Colour other() const { return opponent(side); }
    Bitboard occupied() const { return stones[0] | stones[1]; }
    int on_board(Colour c) const { return std::popcount(stones[c]); }
    int total(Colour c) const { return on_board(c) + in_hand[c]; }
    bool operator==(const Position&) const = default;
};

Position start_position(const Variant& variant);

// What makes a position invalid (docs/rules.md §6), the first found in this order.
enum class Flaw : uint8_t {
    none,
    shared_point,       // a point holds two stones
    off_board,          // a stone stands on no point of the board
    too_many_stones,    // a side has more than the variant's stones
    opponent_has_lost,  // the side not to move has fewer than kFewestStones
    hands_out_of_turn,  // the hands do not fit the turn order
};

// The one validity check: cheap enough for hot loops (compare with Flaw::none).
Flaw find_flaw(const Variant& variant, const Position& position);
inline bool is_valid(const Variant& variant, const Position& position) {
    return find_flaw(variant, position) == Flaw::none;
}
// Why a position is invalid, in one line for a user; "" when it is valid.
std::string invalid_reason(const Variant& variant, const Position& position);

// Why an N-move counter cannot stand beside a position under `rules`
// (docs/rules.md §8): negative, given without the rule, or not below N
// (the rule has drawn the game); "" when it can. Without the rule only 0 can.
std::string counter_flaw(const Rules& rules, int counter);

// A turn: a placement (from < 0) or a move, and up to two removals.
struct Turn {
    int8_t from = -1;
    int8_t to = -1;
    int8_t removed[2] = {-1, -1};

    bool is_placement() const { return from < 0; }
    int removals() const { return (removed[0] >= 0) + (removed[1] >= 0); }
    bool operator==(const Turn&) const = default;
};

}  // namespace morris
