// Sectors: positions grouped by stone counts, seen from the side to move, so
// that a position and its colour-swapped twin share one sector and one index
// (docs/rules.md §7); and the rules of sectors, which follow from the rules
// of counts (game/counts.hpp): which are valid, whose turn it is, who flies,
// which sectors a turn leads into.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/position.hpp"

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

// Whether a sector's positions are valid (docs/rules.md §6) and its side to
// move has not lost for want of stones.
bool is_valid_sector(const Variant& variant, const SectorKey& key);

// Whether the side to move of a sector has lost for want of stones.
inline bool is_lost_sector(const SectorKey& key) {
    return key.mover_on_board + key.mover_in_hand < kFewestStones;
}

// The colour to move in a sector's positions: black when the hands say
// White has placed one more (the turn order of game/counts.hpp), else white.
inline Colour side_to_move(const Variant& variant, const SectorKey& key) {
    return hands_fit_turn_order(variant.rules, white, key.mover_in_hand, key.opponent_in_hand)
               ? white
               : black;
}

// Whether the side to move of a sector's positions flies.
inline bool mover_flies(const Variant& variant, const SectorKey& key) {
    return flies(variant.rules, key.mover_on_board + key.mover_in_hand);
}

// Whether a sector's positions may move a stone (else they only place).
inline bool mover_may_move(const Variant& variant, const SectorKey& key) {
    return may_move(variant.rules, key.mover_in_hand, key.mover_on_board);
}

// The sector after a turn of a sector's side to move that placed a stone
// (or moved one) and removed `removed` of the opponent's: seen from the
// opponent, who moves next. Where the opponent is left with fewer than
// kFewestStones, is_lost_sector() says so of the result.
inline SectorKey sector_after(const SectorKey& key, bool placed, int removed) {
    return {static_cast<uint8_t>(key.opponent_on_board - removed),
            static_cast<uint8_t>(key.mover_on_board + (placed ? 1 : 0)), key.opponent_in_hand,
            static_cast<uint8_t>(key.mover_in_hand - (placed ? 1 : 0))};
}

// Every sector a turn from `key` may lead into, sorted, including those whose
// side to move has lost for want of stones.
std::vector<SectorKey> successor_sectors(const Variant& variant, const SectorKey& key);

// "3-3-0-0": on board of mover, of opponent, then in hand of each.
std::string to_string(const SectorKey& key);
// A unit's sectors, "8-9-0-0+9-8-0-0": joined by '+'.
std::string to_string(const std::vector<SectorKey>& keys);
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
