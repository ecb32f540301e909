// The rules that depend on stone counts alone (docs/rules.md §4, §6), each
// written once: positions (game/position.hpp), their turns
// (game/turns.hpp) and sectors (game/sector.hpp) all ask these.
#pragma once

#include <cstdint>

#include "game/variant.hpp"

namespace morris {

enum Colour : uint8_t { white = 0, black = 1 };
inline Colour opponent(Colour c) { return static_cast<Colour>(c ^ 1); }

// A side with fewer stones than this, on the board and in hand, has lost.
inline constexpr int kFewestStones = 3;
// Under flying=3, a side with this many stones (on board and in hand) flies.
inline constexpr int kFlyingStones = 3;

// Whether a side with `stones` on board and in hand moves to any empty point.
inline bool flies(const Rules& rules, int stones) {
    return rules.flying == Flying::at_three && stones == kFlyingStones;
}

// Whether a side with these stones may move one (rather than only place):
// with an empty hand always, under place-or-move once it has a stone down.
inline bool may_move(const Rules& rules, int in_hand, int on_board) {
    return in_hand == 0 || (rules.placement == Placement::place_or_move && on_board > 0);
}

// The most stones one turn removes: one, or two when it closes two mills
// under double_mill=two.
inline int most_removals(const Rules& rules) {
    return rules.double_mill == DoubleMill::two ? 2 : 1;
}

// Whether `side` may be the side to move when it holds `mover_hand` stones
// and its opponent `opponent_hand`. Under place-only White places first:
// White to move holds as many as Black, Black to move one more, and either
// side may move once both hands are empty. Under place-or-move any hands fit.
inline bool hands_fit_turn_order(const Rules& rules, Colour side, int mover_hand,
                                 int opponent_hand) {
    if (rules.placement == Placement::place_or_move) return true;
    if (mover_hand == 0 && opponent_hand == 0) return true;
    return mover_hand == opponent_hand + (side == black ? 1 : 0);
}

}  // namespace morris
