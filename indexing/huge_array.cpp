#include "indexing/huge_array.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace morris {

void* map_huge_pages(size_t bytes) {
    // Mapped with a huge page to spare, to cut an aligned range out of it.
    void* mapped = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    char* const first = static_cast<char*>(mapped);
    const auto address = reinterpret_cast<uintptr_t>(first);
    char* const aligned = first + (kHugePage - address % kHugePage) % kHugePage;
    if (aligned > first) munmap(first, static_cast<size_t>(aligned - first));
    if (aligned < first + kHugePage)
        munmap(aligned + bytes, static_cast<size_t>(first + kHugePage - aligned));
    madvise(aligned, bytes, MADV_HUGEPAGE);  // advice only: fine if refused
    return aligned;
}

void unmap_huge_pages(void* memory, size_t bytes) { munmap(memory, bytes); }

void* PagePool::take(size_t bytes) {
    char* const memory = static_cast<char*>(map_huge_pages(bytes));
    std::lock_guard lock(mutex_);
    // Kept pages replace the untouched ones, a range at a time: moving a
    // range remaps its page tables and copies nothing.
    size_t covered = 0;
    while (covered < bytes && !kept_.empty()) {
        Range& range = kept_.back();
        const size_t moved = std::min(range.bytes, bytes - covered);
        if (mremap(range.begin, moved, moved, MREMAP_MAYMOVE | MREMAP_FIXED, memory + covered) ==
            MAP_FAILED)
            break;  // the rest stays untouched memory, which serves as well
        covered += moved;
        range.begin += moved;
        range.bytes -= moved;
        if (range.bytes == 0) kept_.pop_back();
    }
    return memory;
}

void PagePool::give(void* memory, size_t bytes) {
    std::lock_guard lock(mutex_);
    kept_.push_back({static_cast<char*>(memory), bytes});
}

void PagePool::release(size_t keep) {
    keep -= keep % kHugePage;
    std::lock_guard lock(mutex_);
    // The ranges given last are taken first (take): those are kept.
    size_t kept = 0;
    for (auto range = kept_.rbegin(); range != kept_.rend(); ++range) {
        const size_t stays = std::min(range->bytes, keep - kept);
        if (stays < range->bytes) unmap_huge_pages(range->begin + stays, range->bytes - stays);
        range->bytes = stays;
        kept += stays;
    }
    std::erase_if(kept_, [](const Range& range) { return range.bytes == 0; });
}

size_t PagePool::kept_bytes() const {
    std::lock_guard lock(mutex_);
    size_t bytes = 0;
    for (const Range& range : kept_) bytes += range.bytes;
    return bytes;
}

}  // namespace morris
