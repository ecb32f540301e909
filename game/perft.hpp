// Perft: counts turn sequences, the standard check of a turn generator.
#pragma once

#include <cstdint>

#include "game/position.hpp"

namespace morris {

// The number of turn sequences of `depth` plies from `position`; each removal
// choice is its own turn and a sequence stops counting when the game ends.
uint64_t perft(const Variant& variant, const Position& position, int depth);

}  // namespace morris
