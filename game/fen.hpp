// Sanmill's FEN for positions of the 24-point boards (docs/fen.md): read
// and written, so that positions move between this project and Sanmill's
// engine and app.
#pragma once

#include <string>
#include <string_view>

#include "game/notation.hpp"

namespace morris {

// Whether a variant's positions have a FEN: those of the 24-point boards.
bool has_fen(const Variant& variant);

// Whether a text is meant as a FEN: its first word holds the rings' '/'.
bool looks_like_fen(std::string_view text);

// The FEN of a position at an N-move counter (Sanmill's rule50 field). The
// FEN's history fields say "none" and its move number is 1: a position here
// does not know them. Throws NotationError for a board without 24 points.
std::string to_fen(const Variant& variant, const Position& position, int counter = 0);

// Reads a FEN (docs/fen.md): fields that do not change the value under this
// project's rules (last mills, used mills, move number, a preferred removal)
// are accepted and ignored; those that do (a removal pending, marked points,
// capture rules of other games, on-board counts that contradict the board)
// are refused with a NotationError saying which. Under the N-move rule the
// rule50 field is the counter; without it the field is ignored.
CountedPosition parse_fen(const Variant& variant, std::string_view text);

}  // namespace morris
