// States written out of index order, held and written a region of the unit
// at a time. The first pass's group walk settles a group's positions
// scattered over the whole unit, one cache line each: written at once,
// every state costs a line loaded from memory and written back, the lines
// in no order the memory or the TLB can make use of. Held in sequence
// until the threads hold one for every 64 of the unit's positions between
// them, then sorted by region (a counting sort, in cache), they are
// written region after region, each region's lines loaded in close
// succession (propagation blocking, as push lists its updates: Beamer,
// Asanović and Patterson, IPDPS 2017).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/counting_sort.hpp"
#include "solver/state.hpp"
#include "solver/unit.hpp"

namespace morris {

class RegionWrites {
  public:
    // The threads hold at most one state for this many of the unit's
    // positions between them, each in two arrays (held and sorted).
    static constexpr uint64_t kPositionsPerHeld = 64;
    static constexpr int kRegionBits = 18;  // 512 KiB of states

    // For one of `threads` threads writing into the `states` of `positions`.
    RegionWrites(HugeArray<State>& states, uint64_t positions, int threads)
        : states_(&states),
          regions_((positions >> kRegionBits) + 1),
          most_held_(std::max<uint64_t>(positions / kPositionsPerHeld / threads, 1)) {}

    // The most bytes the threads' held states take in a unit of `positions`.
    static uint64_t memory_need(uint64_t positions) {
        return 2 * sizeof(Held) * (positions / kPositionsPerHeld + 1);
    }

    void add(UnitPosition u, State state) {
        if (held_.empty()) held_.reserve(most_held_);
        held_.push_back({u, state});
        if (held_.size() == most_held_) write_held();
    }

    // Writes every state still held. Returns how many were written since
    // the last call: each loaded a line that left the cache (stats.hpp).
    uint64_t finish() {
        write_held();
        return std::exchange(written_, 0);
    }

  private:
    struct Held {
        UnitPosition u;
        State state;
    };

    void write_held() {
        counting_sort<Held>(
            held_, regions_, [](const Held& h) { return h.u >> kRegionBits; }, starts_, sorted_);
        constexpr size_t kAhead = 16;
        for (size_t k = 0; k < sorted_.size(); ++k) {
            if (k + kAhead < sorted_.size())
                __builtin_prefetch(&(*states_)[sorted_[k + kAhead].u], 1);
            (*states_)[sorted_[k].u] = sorted_[k].state;
        }
        written_ += held_.size();
        held_.clear();
    }

    HugeArray<State>* states_;
    std::vector<Held> held_, sorted_;
    uint64_t regions_;
    std::vector<uint64_t> starts_;  // counting_sort's
    uint64_t most_held_;
    uint64_t written_ = 0;
};

}  // namespace morris
