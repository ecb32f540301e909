// Turn generation as a moving sector's first pass does it: a position's
// moves counted, and those that close a mill listed. Random positions of
// nine's 7-7, where a third of the stones or so stand beside a point that
// may close a mill: the branches there are what costs.
#include <benchmark/benchmark.h>

#include <bit>

#include "bench/random_stones.hpp"
#include "game/turns.hpp"
#include "indexing/perfect_hash.hpp"

namespace {

using namespace morris;
using bench::kSamples;
using bench::random_stones;

// Arg 0: for_each_closing_move (what the solver calls); arg 1: every move
// asked in turn whether it closes a mill, the plain way.
void BM_ClosingMoves(benchmark::State& state) {
    const Board& board = *find_board("b24");
    const auto samples = random_stones(7, 7);
    const bool plain = state.range(0) == 1;
    size_t i = 0;
    for (auto _ : state) {
        const Stones& s = samples[i];
        const Bitboard empty = board.all() & ~(s.mover | s.opponent);
        int sum = 0;
        auto visit = [&](int from, int to, int closed) { sum += from * 32 + to + closed; };
        if (plain) {
            for (Bitboard from = s.mover; from; from &= from - 1) {
                const int f = std::countr_zero(from);
                for (Bitboard to = board.neighbours[f] & empty; to; to &= to - 1) {
                    const int t = std::countr_zero(to);
                    const int closed =
                        turn_generation::mills_closed(board, (s.mover & ~(1u << f)) | 1u << t, t);
                    if (closed)
                        visit(f, t, closed);
                    else
                        ++sum;
                }
            }
        } else {
            const Bitboard closing = turn_generation::closing_points(board, s.mover, empty);
            sum += turn_generation::for_each_closing_move(board, s.mover, empty, false, closing,
                                                          visit);
        }
        benchmark::DoNotOptimize(sum);
        i = (i + 1) & (kSamples - 1);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClosingMoves)->Arg(0)->Arg(1);

}  // namespace
