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
#include <cassert>

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

// A position's successor entries in each sibling: those read from views,
// gathered as they are read, and its removals' successors read through the
// index, ranked and prefetched as they are found and gathered when every
// one of the position's is loading. Siblings' successors have the same
// slots in their own tables (none where the child is lost).
template <size_t N>
struct FirstPass::PositionReads {
    Tables<N> tables{};  // of the removals read through the index
    int count = 0;
    std::array<uint64_t, kMaxPoints * kMaxPoints> slots;
    std::array<GatheredEntries, N> gathered;

    // Alone, a sector reads only when its table is there: no test per read.
    void add_slot(uint64_t at) {
        for (const SolvedSectors::Table* table : tables)
            if (N == 1 || table) __builtin_prefetch(&table->entries[at]);
        assert(count < static_cast<int>(slots.size()));
        slots[count++] = at;
    }
    // Folds each sibling's entries into its summary. Returns how many
    // entries it read through the index.
    uint64_t fold_into(std::array<Summary, N>& summaries) {
        uint64_t read = 0;
        for (size_t n = 0; n < N; ++n) {
            if (N == 1 || tables[n]) {
                for (int k = 0; k < count; ++k) gathered[n].add(tables[n]->entries[slots[k]]);
                read += count;
            }
            summaries[n].add(gathered[n].fold());
        }
        return read;
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

// turns(group, mine, empty, closing, summaries, reads) counts a position's
// turns in its summary in each sibling and gathers their successors'
// entries in `reads`, which folds them in. Returns how many positions the
// siblings' group has.
template <size_t N, typename Turns>
uint64_t FirstPass::settle_group(const Siblings<N>& sectors, const Group& group, Batch& batch,
                                 Turns&& turns) {
    uint64_t visited = 0;
    // Inlined into the walk: a call per position costs a few percent of a
    // placement unit.
    sectors[0]->index->for_each_by_opponent(
        group.number,
        group.number + 1, [&](uint64_t i, Stones stones) __attribute__((always_inline)) {
            const Bitboard mine = stones.mover;
            const Bitboard empty = group.free & ~mine;
            // With nothing to remove, a turn that closes a mill is as quiet as any.
            const Bitboard closing =
                group.removal_count ? turn_generation::closing_points(*variant_.board, mine, empty)
                                    : 0;
            std::array<Summary, N> summaries{};
            PositionReads<N> reads;
            turns(group, mine, empty, closing, summaries, reads);
            batch.far_reads += reads.fold_into(summaries);
            for (size_t n = 0; n < N; ++n) {
                const UnitSector& sector = *sectors[n];
                const uint64_t u = sector.offset + i;
                const Position p =
                    summaries[n].turns ? Position{} : position_of(sector.key, stones, sector.side);
                batch.settled.add(static_cast<UnitPosition>(u),
                                  concluded(u, p, summaries[n], batch, n));
            }
            visited += N;
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
// group's free points where there are enough of them, and siblings'
// tables (those not null, with a view each) share the ranking. Entry r of
// a view is written `stride` entries after entry r - 1.
template <size_t N>
void FirstPass::fill_views(const Tables<N>& tables, const SymmetryClasses::Class& block,
                           Bitboard free, int stones, const std::array<Entry*, N>& views,
                           size_t stride) const {
    const SectorIndex* index = nullptr;
    for (const SolvedSectors::Table* table : tables)
        if (table) prefetch_block(*table, block.rank), index = table->index;
    const uint64_t count = binomial[std::popcount(free)][stones];
    uint32_t packed = (uint32_t{1} << stones) - 1;
    auto fill = [&](uint64_t r, uint64_t slot) {
        for (size_t n = 0; n < N; ++n)
            if (N == 1 || tables[n]) views[n][r * stride] = tables[n]->entries[slot];
    };
    if (count >= PackedBlockIndex::worth_from(*index, block.rank)) {
        const PackedBlockIndex at(*index, block, free);
        for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed)) fill(r, at(packed));
        return;
    }
    for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed))
        fill(r, index->index_transformed(
                    block, classes_.transform(deposit_bits(packed, free), block.symmetry)));
}

// The view of the quiet placements' block, for each sibling whose child is
// not lost: the block itself when it is full, its class's representative
// being the group's stones, which only the identity (the first symmetry)
// takes to themselves. A symmetric block holds only its canonical stones:
// it is expanded, each entry ranked once, where up to `stones` positions of
// the group lead to each (symmetric_slot is the dearest ranking there is: a
// fifth of a small twelve placement unit's instructions when it was called
// per placement).
template <size_t N>
std::array<const Entry*, N> FirstPass::view_quiet_block(const Group& group, const Tables<N>& tables,
                                                        int stones, Batch& batch) const {
    std::array<const Entry*, N> views{};
    const uint32_t block = group.opponent_class.rank;
    const SolvedSectors::Table* any = nullptr;
    for (const SolvedSectors::Table* table : tables)
        if (table) any = table;
    if (!any) return views;
    if (any->index->is_full_block(block)) {
        for (size_t n = 0; n < N; ++n)
            if (tables[n]) {
                prefetch_block(*tables[n], block);
                views[n] = tables[n]->entries.data() + tables[n]->index->block_begin(block);
            }
        return views;
    }
    std::array<Entry*, N> filled{};
    for (size_t n = 0; n < N; ++n)
        if (tables[n]) {
            batch.quiet_view[n].resize(binomial[std::popcount(group.free)][stones]);
            views[n] = filled[n] = batch.quiet_view[n].data();
        }
    fill_views(tables, group.opponent_class, group.free, stones, filled, 1);
    return views;
}

// The views of the blocks the group's removals lead into, for each sibling
// whose child is not lost: one a removable stone, interleaved by rank, or,
// where placements read each entry often, folded by rank so that a
// placement that closes a mill reads one rank, not a run of them; or none.
// A view costs about one read through the index for each of its entries
// (and its padding a write), and each read from it saves about one: unless
// options ask otherwise, views are filled when the group's removals are
// expected to read each entry once or more, at the sector's rate of
// placements that close a mill (closing_rate).
template <size_t N>
std::array<FirstPass::RemovalViews, N> FirstPass::view_removal_blocks(const Group& group,
                                                                      const Tables<N>& tables,
                                                                      int stones,
                                                                      Batch& batch) const {
    std::array<RemovalViews, N> viewed{};
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
        return viewed;
    // Folding pays where placements read each entry twice or more: below,
    // the fold's arrays cost more than the reads they save and push the
    // quiet placements' block out of the cache (twelve's 6-8-3-3 +25%,
    // 5-7-4-4 +35% when every group folded; docs/performance.md).
    constexpr double kFoldFrom = 2;
    const bool fold = removal_walk_ == RemovalWalk::through_folded_views ||
                      (removal_walk_ == RemovalWalk::automatic && reads_an_entry >= kFoldFrom);
    // Unfolded, the views are interleaved by rank, so that a placement's
    // removals are read from one run, not one line in each view: an entry
    // a removable stone, and after the last rank what a run read a vector
    // at a time may read past it (GatheredEntries::add_run).
    const int per_rank = fold ? 1 : group.removal_count;
    const size_t run_slack = fold ? 0 : GatheredEntries::kLanes - 1;
    std::array<Entry*, N> views{};
    for (size_t n = 0; n < N; ++n) {
        if (!tables[n]) continue;
        batch.far_reads += entries * group.removal_count;  // see stats.hpp
        std::vector<Entry>& view = batch.removal_view[n];
        view.resize(entries * per_rank + run_slack);
        views[n] = view.data();
        if (fold) {
            batch.removal_views[n].reset(entries);
            viewed[n] = {.folded = &batch.removal_views[n]};
            continue;
        }
        viewed[n] = {.views = views[n], .per_rank = per_rank};
    }
    for (Bitboard r = group.removable; r; r &= r - 1) {
        fill_views(tables, group.after_removing[std::countr_zero(r)], group.free, stones, views,
                   per_rank);
        for (size_t n = 0; n < N; ++n)
            if (!tables[n])
                continue;
            else if (fold)
                batch.removal_views[n].add(views[n]);
            else
                ++views[n];  // the next lane
    }
    return viewed;
}

// Placements: one that closes no mill leads into the block of the
// opponent's class; one that closes a mill removes one stone (settles_by_group
// asks double_mill=one), into a block per stone. Both are read through
// views where they pay, and otherwise the removals' through the index.
// Siblings (Unit::siblings) differ only in their hands: they share the
// walk, the ranks and the slots, and each reads its own children.
template <size_t N>
uint64_t FirstPass::settle_placement_group(const Siblings<N>& sectors, uint32_t c, Batch& batch) {
    const SectorKey& board = sectors[0]->key;  // the siblings' stones on the board
    const Group group = group_of(*sectors[0], c);
    const int placed = board.mover_on_board + 1;  // the successor's opponent's stones
    // On a full board nothing is placed, and no quiet sector is solved.
    const bool full = board.mover_on_board + board.opponent_on_board == variant_.board->points;
    // A placement closes a mill (three points) with two stones on it already.
    const bool may_close = board.mover_on_board >= 2 && group.removal_count > 0;
    Tables<N> quiet_tables{}, removal_tables{};
    bool removes = false;  // some sibling's removal child is not lost
    for (size_t n = 0; n < N; ++n) {
        PlacementTargets targets = placement_targets(sectors[n]->key);
        quiet_tables[n] = full ? nullptr : targets.quiet.get(solved_);
        removal_tables[n] = may_close && !full ? targets.removal.get(solved_) : nullptr;
        removes |= removal_tables[n] != nullptr;
    }
    const std::array<const Entry*, N> quiet_view =
        view_quiet_block(group, quiet_tables, placed, batch);
    const std::array<RemovalViews, N> removal =
        removes ? view_removal_blocks(group, removal_tables, placed, batch)
                : std::array<RemovalViews, N>{};
    // Siblings whose child is not lost get views of the same kind.
    bool removal_viewed = false, quiet_viewed = false;
    for (size_t n = 0; n < N; ++n) {
        removal_viewed |= removal[n].views || removal[n].folded;
        quiet_viewed |= quiet_view[n] != nullptr;
    }
    std::array<Bitboard, kMaxPoints> mine_seen;  // by removed point: by its class's symmetry
    return settle_group(
        sectors, group, batch,
        [&](const Group&, Bitboard mine, Bitboard empty, Bitboard closing,
            std::array<Summary, N>& summaries, PositionReads<N>& reads) {
            const Bitboard loud = empty & closing, quiet = empty & ~closing;
            for (size_t n = 0; n < N; ++n) {
                Summary& summary = summaries[n];
                summary.turns += std::popcount(quiet) + std::popcount(loud) * group.removal_count;
                if (loud && !removal_tables[n]) summary.add(unit_.distances.lost_child);
                if (quiet && !quiet_view[n]) summary.add(unit_.distances.lost_child);
            }
            // The removals' successors read through the index are spread
            // over their blocks: rank and prefetch them first, to be read
            // (PositionReads::fold_into) when all are loading.
            if (loud && removes && !removal_viewed) {
                reads.tables = removal_tables;
                const SectorIndex& index =
                    *(removal_tables[0] ? removal_tables[0] : removal_tables[N - 1])->index;
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
                        reads.add_slot(index.index_transformed(next, after));
                    }
                }
            }
            // In the views each successor's rank is that of the mover's
            // stones with the placed one, all packed among the free points:
            // ranked once for every sibling.
            const uint32_t packed_mine = extract_bits(mine, group.free);
            std::array<uint32_t, kMaxPoints> ranks;
            auto rank_placements = [&](Bitboard points) {
                return colex().ranks_with_each(packed_mine, extract_bits(points, group.free),
                                               ranks.data());
            };
            if (quiet_viewed) {
                const int count = rank_placements(quiet);
                for (size_t n = 0; n < N; ++n)
                    if (N == 1 || quiet_view[n])
                        reads.gathered[n].add_at(quiet_view[n], ranks.data(), count);
            }
            if (!removal_viewed) return;
            const int count = rank_placements(loud);
            for (size_t n = 0; n < N; ++n) {
                if (removal[n].folded)
                    for (int k = 0; k < count; ++k)
                        summaries[n].add(removal[n].folded->at(ranks[k]));
                else if (removal[n].views)
                    for (int k = 0; k < count; ++k)
                        reads.gathered[n].add_run(removal[n].views + ranks[k] * removal[n].per_rank,
                                                  removal[n].per_rank);
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
    const Group group = group_of(sector, c);
    // The group's closing moves read its removal blocks at random, each
    // line several times (nine's 7-7: 64 KiB blocks, a line read about nine
    // times a group). Streamed in whole at the group's start, in address
    // order, their first touches overlap rather than stall the walk
    // (docs/performance.md, "First pass").
    if (const SolvedSectors::Table* table = removal.get_if_loaded(solved_))
        for (Bitboard r = group.removable; r; r &= r - 1)
            prefetch_block(*table, group.after_removing[std::countr_zero(r)].rank);
    return settle_group(Siblings<1>{&sector}, group, batch,
                        [&](const Group&, Bitboard mine, Bitboard empty, Bitboard closing,
                            std::array<Summary, 1>& summaries, PositionReads<1>& reads) {
                            Summary& summary = summaries[0];
                            summary.internal = turn_generation::for_each_closing_move(
                                *variant_.board, mine, empty, flies, closing,
                                [&](int from, int to, int) {
                                    summary.turns += group.removal_count;
                                    const SolvedSectors::Table* table = removal.get(solved_);
                                    if (!table) {
                                        summary.add(unit_.distances.lost_child);
                                        return;
                                    }
                                    reads.tables[0] = table;
                                    const Bitboard after = (mine & ~(1u << from)) | 1u << to;
                                    for (Bitboard r = group.removable; r; r &= r - 1) {
                                        const SymmetryClasses::Class& next =
                                            group.after_removing[std::countr_zero(r)];
                                        reads.add_slot(table->index->index_transformed(
                                            next, classes_.transform(after, next.symmetry)));
                                    }
                                });
                            summary.turns += summary.internal;
                        });
}

// Instantiated for first_pass.cpp: a sector alone, and siblings.
template uint64_t FirstPass::settle_placement_group<1>(const Siblings<1>&, uint32_t, Batch&);
template uint64_t FirstPass::settle_placement_group<2>(const Siblings<2>&, uint32_t, Batch&);

}  // namespace morris
