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
uint64_t FirstPass::settle_group(const UnitSector& sector, uint32_t c, Batch& batch,
                                 Turns&& turns) {
    const Group group = group_of(sector, c);
    uint64_t visited = 0;
    // Inlined into the walk: a call per position costs a few percent of a
    // placement unit.
    sector.index->for_each_by_opponent(
        c, c + 1, [&](uint64_t i, Stones stones) __attribute__((always_inline)) {
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
            batch.settled.push_back(
                {static_cast<UnitPosition>(u), concluded(u, p, summary, batch)});
            ++visited;
        });
    batch.far_writes += visited;  // write_settled scatters them over the unit
    write_settled(batch);
    return visited;
}

// Placements: one that closes no mill reads the block of the opponent's
// class (settle_quiet, all at once); one that closes a mill removes one
// stone (settles_by_group asks double_mill=one), into a block per stone.
uint64_t FirstPass::settle_placement_group(const UnitSector& sector, uint32_t c, Batch& batch) {
    PlacementTargets targets = placement_targets(sector.key);
    std::array<Bitboard, kMaxPoints> mine_seen;  // by removed point: by its class's symmetry
    return settle_group(
        sector, c, batch,
        [&](const Group& group, Bitboard mine, Bitboard empty, Bitboard closing, Summary& summary,
            RemovalReads& reads) {
            // The removals' successors are spread over their blocks: rank
            // and prefetch them first, then read the quiet placements'
            // (near each other for neighbouring positions) while they load.
            const Bitboard loud = empty & closing;
            reads.table = loud ? targets.removal.get(solved_) : nullptr;
            if (reads.table) {
                for (Bitboard r = group.removable; r; r &= r - 1) {
                    const int k = std::countr_zero(r);
                    mine_seen[k] = classes_.transform(mine, group.after_removing[k].symmetry);
                }
                for (Bitboard to = loud; to; to &= to - 1) {
                    const int t = std::countr_zero(to);
                    for (Bitboard r = group.removable; r; r &= r - 1) {
                        const int k = std::countr_zero(r);
                        const SymmetryClasses::Class& next = group.after_removing[k];
                        const Bitboard after =
                            mine_seen[k] | classes_.transform_point(t, next.symmetry);
                        reads.add(reads.table->index->index_transformed(next, after));
                    }
                }
            }
            settle_quiet(targets.quiet, group.opponent_class, mine, empty & ~closing, summary);
            summary.turns += std::popcount(loud) * group.removal_count;
            if (loud && !reads.table) summary.add(unit_.distances.lost_child);
        });
}

// Moves: those that remove nothing stay in the unit and are counted; one
// that removes a stone leads into the block of the stones left's class.
// The moves are for_each_loud_turn's (for_each_closing_move), with what the
// group shares worked out once and no position built unless it has no turn.
uint64_t FirstPass::settle_moving_group(const UnitSector& sector, uint32_t c, Batch& batch) {
    const bool flies = mover_flies(variant_, sector.key);
    TurnTarget removal(sector.key, /*placed=*/false, /*removed=*/1);
    return settle_group(sector, c, batch,
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
