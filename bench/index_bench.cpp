// Indexing throughput on nine's largest sectors: what every solver step and
// every lookup pays.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <random>
#include <vector>

#include "bench/random_stones.hpp"
#include "indexing/perfect_hash.hpp"

namespace {

using namespace morris;
using bench::kSamples;
using bench::random_stones;

const SectorIndex& nine_sector(int mover, int opponent) {
    return sector_index(*find_board("b24"), mover, opponent);
}

void BM_IndexRandom(benchmark::State& state) {
    const int mover = static_cast<int>(state.range(0)), opponent = static_cast<int>(state.range(1));
    const SectorIndex& sector = nine_sector(mover, opponent);
    const auto samples = random_stones(mover, opponent);
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sector.index(samples[i]));
        i = (i + 1) & (kSamples - 1);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IndexRandom)->Args({8, 8})->Args({9, 9})->Args({9, 8})->Args({3, 9});

void BM_IndexInverseRandom(benchmark::State& state) {
    const SectorIndex& sector =
        nine_sector(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    std::mt19937_64 rng(2);
    std::vector<uint64_t> samples(kSamples);
    for (auto& s : samples) s = rng() % sector.size();
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sector.stones_at(samples[i]));
        i = (i + 1) & (kSamples - 1);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IndexInverseRandom)->Args({8, 8})->Args({9, 9})->Args({9, 8})->Args({3, 9});

// Walking a sector in index order, as the solver's first pass does: one
// iteration walks 256 classes of the mover's stones.
void BM_IndexEnumerate(benchmark::State& state) {
    const SectorIndex& sector =
        nine_sector(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    constexpr uint32_t kBlocks = 256;
    uint32_t first = 0;
    uint64_t visited = 0;
    for (auto _ : state) {
        uint32_t last = std::min(first + kBlocks, sector.block_count());
        Bitboard checksum = 0;
        sector.for_each_in_blocks(first, last, [&](uint64_t, Stones s) {
            checksum ^= s.opponent;
            ++visited;
        });
        benchmark::DoNotOptimize(checksum);
        first = last == sector.block_count() ? 0 : last;
    }
    state.SetItemsProcessed(static_cast<int64_t>(visited));
}
BENCHMARK(BM_IndexEnumerate)->Args({8, 8})->Args({9, 9})->Args({3, 9});

// Ranking the successors of placements into one full block, as a placement
// sector's first pass does: the opponent's 5 stones fix the block, whose 19
// free points hold the mover's 6 stones and one placed. Arg 0 packs and
// ranks each successor anew; arg 1 packs the mover's stones and the empty
// points once, and ranks each successor from them; arg 2 ranks them all
// from terms worked out once (ColexRanker::ranks_with_each, what the solver
// does).
void BM_RankPlacements(benchmark::State& state) {
    const auto samples = random_stones(6, 5);
    const Bitboard all = find_board("b24")->all();
    const bool packed_once = state.range(0) == 1;
    size_t i = 0;
    for (auto _ : state) {
        const Stones& s = samples[i];
        const Bitboard free = all & ~s.opponent, empty = free & ~s.mover;
        uint32_t sum = 0;
        if (state.range(0) == 2) {
            std::array<uint32_t, kMaxPoints> ranks;
            const int n = colex().ranks_with_each(extract_bits(s.mover, free),
                                                  extract_bits(empty, free), ranks.data());
            for (int k = 0; k < n; ++k) sum += ranks[k];
        } else if (packed_once) {
            const uint32_t mine = extract_bits(s.mover, free);
            for (uint32_t e = extract_bits(empty, free); e; e &= e - 1)
                sum += colex().rank(mine | (e & -e));
        } else {
            for (Bitboard e = empty; e; e &= e - 1)
                sum += colex().rank(extract_bits(s.mover | (e & -e), free));
        }
        benchmark::DoNotOptimize(sum);
        i = (i + 1) & (kSamples - 1);
    }
    state.SetItemsProcessed(state.iterations() * (24 - 6 - 5));
}
BENCHMARK(BM_RankPlacements)->Arg(0)->Arg(1)->Arg(2);

// What opening a database pays before its first lookup: the board's symmetry
// classes (once per process), then an index for each sector it reads.
// A query builds the sizes its sectors ask for (state.range(0) stones), a
// solve every size (-1).
void BM_SymmetryClassesBuild(benchmark::State& state) {
    const Board& board = *find_board("b24");
    const auto size = static_cast<int>(state.range(0));
    for (auto _ : state) {
        SymmetryClasses classes(board);
        for (int s = size < 0 ? 0 : size; s <= (size < 0 ? board.points : size); ++s)
            benchmark::DoNotOptimize(classes.asymmetric_count(s));
    }
}
BENCHMARK(BM_SymmetryClassesBuild)->Arg(9)->Arg(8)->Arg(3)->Arg(-1)->Unit(benchmark::kMillisecond);

void BM_SectorIndexBuild(benchmark::State& state) {
    const Board& board = *find_board("b24");
    const SymmetryClasses& classes = symmetry_classes(board);
    const auto mover = static_cast<int>(state.range(0)),
               opponent = static_cast<int>(state.range(1));
    for (auto _ : state) {
        SectorIndex sector(classes, mover, opponent);
        benchmark::DoNotOptimize(sector.size());
    }
}
BENCHMARK(BM_SectorIndexBuild)
    ->Args({8, 8})
    ->Args({9, 9})
    ->Args({8, 7})
    ->Args({3, 9})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
