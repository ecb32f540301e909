// Pull (see pull.hpp): undecided positions read their quiet moves' states
// again, a slice of the sector at a time, sorted by opponent class.
#include "solver/pull.hpp"

#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include "solver/counting_sort.hpp"

namespace morris {
namespace {

// Other threads may write states while a layer is read (a sector whose
// quiet moves lead into itself): reads and writes are atomic, relaxed.
// What they write in layer d, a decided later layer or a smaller counter, counts
// the same as what it replaces, so a state read twice counts once.
State load(State& state) { return std::atomic_ref<State>(state).load(std::memory_order_relaxed); }

// Whether a successor's state counts when a position is read again after
// layer d: in a layer of losses (d even), being one of them (the position
// wins); otherwise, not being known yet as the opponent's win.
bool counts(State state, int d) {
    static_assert(State::kDecidedBit % 2 == 0, "a decided state's parity is its distance's");
    const uint16_t after = state.word();
    if (d % 2 == 0) return state == State::decided(d);
    // Whether a successor is decided is data: no branch on it. Below
    // kDecidedBit the difference wraps past every distance.
    const uint32_t plies = uint32_t{after} - State::kDecidedBit;
    return (after % 2 == 0) | (plies > static_cast<uint32_t>(d));
}

// counts() of 32 states in a row, bit j for states[j]: one vector compare
// rather than 32 loads.
uint32_t counts_of_32(const State* states, int d) {
    using Words = uint16_t __attribute__((vector_size(64)));
    Words after;
    std::memcpy(&after, states, sizeof after);
    const auto distance = static_cast<uint16_t>(d);
    const auto counting = d % 2 == 0 ? after == State::decided(d).word()
                                     : (after % 2 == 0) | (after - State::kDecidedBit > distance);
#if defined(__AVX512BW__)
    return _mm512_movepi16_mask(reinterpret_cast<__m512i>(counting));
#else
    uint32_t bits = 0;
    for (int j = 0; j < 32; ++j) bits |= uint32_t{counting[j] != 0} << j;
    return bits;
#endif
}

// A position's state after layer d, when `counted` of its successors count.
State reread_state(State seen, int counted, int d, int win_step) {
    if (d % 2 == 0) return counted > 0 ? State::decided(d + win_step) : seen;
    // The counter pushing would have left after this layer.
    return counted == 0 ? State::decided(std::max(d + 1, seen.floor()))
                        : State::undecided(counted, seen.floor());
}

}  // namespace

Pull::Pull(Unit& unit) : unit_(unit) {
    for (const UnitSector& s : unit_.sectors) {
        const SectorKey& k = s.key;
        // Every turn inside the unit of a sector whose mover flies is an
        // exchange of its stones among the points its opponent leaves free
        // (for a mover with no stone in hand: with one, it may place as
        // well).
        const bool flies = k.mover_in_hand == 0 && mover_flies(unit_.variant, k);
        exchanges_.push_back(
            flies ? std::make_unique<ExchangeTable>(
                        unit_.variant.board->points - k.opponent_on_board, k.mover_on_board)
                  : nullptr);
    }
}

// What layer d says about the undecided positions of sector `into`
// (whose quiet moves lead to the layer's sector), found by reading their
// turns again. The sector is cut into slices of whole blocks, each walked
// in index order, so that its states are read in sequence; its undecided
// positions are then read again in the order of their opponent's class,
// which is their successors' mover class: those of one class lie in one
// block of the layer's sector, loaded once for all of them.
void Pull::run(int d, int into) {
    const UnitSector& sector = unit_.sectors[into];
    const UnitSector& next = unit_.sectors[sector.swapped];
    const SectorIndex& index = *sector.index;
    const ExchangeTable* exchanges = exchanges_[into].get();
    const bool lost = d % 2 == 0;  // the layer's positions: a turn to one wins
    const std::vector<uint32_t> slices = slice_bounds(index);
    const auto slice_count = static_cast<int>(slices.size() - 1);
#pragma omp parallel if (index.size() >= kParallelWork)
    {
        Layers local;
        Rereads rereads;
        FlyingBlock block;
        std::vector<Undecided> found, sorted;
        std::vector<uint64_t> starts;
#pragma omp for schedule(dynamic, 1)
        for (int slice = 0; slice < slice_count; ++slice) {
            found.clear();
            index.for_each_in_blocks(
                slices[slice], slices[slice + 1], [&](uint64_t i, Stones stones) {
                    const uint64_t u = sector.offset + i;
                    const State seen = load(unit_.states[u]);
                    if (seen.is_decided() || (!lost && seen == State::cannot_lose())) return;
                    found.push_back({static_cast<UnitPosition>(u), seen, stones,
                                     unit_.classes.class_of(stones.opponent)});
                });
            // By class: classes are few, positions many.
            counting_sort<Undecided>(
                found, index.opponent_class_count(),
                [](const Undecided& p) { return p.theirs.rank; }, starts, sorted);
            for (const Undecided& p : sorted) {
                if (exchanges && next.index->is_full_block(p.theirs.rank)) {
                    reread_flying(p, next, *exchanges, block, d, local);
                    continue;
                }
                gather(rereads, p, sector);
                if (rereads.positions.size() == Rereads::kSize) reread(rereads, d, local);
            }
            reread(rereads, d, local);
        }
        unit_.conclude_layer(local, into);
        unit_.stats.pull.add(rereads.far_reads + block.lines_read, 0);
    }
}

// Block numbers cutting a sector into slices (first and last block
// included): large, for positions of one opponent class to meet in one,
// but about kFewest of them in a sector large enough to share out.
std::vector<uint32_t> Pull::slice_bounds(const SectorIndex& index) {
    constexpr uint64_t kLargest = 1 << 20, kSmallest = 1 << 16, kFewest = 16;
    const uint64_t slice = std::clamp(index.size() / kFewest, kSmallest, kLargest);
    std::vector<uint32_t> bounds{0};
    for (uint32_t b = 1; b < index.block_count(); ++b)
        if (index.block_begin(b) - index.block_begin(bounds.back()) >= slice) bounds.push_back(b);
    bounds.push_back(index.block_count());
    return bounds;
}

// Lists a position's successors by quiet moves and starts loading their states.
void Pull::gather(Rereads& rereads, const Undecided& p, const UnitSector& sector) const {
    const UnitSector& next = unit_.sectors[sector.swapped];
    // A quiet move keeps the opponent's stones, the successor's mover:
    // move the mover's image under the symmetry that takes them to
    // their class's representative.
    const Bitboard mine = unit_.classes.transform(p.stones.mover, p.theirs.symmetry);
    const auto first = static_cast<uint32_t>(rereads.successors.size());
    __builtin_prefetch(&unit_.states[p.u], 1);
    for_each_quiet_move(
        unit_.variant, position_of(sector.key, p.stones, sector.side), [&](int from, int to) {
            const Bitboard after = mine ^ unit_.classes.transform_point(from, p.theirs.symmetry) ^
                                   unit_.classes.transform_point(to, p.theirs.symmetry);
            const uint64_t s = next.offset + next.index->index_transformed(p.theirs, after);
            __builtin_prefetch(&unit_.states[s]);
            rereads.successors.push_back(s);
        });
    rereads.positions.push_back(
        {p.u, p.seen, first, static_cast<uint32_t>(rereads.successors.size())});
}

void Pull::reread(Rereads& rereads, int d, Layers& decided) {
    for (const Rereads::Unread& p : rereads.positions) {
        int counted = 0;
        for (uint32_t k = p.first; k < p.last; ++k)
            counted += counts(load(unit_.states[rereads.successors[k]]), d);
        update(p.u, p.seen, reread_state(p.seen, counted, d, unit_.distances.win_step), decided);
    }
    rereads.far_reads += rereads.successors.size();
    rereads.positions.clear();
    rereads.successors.clear();
}

// Reads again a position whose mover flies, its successors' block being
// full-size: its successors are the exchanges of its mover's stones in
// that block, and those that count are the bits both of its exchanges
// and of the block's slots that count.
void Pull::reread_flying(const Undecided& p, const UnitSector& next, const ExchangeTable& exchanges,
                         FlyingBlock& block, int d, Layers& decided) {
    if (block.rank != p.theirs.rank) read_flying_block(p.theirs, next, exchanges, d, block);
    const Bitboard mine = unit_.classes.transform(p.stones.mover, p.theirs.symmetry);
    const std::span<const uint64_t> successors =
        exchanges.of(next.index->slot_in_full_block(p.theirs, mine));
    int counted = 0;
    for (size_t w = 0; w < successors.size(); ++w)
        counted += std::popcount(successors[w] & block.counting[w]);
    update(p.u, p.seen, reread_state(p.seen, counted, d, unit_.distances.win_step), decided);
}

// Which slots of the block of opponent class `theirs` count in layer d:
// read once for all the positions of the class. A move that closes a
// mill removes a stone (when the opponent has one to remove) and leaves
// the unit: a flying mover has three stones, so the slots of mills are
// reached only that way, and never count.
void Pull::read_flying_block(const SymmetryClasses::Class& theirs, const UnitSector& next,
                             const ExchangeTable& exchanges, int d, FlyingBlock& block) {
    const SectorIndex& index = *next.index;
    block.rank = theirs.rank;
    block.counting.assign(exchanges.words(), 0);
    State* states = &unit_.states[next.offset + index.block_begin(theirs.rank)];
    const uint32_t slots = exchanges.subsets();
    block.lines_read += (slots * sizeof(State) + kCacheLine - 1) / kCacheLine;
    // Other threads may be writing these states (a sector whose quiet
    // moves lead into itself): then they are loaded one at a time.
    const uint32_t whole = &next == &unit_.sectors[next.swapped] ? 0 : slots / 64 * 64;
    for (uint32_t slot = 0; slot < whole; slot += 64)
        block.counting[slot / 64] =
            counts_of_32(states + slot, d) | uint64_t{counts_of_32(states + slot + 32, d)} << 32;
    for (uint32_t slot = whole; slot < slots; ++slot)
        block.counting[slot / 64] |= uint64_t{counts(load(states[slot]), d)} << slot % 64;
    if (!any_removable(unit_.variant, theirs.representative)) return;
    for (Bitboard mill : unit_.variant.board->mills) {
        if (mill & theirs.representative) continue;
        const uint32_t slot = index.slot_in_full_block(theirs, mill);
        block.counting[slot / 64] &= ~(uint64_t{1} << slot % 64);
    }
}

void Pull::update(uint64_t u, State seen, State now, Layers& decided) {
    if (now == seen) return;  // no write: the line stays clean
    std::atomic_ref<State>(unit_.states[u]).store(now, std::memory_order_relaxed);
    if (now.is_decided()) append(decided, now.plies(), u);
}

}  // namespace morris
