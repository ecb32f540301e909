// `morris play`: a game against perfect play in the terminal. The player
// types turns on standard input; the program answers with pick_turn's
// choice and says the value after every turn, until the game ends (or the
// player types "quit" or input ends).
#pragma once

#include <string>

#include "game/counts.hpp"
#include "game/variant.hpp"

namespace morris {

// `human` is the colour the player takes; `position_text` ("" for the start)
// is where the game begins. Returns the exit code.
int run_play(const Variant& variant, const std::string& directory, Colour human,
             const std::string& position_text);

}  // namespace morris
