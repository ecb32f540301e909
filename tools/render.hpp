// Text renderings for the CLI: the board as ASCII art, JSON strings.
#pragma once

#include <string>

#include "game/position.hpp"

namespace morris {

// The board with its lines, W and B for stones, files and ranks labelled.
std::string draw_board(const Variant& variant, const Position& position);

// `text` as a JSON string literal, quotes included.
std::string json_string(const std::string& text);

}  // namespace morris
