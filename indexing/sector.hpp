// Sectors: positions grouped by stone counts, seen from the side to move, so
// that a position and its colour-swapped twin share one sector and one index.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "indexing/position.hpp"

namespace morris {

struct SectorKey {
    uint8_t mover_on_board = 0;
    uint8_t opponent_on_board = 0;
    uint8_t mover_in_hand = 0;
    uint8_t opponent_in_hand = 0;

    auto operator<=>(const SectorKey&) const = default;
    int stones() const {
        return mover_on_board + opponent_on_board + mover_in_hand + opponent_in_hand;
    }
};

SectorKey sector_of(const Position& position);

// "3-3-0-0": on board of mover, of opponent, then in hand of each.
std::string to_string(const SectorKey& key);
std::optional<SectorKey> parse_sector(std::string_view text);

// A position seen from the side to move: `mover` and `opponent` stones.
struct Stones {
    Bitboard mover = 0;
    Bitboard opponent = 0;
    bool operator==(const Stones&) const = default;
};

inline Stones stones_of(const Position& p) { return {p.stones[p.side], p.stones[p.other()]}; }

// The position of sector `key` with these stones and `side` to move. Inline
// and whole-field writes only (see apply_turn): the solver builds one per
// position into its batches, and a returned copy read back in parts stalls
// store forwarding.
inline Position position_of(const SectorKey& key, const Stones& stones, Colour side) {
    const bool white_moves = side == white;
    Position p;
    p.side = side;
    p.stones[white] = white_moves ? stones.mover : stones.opponent;
    p.stones[black] = white_moves ? stones.opponent : stones.mover;
    p.in_hand[white] = white_moves ? key.mover_in_hand : key.opponent_in_hand;
    p.in_hand[black] = white_moves ? key.opponent_in_hand : key.mover_in_hand;
    return p;
}

}  // namespace morris
