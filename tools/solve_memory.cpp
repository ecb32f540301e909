#include "tools/solve_memory.hpp"

#include <fmt/core.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace morris {

// Keeps the memory a solve frees for its next allocations. glibc maps a
// large block afresh for each allocation and unmaps it when freed, and
// trims the heap's free top; the solver's layers (whose vectors grow by
// copying into new blocks) and buffers come and go by the hundreds of MiB,
// and every page mapped again costs a page fault and a clearing, dear on a
// virtual machine: re-solving nine's 5-7 on one thread took 1.06 M faults
// and 7.3 s in the kernel with glibc's defaults, 387 K and 3.9 s without
// (docs/performance.md, "Memory"). The unit's states keep theirs through
// their page pool (indexing/huge_array.hpp). What a unit kept is handed
// back before the next only where the run's memory budget asks it
// (hand_back_freed_memory).
void keep_freed_memory() {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, -1);  // never
}

// glibc backs its heap with transparent huge pages only when its tunables
// say so, and reads them once, at start. A solve's buffers (layer lists,
// push's update lists) grow by the hundred MiB in every unit, and on host A5
// a page faulted in 4 KiB at a time cost 2.9 s a GiB (11 us a fault), in
// huge pages 0.07-1.6 s. glibc advises huge pages only for its main arena:
// the heaps it maps for other threads' arenas stay in 4 KiB pages, so the
// solve keeps one arena. Nine's 7-7 took 360-375 K faults with glibc's
// defaults, 81-107 K with the huge pages alone, 2.5 K with one arena too
// (docs/performance.md, "Memory"). So `morris solve` runs itself again,
// once, with both added to GLIBC_TUNABLES, unless the user chose the heap's
// pages there; where it cannot, it goes on as it is.
namespace {
constexpr const char* kHugePageHeap = "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1";
// The tunable that chooses the heap's pages, the user's or ours.
constexpr std::string_view kHugetlbTunable = "glibc.malloc.hugetlb";
}  // namespace

std::string heap_description() {
    const char* set = std::getenv("GLIBC_TUNABLES");
    const std::string tunables = set ? set : "";
    const bool huge = tunables.find(std::string(kHugetlbTunable) + "=1") != std::string::npos;
    return fmt::format("{} (GLIBC_TUNABLES={})", huge ? "huge pages" : "4 KiB pages", tunables);
}

void run_again_with_huge_page_heap(char** argv) {
    const char* set = std::getenv("GLIBC_TUNABLES");
    const std::string before = set ? set : "";
    if (before.find(kHugetlbTunable) != std::string::npos) return;  // chosen already
    const std::string value =
        before.empty() ? kHugePageHeap : fmt::format("{}:{}", before, kHugePageHeap);
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
    execv("/proc/self/exe", argv);
    // Not run again (no /proc?): the environment as it was.
    if (set)
        setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
}

// Returns the free heap to the system between units when it holds more than
// the run lets the next unit keep (`may_keep`: SolveOptions::before_unit).
// Kept, one unit's buffers lay under the next unit's arrays: twelve's 7-9
// with 9-7 peaked at 10.74 GiB after 7-8 with 8-7 in the same run (11.63 GiB
// in the whole solve), and at 9.98 GiB after it with the heap handed back.
// Handed back, every unit faults its buffers in again: on host A6 (KVM,
// where a huge page faulted in costs 4-6 ms) nine's whole solve spent 221 s
// in the kernel, most of it there (docs/performance.md, "Memory").
uint64_t hand_back_freed_memory(uint64_t may_keep) {
    const uint64_t free_bytes = mallinfo2().fordblks;
    if (free_bytes <= may_keep) return free_bytes;
    malloc_trim(0);
    return 0;  // what free blocks are left inside the heap lost their pages
}

}  // namespace morris
