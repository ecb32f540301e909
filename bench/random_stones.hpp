// Random positions on nine's board for the benchmarks: more of them than a
// cache or a branch predictor holds, walked in a ring.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "game/sector.hpp"

namespace morris::bench {

inline constexpr size_t kSamples = 1 << 16;  // a power of two: i & (kSamples - 1) wraps

// kSamples sets of `mover` and `opponent` stones, apart, on 24 points.
inline std::vector<Stones> random_stones(int mover, int opponent) {
    std::mt19937_64 rng(1);
    std::vector<int> points(24);
    std::vector<Stones> samples(kSamples);
    for (Stones& s : samples) {
        std::iota(points.begin(), points.end(), 0);
        std::shuffle(points.begin(), points.end(), rng);
        for (int i = 0; i < mover; ++i) s.mover |= 1u << points[i];
        for (int i = 0; i < opponent; ++i) s.opponent |= 1u << points[mover + i];
    }
    return samples;
}

}  // namespace morris::bench
