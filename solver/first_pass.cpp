// The first pass's walks in index order and by opponent, its batches, and
// how a position's summary becomes its state (see first_pass.hpp; the group
// walk is in settle_group.cpp).
#include "solver/first_pass.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "solver/progress.hpp"

namespace morris {
namespace {

// Opponent classes, or blocks of about this many positions, handed to a
// thread at a time when the first pass walks by opponent or in index order.
constexpr uint32_t kClassesPerChunk = 4;
constexpr uint64_t kPositionsPerChunk = 1 << 16;
// The share of the board a moving sector's stones cover from which it is
// walked by group: half of it, 12 of nine's 24 points.
constexpr struct { int num, den; } kCrowded{12, 24};

}  // namespace

// Counts each position's turns inside the unit and settles what its
// turns into solved sectors decide. A sector that places walks by its
// opponent's class: its placements that close no mill then read one block
// of a solved sector per class. A sector that only moves reads nothing
// for its quiet moves, which it counts: it walks in index order, writing
// its states in sequence and ranking no position; only its moves that
// close a mill read solved sectors, at random. On a crowded board, where
// those are many, it walks by opponent too (moves_by_group).
void FirstPass::run() {
    Progress progress(unit_.label("first pass"), unit_.positions, progress_);
    for (size_t s = 0; s < unit_.sectors.size(); ++s) {
        const UnitSector& sector = unit_.sectors[s];
        const bool with_next = unit_.siblings;  // then s is 0, and the loop ends with it
        const size_t walked = with_next ? 2 : 1;
        const SectorIndex& index = *sector.index;
        const bool moving_groups = moves_by_group(sector.key);
        const bool by_opponent = sector.key.mover_in_hand > 0 || moving_groups;
        const bool grouped = settles_by_group(sector.key);
        const uint32_t groups = by_opponent ? index.opponent_class_count() : index.block_count();
        const uint32_t per_chunk = by_opponent ? kClassesPerChunk : blocks_per_chunk(index);
        const auto chunks = static_cast<int>((groups + per_chunk - 1) / per_chunk);
        const double closing = grouped ? closing_rate(sector) : 0;
#pragma omp parallel if (index.size() >= kParallelWork)
        {
            Batch batch(unit_, closing, omp_get_num_threads());
#pragma omp for schedule(dynamic, 1)
            for (int chunk = 0; chunk < chunks; ++chunk) {
                const uint32_t first = static_cast<uint32_t>(chunk) * per_chunk;
                const uint32_t last = std::min(first + per_chunk, groups);
                uint64_t visited = 0;
                auto visit = [&](uint64_t i, Stones stones) {
                    const uint64_t u = sector.offset + i;
                    // Walking by opponent scatters these writes over the
                    // unit: start loading their lines now, to be written
                    // when the batch is concluded.
                    if (by_opponent) {
                        __builtin_prefetch(&unit_.states[u], 1);
                        ++batch.far_writes;
                    }
                    batch.unit_position[batch.count] = u;
                    batch.position[batch.count] = position_of(sector.key, stones, sector.side);
                    if (++batch.count == Batch::kSize) settle(batch);
                    ++visited;
                };
                if (with_next)
                    for (uint32_t c = first; c < last; ++c)
                        visited += settle_placement_group(
                            Siblings<2>{&sector, &unit_.sectors[s + 1]}, c, batch);
                else if (grouped)
                    for (uint32_t c = first; c < last; ++c)
                        visited += settle_placement_group(Siblings<1>{&sector}, c, batch);
                else if (moving_groups)
                    for (uint32_t c = first; c < last; ++c)
                        visited += settle_moving_group(sector, c, batch);
                else if (by_opponent)
                    index.for_each_by_opponent(first, last, visit);
                else
                    index.for_each_in_blocks(first, last, visit);
                settle(batch);
                progress.advance(visited);
            }
            batch.far_writes += batch.settled.finish();
#pragma omp critical
            {
                merge(unit_.decided, batch.decided);
                merge(unit_.candidates, batch.candidates);
                unit_.internal_turns[s] += batch.internal_turns;
                for (size_t k = 0; k < walked; ++k) unit_.undecided[s + k] += batch.undecided[k];
                unit_.stats.first_pass.far_reads += batch.far_reads;
                unit_.stats.first_pass.far_writes += batch.far_writes;
            }
        }
        s += walked - 1;
    }
    if (out_of_range_)
        throw std::runtime_error(unit_.label("") +
                                 "has more turns or longer distances than the "
                                 "solver's 16-bit state holds");
}

// Whether a sector's positions may be settled a group at a time: every
// turn is a placement, which leaves the unit and removes at most one
// stone, and the side to move has not lost for want of stones.
bool FirstPass::settles_by_group(const SectorKey& k) const {
    return unit_.only_placements && most_removals(variant_.rules) == 1 &&
           k.mover_on_board + k.mover_in_hand >= kFewestStones;
}

// The opponent's stones a mill lets the mover remove, and by each
// removed point the class of those left: the successor's mover class.
Bitboard FirstPass::removal_classes(
    Bitboard opponent, std::array<SymmetryClasses::Class, kMaxPoints>& by_point) const {
    const Bitboard choices = removable(variant_, opponent);
    for (Bitboard r = choices; r; r &= r - 1)
        by_point[std::countr_zero(r)] = classes_.class_of(opponent & ~(r & -r));
    return choices;
}

// Whether a sector that only moves walks by opponent, a group at a time
// (settle_moving_group), rather than in index order: when its stones cover
// kCrowded of the board or more. There moves close mills often enough that
// keeping their lookups in a few blocks per group, and working out once what
// the group shares, outweigh the walk's scattered state writes
// (docs/performance.md, "Moving sectors by group"). The group routine
// removes one stone a turn.
bool FirstPass::moves_by_group(const SectorKey& k) const {
    if (k.mover_in_hand > 0 || most_removals(variant_.rules) > 1 ||
        k.mover_on_board < kFewestStones || moving_walk_ == MovingWalk::index_order)
        return false;
    const int crowded_stones =
        (kCrowded.num * variant_.board->points + kCrowded.den - 1) / kCrowded.den;
    return moving_walk_ == MovingWalk::by_opponent ||
           k.mover_on_board + k.opponent_on_board >= crowded_stones;
}

// The placements that close a mill a position, over positions spread
// evenly through the sector: what decides whether a group's removals are
// read through views (view_removal_blocks). Worked out before the walk, so
// that the choice, and the far reads it counts, do not depend on how the
// groups are dealt to the threads.
double FirstPass::closing_rate(const UnitSector& sector) const {
    constexpr uint64_t kSamples = 1024;
    const SectorIndex& index = *sector.index;
    const Board& board = *variant_.board;
    const uint64_t step = std::max<uint64_t>(1, index.size() / kSamples);
    uint64_t samples = 0, closing = 0;
    for (uint64_t i = 0; i < index.size(); i += step, ++samples) {
        const Stones s = index.stones_at(i);
        const Bitboard empty = board.all() & ~(s.mover | s.opponent);
        closing += std::popcount(empty & turn_generation::closing_points(board, s.mover, empty));
    }
    return samples ? static_cast<double>(closing) / static_cast<double>(samples) : 0;
}

// Whole blocks of about kPositionsPerChunk positions.
uint32_t FirstPass::blocks_per_chunk(const SectorIndex& index) {
    return static_cast<uint32_t>(std::max<uint64_t>(
        1, kPositionsPerChunk * index.block_count() / std::max<uint64_t>(index.size(), 1)));
}

void FirstPass::settle(Batch& batch) {
    batch.lookups.clear();
    for (uint32_t k = 0; k < batch.count; ++k) {
        const Position& p = batch.position[k];
        Summary& summary = batch.summary[k];
        summary = {};
        // The successor seen from its side to move, worked out from locals
        // rather than through a whole Position: this loop is the hottest.
        const Stones before = stones_of(p);
        const SectorKey sector = sector_of(p);
        const QuietTurns quiet = for_each_loud_turn(variant_, p, [&](const Turn& t) {
            ++summary.turns;
            if (t.removals() == 0 && !t.is_placement()) {
                ++summary.internal;
                return;
            }
            Bitboard mine = before.mover | 1u << t.to;
            if (!t.is_placement()) mine &= ~(1u << t.from);
            Bitboard theirs = before.opponent;
            for (int8_t r : t.removed)
                if (r >= 0) theirs &= ~(1u << r);
            const SectorKey key = sector_after(sector, t.is_placement(), t.removals());
            if (is_lost_sector(key)) {
                summary.add(unit_.distances.lost_child);
                return;
            }
            const SolvedSectors::Table& table = batch.tables.get(key, solved_);
            batch.lookups.push_back({k, &table, Stones{theirs, mine}, 0});
        });
        summary.turns += quiet.moves;
        summary.internal += quiet.moves;
        if (quiet.placements) settle_quiet_placements(p, quiet.placements, summary, batch);
    }
    batch.far_reads += batch.lookups.size();
    for (Lookup& l : batch.lookups) {
        l.index = l.table->index->index(l.stones, batch.classes.get(l.stones.mover));
        __builtin_prefetch(&l.table->entries[l.index]);
    }
    for (const Lookup& l : batch.lookups) batch.summary[l.position].add(l.table->entries[l.index]);
    for (uint32_t k = 0; k < batch.count; ++k)
        conclude(batch.unit_position[k], batch.position[k], batch.summary[k], batch);
    batch.count = 0;
}

// Placements on `points` that close no mill, by a mover with stones
// `mine`, into the block of `theirs`'s class in `target`.
void FirstPass::settle_quiet(TurnTarget& target, const SymmetryClasses::Class& theirs,
                             Bitboard mine, Bitboard points, Summary& summary) const {
    if (!points) return;
    summary.turns += std::popcount(points);
    const SolvedSectors::Table* table = target.get(solved_);
    if (!table) {
        summary.add(unit_.distances.lost_child);
        return;
    }
    // The successor's opponent is the mover plus the placed stone: take
    // the mover's image once, and add each point's.
    const Bitboard seen = classes_.transform(mine, theirs.symmetry);
    const SectorIndex& index = *table->index;
    if (index.is_full_block(theirs.rank)) {
        // Slots are colex ranks of the packed stones: pack the mover's
        // once, and rank each with one placed stone more.
        const Entry* block = table->entries.data() + index.block_begin(theirs.rank);
        std::array<uint32_t, kMaxPoints> ranks;
        const int count = colex().ranks_with_each(
            index.packed_in_full_block(theirs, seen),
            index.packed_in_full_block(theirs, classes_.transform(points, theirs.symmetry)),
            ranks.data());
        for (int k = 0; k < count; ++k) summary.add(block[ranks[k]]);
        return;
    }
    for (; points; points &= points - 1) {
        const Bitboard after =
            seen | classes_.transform_point(std::countr_zero(points), theirs.symmetry);
        summary.add(table->entries[index.index_transformed(theirs, after)]);
    }
}

// Placements that close no mill all lead into one block of one solved
// sector (the block of the opponent's stones, which the batch's
// positions share), so their values are read at once, in cache.
void FirstPass::settle_quiet_placements(const Position& p, Bitboard points, Summary& summary,
                                        Batch& batch) const {
    const Stones before = stones_of(p);
    TurnTarget target(sector_of(p), /*placed=*/true, /*removed=*/0);
    settle_quiet(target, batch.classes.get(before.opponent), before.mover, points, summary);
}

void FirstPass::conclude(uint64_t u, const Position& p, const Summary& s, Batch& batch) {
    unit_.states[u] = concluded(u, p, s, batch);
}

}  // namespace morris
