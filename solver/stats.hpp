// What solving a unit cost, by phase: its seconds, and the accesses that
// leave the cache, which the solver counts itself (virtual machines such as
// the ones it was built on expose no performance counters). Seconds depend
// on the host's memory; the counts do not, so performance work is judged by
// both (`morris solve --stats`, docs/performance.md "Far accesses").
//
// A far access touches a line of a large array at a place its phase cannot
// predict from the block it is working in:
// - first pass: a read of a solved child by a turn that removes a stone
//   (quiet placements read the one block their group shares: not far; a
//   placement group whose removals read through views counts the reads
//   that fill them instead, one per entry of each view), and a state
//   written out of index order (walks by opponent class);
// - push: an update of a predecessor's state (listed by region and applied
//   in cache, see push.hpp, but still one scattered line each);
// - pull: a read of a successor's state, or a line of a flying mover's
//   block read whole;
// - candidates: a win candidate's state, decided at its layer.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace morris {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct PhaseStats {
    double seconds = 0;
    uint64_t far_reads = 0, far_writes = 0;
    int layers = 0;  // push and pull: the layers (sector shares of them) it took

    // From the threads of a parallel region, each once with its own counts.
    void add(uint64_t reads, uint64_t writes) {
        std::atomic_ref<uint64_t>(far_reads).fetch_add(reads, std::memory_order_relaxed);
        std::atomic_ref<uint64_t>(far_writes).fetch_add(writes, std::memory_order_relaxed);
    }
};

struct UnitStats {
    uint64_t positions = 0;
    PhaseStats first_pass, push, pull, candidates, write;
    // The cost model's scales when the unit was done: measured time over
    // predicted, for push and for pull (PropagationCost in layers.hpp).
    double push_scale = 1, pull_scale = 1;

    uint64_t far_accesses() const {
        uint64_t n = 0;
        for (const PhaseStats* p : {&first_pass, &push, &pull, &candidates})
            n += p->far_reads + p->far_writes;
        return n;
    }
};

}  // namespace morris
