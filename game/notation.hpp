// The text forms of docs/rules.md §6: positions, turns and lists of turns
// from the start. Parsers check what they read and throw NotationError with
// one line saying what is wrong and where.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "game/position.hpp"
#include "game/variant.hpp"

namespace morris {

// "<board> <side> <white-in-hand> <black-in-hand>".
std::string to_string(const Variant& variant, const Position& position);
// "d2", "a1-a4", "d2xg7", "d2xg7xa1".
std::string to_string(const Variant& variant, const Turn& turn);

struct NotationError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
// Text that reads as a position, but not a valid one (docs/rules.md §6), or
// a counter out of range (§8).
struct InvalidPositionError : NotationError {
    using NotationError::NotationError;
};

// Parses "<board> <side> <white-in-hand> <black-in-hand>" and checks validity.
Position parse_position(const Variant& variant, std::string_view text);

// A number of stones (0 to 99) written as `word`; NotationError naming
// `what` otherwise.
int parse_stone_count(std::string_view word, const std::string& what);

// Parses a turn's syntax only ("d2", "a1-a4xg7"); legality is the rules' job.
Turn parse_turn(const Variant& variant, std::string_view text);

// Parses a turn and finds it among the legal turns of `position`; throws
// NotationError for a malformed or illegal one, naming `ply` when it is > 0.
Turn parse_legal_turn(const Variant& variant, const Position& position, std::string_view text,
                      int ply = 0);

// A position with the N-move counter: plies since the last placement or
// removal (docs/rules.md §8); always 0 without the rule.
struct CountedPosition {
    Position position;
    int counter = 0;
};

// Whether the N-move rule has drawn the game at `counter`: N plies without
// a placement or removal.
inline bool drawn_by_n_move(const Rules& rules, int counter) {
    return rules.has_n_move() && counter >= rules.n_move;
}

// The position a legal turn leads to, with its counter (counted only under
// the N-move rule). A turn that leaves its opponent lost ends the game before
// the rule can draw it: its counter stays below N (docs/rules.md §8).
CountedPosition play_turn(const Variant& variant, const CountedPosition& at, const Turn& turn);

// Parses a position (or Sanmill's FEN, game/fen.hpp), with the counter as an optional fifth field
// (only under the N-move rule, and below its N), or a list of turns from the start (each checked
// for legality, so this needs the rules of game/turns.hpp), whose counter is what its turns leave;
// a list that the rule ends in a draw is an error.
CountedPosition parse_counted_position(const Variant& variant, std::string_view text);
// The same without the counter.
Position parse_position_or_turns(const Variant& variant, std::string_view text);

// The words of `text`, split at white space.
std::vector<std::string_view> split_words(std::string_view text);

}  // namespace morris
