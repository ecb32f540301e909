// The first pass over a unit: every position is looked at once, its turns
// inside the unit counted and its turns into solved sectors (the unit's
// children, solved_sectors.hpp) read, which decides every position whose
// turns all leave the unit and gives the others their floor and counter
// (state.hpp). On nine's balanced sectors, almost all draws, this pass is
// most of the work. The layer loop (layers.hpp) takes over from it.
//
// Positions are walked one of three ways, all giving the same states:
// - in index order (first_pass.cpp), batched so that the successors'
//   lookups, which miss the cache, are prefetched and overlap;
// - a group at a time (settle_group.cpp), a group being the positions that
//   share the opponent's stones: placement sectors and crowded moving
//   sectors, whose turns lead into a few blocks per group;
// - by opponent without groups, for placement sectors that may remove two
//   stones at once (double_mill=two), which the group routine does not cover.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "game/turns.hpp"
#include "solver/region_writes.hpp"
#include "solver/solve.hpp"
#include "solver/solved_sectors.hpp"
#include "solver/successors.hpp"
#include "solver/unit.hpp"

namespace morris {

class FirstPass {
  public:
    FirstPass(Unit& unit, const SolvedSectors& solved, const SolveOptions& options)
        : unit_(unit),
          variant_(unit.variant),
          classes_(unit.classes),
          solved_(solved),
          progress_(options.progress),
          moving_walk_(options.moving_walk),
          removal_walk_(options.removal_walk) {}

    // Settles what the unit's turns into solved sectors decide, counts its
    // turns inside, and fills unit.decided and unit.candidates. Throws
    // std::runtime_error if a count or distance does not fit a State.
    void run();

  private:
    // Sibling placement sectors (one unit, Unit::siblings) share
    // their index and their children's indexes: one walk settles both.
    static constexpr size_t kMostSiblings = 2;

    struct Summary : Successors {
        int turns = 0, internal = 0;
    };
    // Classes of successors' mover stones. Positions of a sector that
    // places are settled grouped by their opponent's stones, which become the
    // successor's mover less at most a removed stone, so a few sets recur
    // through a whole batch.
    class ClassCache {
      public:
        explicit ClassCache(const SymmetryClasses& classes) : classes_(&classes) {
            std::fill(std::begin(sets_), std::end(sets_), ~Bitboard{0});
        }
        const SymmetryClasses::Class& get(Bitboard set) {
            const size_t slot = (set * kFibonacci) >> (32 - kSlotBits);
            if (sets_[slot] != set) sets_[slot] = set, found_[slot] = classes_->class_of(set);
            return found_[slot];
        }

      private:
        static constexpr int kSlotBits = 5;
        static constexpr uint32_t kFibonacci = 0x9e3779b9;  // 2^32 / golden ratio: spreads sets
        const SymmetryClasses* classes_;
        Bitboard sets_[1 << kSlotBits];
        SymmetryClasses::Class found_[1 << kSlotBits];
    };

    // A turn into a solved sector, waiting in a batch for its value.
    struct Lookup {
        uint32_t position;  // in the batch
        const SolvedSectors::Table* table;
        Stones stones;
        uint64_t index;
    };

    // Positions settled together, so that the successors' lookups, which
    // miss the cache, can be prefetched and overlap.
    struct Batch {
        Batch(Unit& unit, double closing_rate, int threads)
            : settled(unit.states, unit.size, threads),
              closing_rate(closing_rate),
              classes(symmetry_classes(*unit.variant.board)) {}
        static constexpr size_t kSize = 64;
        size_t count = 0;
        uint64_t unit_position[kSize];
        Position position[kSize];
        Summary summary[kSize];
        std::vector<Lookup> lookups;
        Layers decided, candidates;
        uint64_t internal_turns = 0;  // of the batch's sector so far
        // Of the batch's sector, and of its sibling when walked together.
        std::array<uint64_t, kMostSiblings> undecided{};
        uint64_t far_reads = 0, far_writes = 0;  // see stats.hpp
        RegionWrites settled;                    // by the group walk, out of index order
        // A group's views (settle_group.cpp), a set for each sibling: the
        // quiet placements' block, its removals' blocks interleaved by rank
        // and those folded by rank; and what decides whether its removals are
        // read through views: the placements that close a mill a position
        // of the sector (closing_rate).
        std::array<std::vector<Entry>, kMostSiblings> quiet_view, removal_view;
        std::array<FoldedViews, kMostSiblings> removal_views;
        double closing_rate;
        TableCache tables;
        ClassCache classes;
    };

    // A sector a sector's turns lead into, found among the solved ones when
    // a turn first does: the sector graph leaves out sectors no turn
    // reaches. None where the opponent is left with fewer stones than it
    // needs: it has lost.
    class TurnTarget {
      public:
        TurnTarget(const SectorKey& from, bool placed, int removed)
            : key_(sector_after(from, placed, removed)), lost_(is_lost_sector(key_)) {}
        // Null when the opponent has lost.
        const SolvedSectors::Table* get(const SolvedSectors& solved) {
            if (!table_ && !lost_) table_ = &solved.table(key_);
            return table_;
        }
        // Null also where the sector is not loaded: no turn of the unit
        // reaches it (a sector whose moves close no mill).
        const SolvedSectors::Table* get_if_loaded(const SolvedSectors& solved) {
            return lost_ || !solved.holds(key_) ? nullptr : get(solved);
        }

      private:
        SectorKey key_;
        bool lost_;
        const SolvedSectors::Table* table_ = nullptr;
    };
    struct PlacementTargets {
        TurnTarget quiet, removal;  // after a placement that removes nothing, and one stone
    };
    // With no opponent stone on the board nothing is removable, and the
    // removal target (its count wrapped below zero) is never asked for.
    static PlacementTargets placement_targets(const SectorKey& k) {
        return {{k, /*placed=*/true, /*removed=*/0}, {k, /*placed=*/true, /*removed=*/1}};
    }

    // One group's positions settled, of one sector or of siblings walked
    // together; the placement and moving policies (settle_group.cpp) list
    // their turns.
    template <size_t N>
    using Siblings = std::array<const UnitSector*, N>;
    template <size_t N>
    using Tables = std::array<const SolvedSectors::Table*, N>;
    struct Group;
    template <size_t N>
    struct PositionReads;
    Group group_of(const UnitSector& sector, uint32_t c) const;
    template <size_t N, typename Turns>
    uint64_t settle_group(const Siblings<N>& sectors, const Group& group, Batch& batch,
                          Turns&& turns);
    template <size_t N>
    void fill_views(const Tables<N>& tables, const SymmetryClasses::Class& block, Bitboard free,
                    int stones, const std::array<Entry*, N>& views, size_t stride) const;
    template <size_t N>
    std::array<const Entry*, N> view_quiet_block(const Group& group, const Tables<N>& tables,
                                                 int stones, Batch& batch) const;
    struct RemovalViews {
        // By rank, `per_rank` entries each (a run: one a removable stone).
        const Entry* views = nullptr;
        const FoldedViews* folded = nullptr;
        int per_rank = 0;
    };
    template <size_t N>
    std::array<RemovalViews, N> view_removal_blocks(const Group& group, const Tables<N>& tables,
                                                    int stones, Batch& batch) const;
    double closing_rate(const UnitSector& sector) const;
    template <size_t N>
    uint64_t settle_placement_group(const Siblings<N>& sectors, uint32_t c, Batch& batch);
    uint64_t settle_moving_group(const UnitSector& sector, uint32_t c, Batch& batch);

    bool settles_by_group(const SectorKey& k) const;
    bool moves_by_group(const SectorKey& k) const;
    Bitboard removal_classes(Bitboard opponent,
                             std::array<SymmetryClasses::Class, kMaxPoints>& by_point) const;
    void settle_quiet(TurnTarget& target, const SymmetryClasses::Class& theirs, Bitboard mine,
                      Bitboard points, Summary& summary) const;
    static uint32_t blocks_per_chunk(const SectorIndex& index);
    void settle(Batch& batch);
    void settle_quiet_placements(const Position& p, Bitboard points, Summary& summary,
                                 Batch& batch) const;
    static State final_state(const Summary& s);
    void conclude(uint64_t u, const Position& p, const Summary& s, Batch& batch);
    State concluded(uint64_t u, const Position& p, const Summary& s, Batch& batch,
                    size_t sibling = 0);

    Unit& unit_;
    const Variant& variant_;
    const SymmetryClasses& classes_;
    const SolvedSectors& solved_;
    bool progress_;
    MovingWalk moving_walk_;
    RemovalWalk removal_walk_;
    std::atomic<bool> out_of_range_{false};
};

// Inline: both walks (first_pass.cpp, settle_group.cpp) call these once per
// position.

// The state of a position with turns all of whose successors are solved.
inline State FirstPass::final_state(const Summary& s) {
    return s.best_win() > 0 ? State::decided(s.best_win())
           : s.draw         ? State::cannot_lose()
                            : State::decided(s.floor());
}

// The state of position u as its summary leaves it, entered in the
// batch's layers and counts (p is looked at only when it has no turn).
inline State FirstPass::concluded(uint64_t u, const Position& p, const Summary& s, Batch& batch,
                                  size_t sibling) {
    if (s.turns == 0) {
        if (status(variant_, p) == Status::loss) {
            append(batch.decided, 0, u);
            return State::decided(0);
        }
        ++batch.undecided[sibling];
        return State::cannot_lose();  // a draw by the full-board rule
    }
    if (unit_.only_placements) return final_state(s);
    // Read before writing: after the first position most find it set.
    if (s.internal > 0 && !unit_.has_internal_turns.load(std::memory_order_relaxed))
        unit_.has_internal_turns.store(true, std::memory_order_relaxed);
    batch.internal_turns += s.internal;
    ++batch.undecided[sibling];                           // unless it is decided below
    if (s.best_win() == unit_.distances.fastest_win()) {  // no win is shorter: settled now
        append(batch.decided, s.best_win(), u);
        --batch.undecided[sibling];
        return State::decided(s.best_win());
    }
    if (s.best_win() > 0) {
        append(batch.candidates, s.best_win(), u);
        return State::cannot_lose();
    }
    if (s.draw) return State::cannot_lose();
    if (s.internal == 0) {
        append(batch.decided, s.floor(), u);
        --batch.undecided[sibling];
        return State::decided(s.floor());
    }
    if (s.internal > State::kMaxCounter || s.floor() > State::kMaxFloor)
        out_of_range_ = true;  // run() fails
    return State::undecided(s.internal, s.floor());
}

}  // namespace morris
