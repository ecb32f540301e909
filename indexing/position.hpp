// Positions and turns, and SPEC §5's notation for both.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "indexing/variant.hpp"

namespace morris {

// A side with fewer stones than this, on the board and in hand, has lost (SPEC §3).
inline constexpr int kFewestStones = 3;

enum Colour : uint8_t { white = 0, black = 1 };
inline Colour opponent(Colour c) { return static_cast<Colour>(c ^ 1); }

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

// Why a position breaks SPEC §5's validity rule, or "" when it is valid.
std::string invalid_reason(const Variant& variant, const Position& position);
// The same test without the explanation, for hot loops.
bool is_valid(const Variant& variant, const Position& position);

// "<board> <side> <white-in-hand> <black-in-hand>".
std::string to_string(const Variant& variant, const Position& position);

// A turn: a placement (from < 0) or a move, and up to two removals.
struct Turn {
    int8_t from = -1;
    int8_t to = -1;
    int8_t removed[2] = {-1, -1};

    bool is_placement() const { return from < 0; }
    int removals() const { return (removed[0] >= 0) + (removed[1] >= 0); }
    bool operator==(const Turn&) const = default;
};

std::string to_string(const Variant& variant, const Turn& turn);

// Thrown for text that is not a valid position or turn; what() is one line
// saying what is wrong and where.
struct NotationError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Parses "<board> <side> <white-in-hand> <black-in-hand>" and checks validity.
// (A list of turns from the start needs the rules: see solver/rules.hpp.)
Position parse_position(const Variant& variant, std::string_view text);

// The words of `text`, split at white space.
std::vector<std::string_view> split_words(std::string_view text);

// Parses a turn's syntax only ("d2", "a1-a4xg7"); legality is the rules' job.
Turn parse_turn(const Variant& variant, std::string_view text);

}  // namespace morris
