// Push (see push.hpp): a chunk of a layer at a time, its positions sorted by
// opponent class, their updates listed by region, then applied by region.
#include "solver/push.hpp"

#include <fmt/core.h>
#include <omp.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <utility>

namespace morris {
namespace {

// Decided positions a thread lists the updates of at a time.
constexpr int kPushGrain = 256;
constexpr int kWeightBits = State::kCounterBits;
constexpr int kMaxRegionBits = 32 - kWeightBits;
static_assert(State::kMaxCounter < 1 << kWeightBits, "a weight is at most a counter");

}  // namespace

Push::Push(Unit& unit, const SolveOptions& options)
    : unit_(unit), region_bits_(options.push_region_bits), push_bytes_(options.push_bytes) {
    if (region_bits_ < 1 || region_bits_ > kMaxRegionBits)
        throw std::invalid_argument(
            fmt::format("push regions must have 2^1 to 2^{} states", kMaxRegionBits));
}

void Push::release() {
    bins_ = {};
    gathered_ = {};
    pushed_ = {};
    unsorted_ = {};
}

uint64_t Push::memory_need(uint64_t positions, const SolveOptions& options, bool resets) {
    // The buffers grow up to twice push_bytes: a chunk's positions (some
    // gathered from short lists), the same with their stones and sorted,
    // and an update per un-move. Under the N-move rule every win by a
    // resetting turn falls in one layer, whose chunks' updates and kept
    // capacity run further: nine's 7-9 with 9-7 peaked at 11.12 GiB under
    // n_move=100, against 7.26 without the rule. Count twice as much.
    constexpr uint64_t kBytesPerPosition =
        sizeof(UnitPosition) + 2 * sizeof(Pushed) + sizeof(uint32_t) * ClassUnmoves::kMost;
    const uint64_t buffers = (resets ? 4 : 2) * options.push_bytes;
    return std::min(buffers, kBytesPerPosition * positions);
}

// Pushes layer d's positions (of the sector swapped from `into`) to their
// predecessors in sector `into` by un-turns, in two steps (propagation
// blocking: Beamer, Asanović and Patterson, "Reducing PageRank
// communication via propagation blocking", IPDPS 2017). The threads
// first list every update by the region of states it falls in, each
// list's end staying in cache; then each region's updates are applied by
// one thread, the region in cache: a layer of millions of positions
// updates the same lines many times, and updating them where they lie,
// scattered over the sector, missed the cache once per update. A region
// is applied by one thread only, so no update needs an atomic.
void Push::run(const Layer& layer, int d, int into) {
    const auto first = std::find_if(layer.parts.begin(), layer.parts.end(),
                                    [](const PositionList& part) { return !part.empty(); });
    if (first == layer.parts.end()) return;
    // Whether positions of the sector have predecessors by moves, and
    // whether those moves fly, depends on its counts alone.
    const UnitSector& sector = unit_.sectors[unit_.sectors[into].swapped];
    const Position any = position_of(
        sector.key, sector.index->stones_at(first->front() - sector.offset), sector.side);
    if (!may_have_moved(unit_.variant, any)) return;
    const bool flying = turn_generation::can_fly(unit_.variant, any, any.other());
    // Each thread's list in chunks, full ones pushed where they lie. The
    // rest (the end of a list, or a short list: a layer has a list from
    // each thread's every batch) is gathered into full chunks: a chunk
    // costs a pass over every region however few its updates, and the
    // fewer its updates per region, the more of them miss the cache.
    // Pushing every piece of kParallelWork positions or more alone
    // (2771c05), twelve's 5-7 pushed 25% slower than from one merged list.
    // Gathering copies 4 bytes a position into a buffer kept between layers.
    const size_t chunk = chunk_size(into);
    auto push_gathered = [&] {
        if (!gathered_.empty()) push_chunk(gathered_, d, into, flying);
        gathered_.clear();
    };
    for (const PositionList& part : layer.parts)
        for (size_t begin = 0; begin < part.size(); begin += chunk) {
            const std::span<const UnitPosition> piece(part.data() + begin,
                                                      std::min(part.size() - begin, chunk));
            if (piece.size() == chunk) {
                push_chunk(piece, d, into, flying);
                continue;
            }
            const auto taken =
                static_cast<ptrdiff_t>(std::min(chunk - gathered_.size(), piece.size()));
            gathered_.insert(gathered_.end(), piece.begin(), piece.begin() + taken);
            if (gathered_.size() < chunk) continue;
            push_gathered();
            gathered_.assign(piece.begin() + taken, piece.end());
        }
    push_gathered();
}

// One chunk of a layer: its positions in order, their updates listed by
// region, then applied.
void Push::push_chunk(std::span<const UnitPosition> positions, int d, int into, bool flying) {
    const UnitSector& target = unit_.sectors[into];
    const UnitSector& sector = unit_.sectors[target.swapped];
    const auto regions = static_cast<uint32_t>(
        (target.index->size() + (uint64_t{1} << region_bits_) - 1) >> region_bits_);
    const bool won = d % 2 == 1;
    order_by_opponent_class(positions, sector);
#pragma omp parallel if (positions.size() >= kParallelWork)
    {
        const auto thread = static_cast<size_t>(omp_get_thread_num());
#pragma omp single
        {
            if (bins_.size() < static_cast<size_t>(omp_get_num_threads()))
                bins_.resize(omp_get_num_threads());
            for (auto& bins : bins_)
                if (bins.size() < regions) bins.resize(regions);
        }
        ClassUnmoves unmoves(*unit_.variant.board, unit_.classes, flying);
        std::vector<Repeat> repeats;
#pragma omp for schedule(dynamic, kPushGrain)
        for (size_t k = 0; k < pushed_.size(); ++k)
            list_updates(pushed_[k], sector, won, unmoves, repeats, bins_[thread]);
        Layers local;
        uint64_t updates = 0;
#pragma omp for schedule(dynamic, 1)
        for (uint32_t r = 0; r < regions; ++r) updates += apply_updates(r, target, d, local);
        unit_.conclude_layer(local, into);
        unit_.stats.push.add(0, updates);
    }
}

// A pushed position's stones, seen as above.
Stones Push::seen_stones(const Pushed& q, const UnitSector& sector) const {
    return {q.mover,
            unit_.classes.representatives(sector.index->opponent_stones())[q.opponent_class]};
}

// Puts positions of `sector` in the order of their opponent's class, seen
// as above. A predecessor's mover is the opponent with one stone moved
// back: positions of one opponent class share those sets and their
// un-moves (see ClassUnmoves). A counting sort by class: its keys are few
// (the sector's opponent classes). Values do not depend on the order.
void Push::order_by_opponent_class(std::span<const UnitPosition> positions,
                                   const UnitSector& sector) {
    const auto n = static_cast<int64_t>(positions.size());
    const uint32_t key_count = sector.index->opponent_class_count();
    std::vector<Pushed>& found = unsorted_;
    std::vector<Pushed>& sorted = pushed_;
    found.resize(positions.size());
    sorted.resize(positions.size());
    std::vector<std::vector<uint64_t>> starts;  // by thread, then key
#pragma omp parallel if (positions.size() >= kParallelWork)
    {
        const int threads = omp_get_num_threads(), thread = omp_get_thread_num();
        const int64_t first = n * thread / threads, last = n * (thread + 1) / threads;
#pragma omp single
        starts.assign(threads, std::vector<uint64_t>(key_count));
        std::vector<uint64_t>& mine = starts[thread];
        for (int64_t k = first; k < last; ++k) {
            const Stones q = sector.index->stones_at(positions[k] - sector.offset);
            const SymmetryClasses::Class theirs = unit_.classes.class_of(q.opponent);
            found[k] = {positions[k], unit_.classes.transform(q.mover, theirs.symmetry),
                        theirs.rank};
            ++mine[theirs.rank];
        }
#pragma omp barrier
#pragma omp single
        {
            uint64_t start = 0;  // key-major, then thread: a stable sort
            for (uint32_t key = 0; key < key_count; ++key)
                for (auto& counts : starts) start += std::exchange(counts[key], start);
        }
        for (int64_t k = first; k < last; ++k) sorted[mine[found[k].opponent_class]++] = found[k];
    }
}

// Layer positions pushed at a time: they (gathered, with their stones and
// sorted) and their updates take about push_bytes_.
size_t Push::chunk_size(int into) const {
    const UnitSector& target = unit_.sectors[into];
    const double unturns = static_cast<double>(unit_.internal_turns[into]) /
                           static_cast<double>(unit_.sectors[target.swapped].index->size());
    const double bytes =
        sizeof(UnitPosition) + 2 * sizeof(Pushed) + sizeof(uint32_t) * std::max(unturns, 1.0);
    return static_cast<size_t>(static_cast<double>(push_bytes_) / bytes) + 1;
}

// Lists the updates that decided position q (won: a win) makes to its
// predecessors inside the unit, by region. Of its class's un-moves, q
// has those whose `from` its mover leaves empty and, when its mover has
// a stone to remove, whose move closed no mill (one that did removed a
// stone: its position is not in the unit). The predecessors' opponent,
// q's mover, is moved by each one's symmetry. A loss's predecessors all
// win; a win takes one from each predecessor's counter, weighed by
// symmetry: un-turns from the representative of Q reach the class of P
// k times, and P's turns reach Q's class k times scaled by the ratio of
// their symmetry groups (orbit counting), so the k repeats of a
// symmetric Q count together.
void Push::list_updates(const Pushed& q, const UnitSector& sector, bool won, ClassUnmoves& unmoves,
                        std::vector<Repeat>& repeats, Bins& bins) const {
    const UnitSector& target = unit_.sectors[sector.swapped];
    const Stones seen = seen_stones(q, sector);
    const Bitboard theirs = seen.opponent;
    const bool may_remove = any_removable(unit_.variant, seen.mover);
    const int q_fixers = won ? sector.index->stabiliser_size(q.u - sector.offset, seen) : 1;
    // Images of the predecessors' opponent, q's mover.
    const SymmetryClasses::SetImages predecessor_opponent = unit_.classes.images(seen.mover);
    auto bin = [&](uint64_t p, int weight) {
        bins[p >> region_bits_].push_back(update_of(p, weight));
    };
    repeats.clear();
    const ClassUnmoves::List& list = unmoves.of(q.opponent_class, theirs);
    for (uint64_t kept = list.kept(seen.mover, may_remove); kept; kept &= kept - 1) {
        const ClassUnmoves::Unmove& u = list.unmoves()[std::countr_zero(kept)];
        const uint64_t p = target.index->index_transformed(
            u.mover, SymmetryClasses::image(predecessor_opponent, u.mover.symmetry));
        const Bitboard mover = (theirs & ~(1u << u.to)) | 1u << u.from;
        if (q_fixers > 1)
            repeats.push_back({p, mover});
        else
            bin(p, won ? target.index->stabiliser_size(p, {mover, seen.mover}) : 1);
    }
    std::sort(repeats.begin(), repeats.end());
    for (size_t a = 0, b = 0; a < repeats.size(); a = b) {
        while (b < repeats.size() && repeats[b].index == repeats[a].index) ++b;
        const int p_fixers =
            target.index->stabiliser_size(repeats[a].index, {repeats[a].mover, seen.mover});
        bin(repeats[a].index, static_cast<int>(b - a) * p_fixers / q_fixers);
    }
}

// Applies every thread's updates of region r of sector `target` after
// layer d, and empties their lists. Returns how many it applied.
uint64_t Push::apply_updates(uint32_t r, const UnitSector& target, int d, Layers& decided) {
    // Updates whose state is loading: a region's lines come from memory
    // (docs/performance.md, Push), and 16 ahead left a third of the loop's
    // samples waiting on the state's load on a host with 170-370 ns to memory.
    constexpr size_t kAhead = 48;
    const bool lost = d % 2 == 0;
    const uint64_t base = target.offset + (uint64_t{r} << region_bits_);
    State* states = &unit_.states[base];
    uint64_t applied = 0;
    for (auto& bins : bins_) {
        std::vector<uint32_t>& updates = bins[r];
        applied += updates.size();
        for (size_t k = 0; k < updates.size(); ++k) {
            if (k + kAhead < updates.size())
                __builtin_prefetch(&states[updates[k + kAhead] >> kWeightBits], 1);
            const uint32_t at = updates[k] >> kWeightBits;
            const State seen = states[at];
            if (seen.is_decided()) continue;
            if (lost) {
                // Any undecided predecessor wins.
                const int won = d + unit_.distances.win_step;
                states[at] = State::decided(won);
                append(decided, won, base + at);
                continue;
            }
            if (seen == State::cannot_lose()) continue;
            // Its counter goes down by the weight; at zero it is lost.
            const int weight = static_cast<int>(updates[k] & ((1 << kWeightBits) - 1));
            if (seen.counter() == weight) {
                states[at] = State::decided(std::max(d + 1, seen.floor()));
                append(decided, states[at].plies(), base + at);
            } else {
                states[at] = seen.less(weight);
            }
        }
        updates.clear();
    }
    return applied;
}

// An update waiting in its region's list: the predecessor's place in the
// region, and by how much a win in the layer takes its counter down (at
// most the predecessor's turns, which its counter holds). A region's
// states are 2 MiB by default, a core's L2 (docs/performance.md, "Push").
uint32_t Push::update_of(uint64_t in_sector, int weight) const {
    assert(weight >= 0 && weight <= State::kMaxCounter);
    return static_cast<uint32_t>(in_sector & ((uint64_t{1} << region_bits_) - 1)) << kWeightBits |
           static_cast<uint32_t>(weight);
}

}  // namespace morris
