// The first pass a group at a time (see first_pass.hpp): the positions of a
// sector whose opponent's stones are one class's representative. They share
// the blocks their turns lead into: a turn that removes stone r leads into
// the block of the class of the opponent's stones less r, and a placement
// that closes no mill into the block of the opponent's class. Those classes,
// and which stones are removable, are worked out once per group, and the
// lookups stay in a few blocks rather than missing the cache once each.
//
// One routine walks the group; a policy lists each position's turns: the
// placements of a sector that places, or the moves of one that moves. Both
// take their turns from game/turns.hpp's primitives (closing_points,
// for_each_closing_move, removable), so they are for_each_loud_turn's turns
// in another order.
#include <array>
#include <bit>

#include "solver/first_pass.hpp"

namespace morris {

// What the positions of a group share.
struct FirstPass::Group {
    uint32_t number;    // of the opponent's class, for SectorIndex::for_each_by_opponent
    Bitboard opponent;  // the class's representative
    // Its class: the block a placement that closes no mill leads into.
    SymmetryClasses::Class opponent_class;
    Bitboard free;  // the points it leaves free
    Bitboard removable;
    int removal_count;
    // By removed point: the class of the opponent's stones left, the
    // successor's mover.
    std::array<SymmetryClasses::Class, kMaxPoints> after_removing;
};

// Successors after a removal, ranked and prefetched as they are found, and
// read when every one of the position's is loading.
struct FirstPass::RemovalReads {
    const SolvedSectors::Table* table = nullptr;
    int count = 0;
    std::array<uint64_t, kMaxPoints * kMaxPoints> slots;

    void add(uint64_t at) {
        __builtin_prefetch(&table->entries[at]);
        slots[count++] = at;
    }
    void read_into(Summary& summary) const {
        for (int k = 0; k < count; ++k) summary.add(table->entries[slots[k]]);
    }
};

FirstPass::Group FirstPass::group_of(const UnitSector& sector, uint32_t c) const {
    Group group;
    group.number = c;
    group.opponent = classes_.representatives(sector.key.opponent_on_board)[c];
    group.opponent_class = classes_.class_of(group.opponent);
    group.free = variant_.board->all() & ~group.opponent;
    group.removable = removal_classes(group.opponent, group.after_removing);
    group.removal_count = std::popcount(group.removable);
    return group;
}

// turns(group, mine, empty, closing, summary, reads) adds a position's turns
// to its summary, those that remove a stone by `reads`. Returns how many
// positions the group has.
template <typename Turns>
uint64_t FirstPass::settle_group(const UnitSector& sector, const Group& group, Batch& batch,
                                 Turns&& turns) {
    uint64_t visited = 0;
    // Inlined into the walk: a call per position costs a few percent of a
    // placement unit.
    sector.index->for_each_by_opponent(
        group.number,
        group.number + 1, [&](uint64_t i, Stones stones) __attribute__((always_inline)) {
            const Bitboard mine = stones.mover;
            const Bitboard empty = group.free & ~mine;
            // With nothing to remove, a turn that closes a mill is as quiet as any.
            const Bitboard closing =
                group.removal_count ? turn_generation::closing_points(*variant_.board, mine, empty)
                                    : 0;
            Summary summary;
            RemovalReads reads;
            turns(group, mine, empty, closing, summary, reads);
            reads.read_into(summary);
            batch.far_reads += reads.count;
            const uint64_t u = sector.offset + i;
            const Position p =
                summary.turns ? Position{} : position_of(sector.key, stones, sector.side);
            batch.settled.add(static_cast<UnitPosition>(u), concluded(u, p, summary, batch));
            ++visited;
        });
    return visited;
}

// Loads a successor block into the cache in address order, where the
// hardware prefetcher streams it, before a view reads it in the colex
// order of the group's stones, which is random within the block: read so,
// the block missed the cache once a line (fill_view was a fifth of a
// twelve placement unit's time, two fifths of that on loading an entry).
// It paid together with the packed images of PackedBlockIndex, not alone
// (docs/performance.md).
static void prefetch_block(const SolvedSectors::Table& table, uint32_t block) {
    const auto* begin =
        reinterpret_cast<const char*>(table.entries.data() + table.index->block_begin(block));
    const auto* end =
        reinterpret_cast<const char*>(table.entries.data() + table.index->block_end(block));
    for (const char* line = begin; line < end; line += kCacheLine) __builtin_prefetch(line);
}

// Views of a successor block in the group's terms: view[r] is the value of
// the successor whose opponent (the mover with a stone placed, `stones`
// stones) is the set of colex rank r among the group's free points. Every
// position of the group reads its placements' successors there with one
// colex rank each, its stones packed once, rather than ranking each
// successor through the index, moved by its class's symmetry. Filling a
// view ranks each of its entries once, through a PackedBlockIndex of the
// group's free points where there are enough of them.
void FirstPass::fill_view(const SolvedSectors::Table& table, const SymmetryClasses::Class& block,
                          Bitboard free, int stones, Entry* view) const {
    const SectorIndex& index = *table.index;
    prefetch_block(table, block.rank);
    const uint64_t count = binomial[std::popcount(free)][stones];
    uint32_t packed = (uint32_t{1} << stones) - 1;
    if (count >= PackedBlockIndex::worth_from(index, block.rank)) {
        const PackedBlockIndex at(index, block, free);
        for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed))
            view[r] = table.entries[at(packed)];
        return;
    }
    for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed))
        view[r] = table.entries[index.index_transformed(
            block, classes_.transform(deposit_bits(packed, free), block.symmetry))];
}

// The view of the quiet placements' block: the block itself when it is
// full, its class's representative being the group's stones, which only
// the identity (the first symmetry) takes to themselves. A symmetric block
// holds only its canonical stones: it is expanded, each entry ranked once,
// where up to `stones` positions of the group lead to each (symmetric_slot
// is the dearest ranking there is: a fifth of a small twelve placement
// unit's instructions when it was called per placement).
const Entry* FirstPass::view_quiet_block(const Group& group, const SolvedSectors::Table& table,
                                         int stones, Batch& batch) const {
    const SectorIndex& index = *table.index;
    const uint32_t block = group.opponent_class.rank;
    if (index.is_full_block(block)) {
        prefetch_block(table, block);
        return table.entries.data() + index.block_begin(block);
    }
    batch.quiet_view.resize(binomial[std::popcount(group.free)][stones]);
    fill_view(table, group.opponent_class, group.free, stones, batch.quiet_view.data());
    return batch.quiet_view.data();
}

// The views of the blocks the group's removals lead into, one a removable
// stone or, where placements read each entry often, folded by rank so that
// a placement that closes a mill reads one rank, not one a removable stone;
// or none. A view costs about one read through the index for each of its
// entries, and each read from it saves about one: unless options ask
// otherwise, views are filled when the group's removals are expected to
// read each entry once or more, at the sector's rate of placements that
// close a mill (closing_rate).
FirstPass::RemovalViews FirstPass::view_removal_blocks(const Group& group,
                                                       const SolvedSectors::Table& table,
                                                       int stones, Batch& batch) const {
    const int free_points = std::popcount(group.free);
    const uint64_t entries = binomial[free_points][stones];
    const uint64_t positions =
        binomial[free_points][stones - 1] /
        std::popcount(classes_.stabiliser(std::popcount(group.opponent), group.number));
    // The group's expected reads of each entry of a view.
    const double reads_an_entry =
        batch.closing_rate * static_cast<double>(positions) / static_cast<double>(entries);
    const bool pay = reads_an_entry >= 1;
    if (removal_walk_ == RemovalWalk::through_index ||
        (removal_walk_ == RemovalWalk::automatic && !pay))
        return {};
    batch.far_reads += entries * group.removal_count;  // see stats.hpp
    // Folding pays where placements read each entry twice or more: below,
    // the fold's arrays cost more than the reads they save and push the
    // quiet placements' block out of the cache (twelve's 6-8-3-3 +25%,
    // 5-7-4-4 +35% when every group folded; docs/performance.md).
    constexpr double kFoldFrom = 2;
    const bool fold = removal_walk_ == RemovalWalk::through_folded_views ||
                      (removal_walk_ == RemovalWalk::automatic && reads_an_entry >= kFoldFrom);
    if (!fold) {
        batch.removal_view.resize(entries * group.removal_count);
        Entry* view = batch.removal_view.data();
        for (Bitboard r = group.removable; r; r &= r - 1, view += entries)
            fill_view(table, group.after_removing[std::countr_zero(r)], group.free, stones, view);
        return {.views = batch.removal_view.data(), .size = entries};
    }
    batch.removal_view.resize(entries);
    batch.removal_views.reset(entries);
    for (Bitboard r = group.removable; r; r &= r - 1) {
        fill_view(table, group.after_removing[std::countr_zero(r)], group.free, stones,
                  batch.removal_view.data());
        batch.removal_views.add(batch.removal_view.data());
    }
    return {.folded = &batch.removal_views};
}

// Placements: one that closes no mill leads into the block of the
// opponent's class; one that closes a mill removes one stone (settles_by_group
// asks double_mill=one), into a block per stone. Both are read through
// views where they pay, and otherwise the removals' through the index.
uint64_t FirstPass::settle_placement_group(const UnitSector& sector, uint32_t c, Batch& batch) {
    PlacementTargets targets = placement_targets(sector.key);
    const Group group = group_of(sector, c);
    const int placed = sector.key.mover_on_board + 1;  // the successor's opponent's stones
    // On a full board nothing is placed, and no quiet sector is solved.
    const bool full =
        sector.key.mover_on_board + sector.key.opponent_on_board == variant_.board->points;
    const SolvedSectors::Table* quiet_table = full ? nullptr : targets.quiet.get(solved_);
    const Entry* quiet_view =
        quiet_table ? view_quiet_block(group, *quiet_table, placed, batch) : nullptr;
    // A placement closes a mill (three points) with two stones on it already.
    const bool may_close = sector.key.mover_on_board >= 2 && group.removal_count > 0;
    const SolvedSectors::Table* removal_table =
        may_close && !full ? targets.removal.get(solved_) : nullptr;
    const RemovalViews removal =
        removal_table ? view_removal_blocks(group, *removal_table, placed, batch) : RemovalViews{};
    const bool removal_viewed = removal.views || removal.folded;
    std::array<Bitboard, kMaxPoints> mine_seen;  // by removed point: by its class's symmetry
    return settle_group(
        sector, group, batch,
        [&](const Group&, Bitboard mine, Bitboard empty, Bitboard closing, Summary& summary,
            RemovalReads& reads) {
            const Bitboard loud = empty & closing, quiet = empty & ~closing;
            summary.turns += std::popcount(quiet) + std::popcount(loud) * group.removal_count;
            if (loud && !removal_table) summary.add(unit_.distances.lost_child);
            if (quiet && !quiet_view) summary.add(unit_.distances.lost_child);
            // The removals' successors read through the index are spread
            // over their blocks: rank and prefetch them first, to be read
            // (by settle_group) when all are loading.
            if (loud && removal_table && !removal_viewed) {
                reads.table = removal_table;
                for (Bitboard r = group.removable; r; r &= r - 1) {
                    const int point = std::countr_zero(r);
                    mine_seen[point] =
                        classes_.transform(mine, group.after_removing[point].symmetry);
                }
                for (Bitboard to = loud; to; to &= to - 1) {
                    const int t = std::countr_zero(to);
                    for (Bitboard r = group.removable; r; r &= r - 1) {
                        const int point = std::countr_zero(r);
                        const SymmetryClasses::Class& next = group.after_removing[point];
                        const Bitboard after =
                            mine_seen[point] | classes_.transform_point(t, next.symmetry);
                        reads.add(removal_table->index->index_transformed(next, after));
                    }
                }
            }
            // In the views each successor's rank is that of the mover's
            // stones with the placed one, all packed among the free points.
            const uint32_t packed_mine = extract_bits(mine, group.free);
            if (quiet_view)
                for (Bitboard packed = extract_bits(quiet, group.free); packed;
                     packed &= packed - 1)
                    summary.add(quiet_view[colex().rank(packed_mine | (packed & -packed))]);
            if (removal.folded)
                for (Bitboard packed = extract_bits(loud, group.free); packed; packed &= packed - 1)
                    summary.add(removal.folded->at(colex().rank(packed_mine | (packed & -packed))));
            else if (removal.views)
                for (Bitboard packed = extract_bits(loud, group.free); packed;
                     packed &= packed - 1) {
                    const uint32_t rank = colex().rank(packed_mine | (packed & -packed));
                    for (int k = 0; k < group.removal_count; ++k)
                        summary.add(removal.views[k * removal.size + rank]);
                }
        });
}

// Moves: those that remove nothing stay in the unit and are counted; one
// that removes a stone leads into the block of the stones left's class.
// The moves are for_each_loud_turn's (for_each_closing_move), with what the
// group shares worked out once and no position built unless it has no turn.
uint64_t FirstPass::settle_moving_group(const UnitSector& sector, uint32_t c, Batch& batch) {
    const bool flies = mover_flies(variant_, sector.key);
    TurnTarget removal(sector.key, /*placed=*/false, /*removed=*/1);
    return settle_group(sector, group_of(sector, c), batch,
                        [&](const Group& group, Bitboard mine, Bitboard empty, Bitboard closing,
                            Summary& summary, RemovalReads& reads) {
                            summary.internal = turn_generation::for_each_closing_move(
                                *variant_.board, mine, empty, flies, closing,
                                [&](int from, int to, int) {
                                    summary.turns += group.removal_count;
                                    if (!(reads.table = removal.get(solved_))) {
                                        summary.add(unit_.distances.lost_child);
                                        return;
                                    }
                                    const Bitboard after = (mine & ~(1u << from)) | 1u << to;
                                    for (Bitboard r = group.removable; r; r &= r - 1) {
                                        const SymmetryClasses::Class& next =
                                            group.after_removing[std::countr_zero(r)];
                                        reads.add(reads.table->index->index_transformed(
                                            next, classes_.transform(after, next.symmetry)));
                                    }
                                });
                            summary.turns += summary.internal;
                        });
}

}  // namespace morris
