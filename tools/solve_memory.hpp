// How `morris solve` sets up glibc's allocator for a solve: freed memory
// kept, and handed back between units only beyond what the run's largest
// unit leaves room for, and the heap on huge pages in one arena
// (solve_memory.cpp says why, with figures).
#pragma once

#include <cstdint>
#include <string>

namespace morris {

// Runs this program again, once, with the huge-page heap's tunables added to
// GLIBC_TUNABLES, unless the user chose the heap's pages there. Returns only
// when it cannot (or need not) run again.
void run_again_with_huge_page_heap(char** argv);
// The heap's pages and the tunables that chose them, for `--stats`.
std::string heap_description();
// Keeps the memory a solve frees for its next allocations.
void keep_freed_memory();
// Returns the free heap to the system (between units) if it holds more than
// `may_keep` bytes; returns the free bytes it keeps.
uint64_t hand_back_freed_memory(uint64_t may_keep);

}  // namespace morris
