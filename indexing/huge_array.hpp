// A fixed-size array in transparent huge pages. The solver's arrays are read
// and written at random across gigabytes; with 4 KiB pages nearly every such
// access also misses the TLB, with 2 MiB pages few do.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace morris {

inline constexpr size_t kHugePage = size_t{2} << 20;  // bytes

// The pages of freed huge arrays, kept mapped for the next ones. A page the
// process touches for the first time costs far more than its use: the
// kernel clears it, and on a virtual machine whose host takes back the
// guest's free memory (virtio-balloon's free page reporting, a few seconds
// after it is freed) the host must map and clear it again too. Here that was
// 2.3 s per GiB, against 0.05 s per GiB for a kept page (moved into place by
// mremap, without a copy). A solve frees and takes tens of gigabytes from
// unit to unit, so it hands its arrays' pages on instead.
class PagePool {
  public:
    PagePool() = default;
    PagePool(const PagePool&) = delete;
    PagePool& operator=(const PagePool&) = delete;
    ~PagePool() { release(); }

    // `bytes` (a multiple of kHugePage) of memory aligned to a huge page,
    // made of kept pages as far as they go and of untouched ones after.
    void* take(size_t bytes);
    void give(void* memory, size_t bytes);
    // Unmaps the kept pages beyond the first `keep` bytes (whole huge pages):
    // what the next arrays are not expected to take. A solve keeps up to what
    // its memory budget leaves (solve.cpp), as memory handed back to the
    // system costs its page faults again when taken.
    void release(size_t keep = 0);
    size_t kept_bytes() const;

  private:
    struct Range {
        char* begin;
        size_t bytes;
    };
    mutable std::mutex mutex_;
    std::vector<Range> kept_;
};

// Anonymous memory of `bytes` (a multiple of kHugePage) aligned to a huge
// page and advised to use them; std::bad_alloc when there is none.
void* map_huge_pages(size_t bytes);
void unmap_huge_pages(void* memory, size_t bytes);

// For arrays that are written whole before they are read: filling them first
// would touch every page on one thread, where the writers touch them in
// parallel.
struct Uninitialized {};
inline constexpr Uninitialized kUninitialized;

template <typename T>
class HugeArray {
  public:
    HugeArray() = default;
    explicit HugeArray(size_t size, T fill = T{}, PagePool* pool = nullptr)
        : HugeArray(size, kUninitialized, pool) {
        std::uninitialized_fill_n(data_.get(), size, fill);
    }
    // With a pool, the memory comes from it and goes back to it, which must
    // outlive the array. Its contents are then those some earlier array left.
    HugeArray(size_t size, Uninitialized, PagePool* pool = nullptr) : size_(size) {
        static_assert(std::is_trivially_copyable_v<T>);
        const size_t bytes = (size * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage;
        if (bytes == 0) return;
        void* memory = pool ? pool->take(bytes) : map_huge_pages(bytes);
        data_ = Owner(static_cast<T*>(memory), Free{pool, bytes});
    }

    // Moved from, an array is empty.
    HugeArray(HugeArray&& other) noexcept
        : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)) {}
    HugeArray& operator=(HugeArray&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        return *this;
    }

    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    size_t size() const { return size_; }
    T* begin() { return data(); }
    T* end() { return data() + size_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size_; }
    operator std::span<T>() { return {data(), size_}; }
    operator std::span<const T>() const { return {data(), size_}; }

    // The same memory as an array of U, which has T's size: for an array
    // whose elements were rewritten in place as U's (a unit's states, once
    // turned into the entries a file stores).
    template <typename U>
    HugeArray<U> reinterpret() && {
        static_assert(sizeof(U) == sizeof(T) && std::is_trivially_copyable_v<U>);
        HugeArray<U> result;
        const Free free = data_.get_deleter();
        result.data_ = typename HugeArray<U>::Owner(reinterpret_cast<U*>(data_.release()),
                                                    {free.pool, free.bytes});
        result.size_ = std::exchange(size_, 0);
        return result;
    }

    // The array cut in two at element `at`, whose bytes begin a huge page:
    // each part owns its pages and frees them alone. The first keeps its
    // first `first_size` elements (the elements up to `at` that it holds;
    // at most `at`).
    std::pair<HugeArray, HugeArray> split(size_t at, size_t first_size) && {
        if (at * sizeof(T) % kHugePage != 0 || at > size_ || first_size > at)
            throw std::logic_error("HugeArray split off a huge page's start");
        const Free free = data_.get_deleter();
        T* const memory = data_.release();
        const size_t first_bytes = at * sizeof(T);
        std::pair<HugeArray, HugeArray> parts;
        if (first_bytes > 0) parts.first.data_ = Owner(memory, {free.pool, first_bytes});
        if (free.bytes > first_bytes)
            parts.second.data_ = Owner(memory + at, {free.pool, free.bytes - first_bytes});
        parts.first.size_ = first_size;
        parts.second.size_ = std::exchange(size_, 0) - at;
        return parts;
    }

  private:
    template <typename>
    friend class HugeArray;
    struct Free {
        PagePool* pool = nullptr;
        size_t bytes = 0;
        void operator()(T* p) const {
            if (pool)
                pool->give(p, bytes);
            else
                unmap_huge_pages(p, bytes);
        }
    };
    using Owner = std::unique_ptr<T[], Free>;
    Owner data_;
    size_t size_ = 0;
};

}  // namespace morris
