#include "game/perft.hpp"

#include <vector>

#include "game/turns.hpp"

namespace morris {

uint64_t perft(const Variant& v, const Position& p, int depth) {
    if (depth == 0) return 1;
    std::vector<Turn> turns;
    generate_turns(v, p, turns);
    if (depth == 1) return turns.size();
    uint64_t count = 0;
    for (const Turn& t : turns) count += perft(v, apply_turn(v, p, t), depth - 1);
    return count;
}

}  // namespace morris
