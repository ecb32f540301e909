// A list of a unit's positions that grows in place: the layers of decided
// positions and the win candidates (unit.hpp).
//
// Layers grow by appends to hundreds of MiB. std::vector grows by copying
// into a new buffer, every page of which the kernel must map and clear, and
// on a virtual machine a page fault is dear: re-solving nine's 5-7 on one
// thread took 1.06 M page faults and spent 11% of its time in the kernel,
// two thirds of the faults in those copies (`perf record -e page-faults`).
// realloc grows a block that large by moving its pages (mremap), neither
// copying nor touching them, so only the pages added are new.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <utility>

namespace morris {

// A position by its place in the unit, which has fewer than 2^32.
using UnitPosition = uint32_t;

class PositionList {
  public:
    PositionList() = default;
    PositionList(const PositionList&) = delete;
    PositionList& operator=(const PositionList&) = delete;
    PositionList(PositionList&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)) {}
    PositionList& operator=(PositionList&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
        return *this;
    }
    ~PositionList() { std::free(data_); }

    void push_back(UnitPosition u) {
        if (size_ == capacity_) grow(size_ + 1);
        data_[size_++] = u;
    }
    void append(std::span<const UnitPosition> more) {
        if (more.empty()) return;
        if (size_ + more.size() > capacity_) grow(size_ + more.size());
        std::memcpy(data_ + size_, more.data(), more.size() * sizeof(UnitPosition));
        size_ += more.size();
    }
    void clear() { size_ = 0; }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    UnitPosition* data() { return data_; }
    const UnitPosition* data() const { return data_; }
    UnitPosition* begin() { return data_; }
    UnitPosition* end() { return data_ + size_; }
    const UnitPosition* begin() const { return data_; }
    const UnitPosition* end() const { return data_ + size_; }
    UnitPosition operator[](size_t k) const { return data_[k]; }
    operator std::span<const UnitPosition>() const { return {data_, size_}; }

  private:
    // Doubles, as std::vector does, so that appends cost constant time.
    void grow(size_t least) {
        constexpr size_t kFirstCapacity = 1024;
        size_t capacity = std::max(capacity_ ? 2 * capacity_ : kFirstCapacity, least);
        void* grown = std::realloc(data_, capacity * sizeof(UnitPosition));
        if (!grown) throw std::bad_alloc();
        data_ = static_cast<UnitPosition*>(grown);
        capacity_ = capacity;
    }

    UnitPosition* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;
};

}  // namespace morris
