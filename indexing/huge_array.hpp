// A fixed-size array in transparent huge pages. The solver's arrays are read
// and written at random across gigabytes; with 4 KiB pages nearly every such
// access also misses the TLB, with 2 MiB pages few do.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace morris {

// For arrays that are written whole before they are read: filling them first
// would touch every page on one thread, where the writers touch them in
// parallel.
struct Uninitialized {};
inline constexpr Uninitialized kUninitialized;

template <typename T>
class HugeArray {
  public:
    HugeArray() = default;
    explicit HugeArray(size_t size, T fill = T{}) : HugeArray(size, kUninitialized) {
        std::uninitialized_fill_n(data_.get(), size, fill);
    }
    HugeArray(size_t size, Uninitialized) : size_(size) {
        static_assert(std::is_trivially_copyable_v<T>);
        constexpr size_t kHugePage = size_t{2} << 20;
        const size_t bytes = (size * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage;
        if (bytes == 0) return;
        void* memory = std::aligned_alloc(kHugePage, bytes);
        if (!memory) throw std::bad_alloc();
        madvise(memory, bytes, MADV_HUGEPAGE);  // advice only: fine if refused
        data_.reset(static_cast<T*>(memory));
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

  private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T[], Free> data_;
    size_t size_ = 0;
};

}  // namespace morris
