// Bit tricks the indexer lives on: parallel extract/deposit and binomials.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace morris {

// The bits of `value` at the positions set in `mask`, packed to the bottom.
inline uint32_t extract_bits(uint32_t value, uint32_t mask) {
#if defined(__BMI2__)
    return _pext_u32(value, mask);
#else
    uint32_t result = 0;
    for (uint32_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (value & mask & -mask) result |= bit;
    return result;
#endif
}

// Deposit without BMI2, for words of either width (below).
template <typename Word>
Word deposit_bits_portably(Word value, Word mask) {
    Word result = 0;
    for (Word bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (value & bit) result |= mask & -mask;
    return result;
}

// The inverse: the low bits of `value` spread to the positions set in `mask`.
inline uint32_t deposit_bits(uint32_t value, uint32_t mask) {
#if defined(__BMI2__)
    return _pdep_u32(value, mask);
#else
    return deposit_bits_portably(value, mask);
#endif
}

// The same for words of 64 bits.
inline uint64_t deposit_bits64(uint64_t value, uint64_t mask) {
#if defined(__BMI2__)
    return _pdep_u64(value, mask);
#else
    return deposit_bits_portably(value, mask);
#endif
}

// The position of the n-th (from 0) set bit of `word`.
inline int select_bit(uint64_t word, int n) {
#if defined(__BMI2__)
    return std::countr_zero(_pdep_u64(uint64_t{1} << n, word));
#else
    for (; n > 0; --n) word &= word - 1;
    return std::countr_zero(word);
#endif
}

inline constexpr int kMaxBinomial = 32;

// binomial[n][k] = C(n, k) for n, k <= 32.
inline constexpr auto binomial = [] {
    std::array<std::array<uint64_t, kMaxBinomial + 1>, kMaxBinomial + 1> c{};
    for (int n = 0; n <= kMaxBinomial; ++n) {
        c[n][0] = 1;
        for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
    }
    return c;
}();

// Colex rank of a set among the sets of its size: the sum of C(p_i, i+1) over
// its elements p_0 < p_1 < ...; sets of one size in increasing integer order
// have consecutive ranks, so Gosper's next-combination walks them in order.
class ColexRanker {
  public:
    // Sets of points below this rank: three bytes of tables (see byte_sum).
    static constexpr int kPoints = 24;

    constexpr ColexRanker() {
        for (int value = 0; value < 256; ++value) {
            low_[value] = byte_sum(0, 0, value);
            for (int below = 0; below <= 9; ++below) mid_[below][value] = byte_sum(1, below, value);
            for (int below = 0; below <= 17; ++below)
                high_[below][value] = byte_sum(2, below, value);
        }
    }

    uint32_t rank(uint32_t set) const {
        uint32_t low = set & 0xff, mid = set >> 8 & 0xff;
        return low_[low] + mid_[std::popcount(low)][mid] +
               high_[std::popcount(set & 0xffff)][set >> 16 & 0xff];
    }

    // The ranks of set | p for each point p of `points` (none of them in
    // `set`), in increasing order of p, into `ranks`; returns how many.
    // Adding p changes the term of p's byte and shifts the bytes above by
    // one set bit below them: with those terms worked out once, each rank
    // is one lookup and an add, where rank() takes three and two popcounts
    // (a placement walk ranks every empty point of every position).
    int ranks_with_each(uint32_t set, uint32_t points, uint32_t* ranks) const {
        const uint32_t low = set & 0xff, mid = set >> 8 & 0xff, high = set >> 16 & 0xff;
        const int below_mid = std::popcount(low), below_high = std::popcount(set & 0xffff);
        // The rows for one more set bit below exist for every count (mid_'s
        // tenth row, high_'s eighteenth): read, if never used, when the
        // bytes below are full.
        const uint32_t high_shifted = high_[below_high + 1][high];
        // By byte of the point: the other bytes' terms, and its own byte's
        // row at the set's bits there (a point is not in the set, so its bit
        // adds to them).
        const uint32_t base[3] = {mid_[below_mid + 1][mid] + high_shifted, low_[low] + high_shifted,
                                  low_[low] + mid_[below_mid][mid]};
        const uint32_t* row[3] = {low_ + low, mid_[below_mid] + mid, high_[below_high] + high};
        // Through a pointer, not a count: a count written beside the ranks
        // (both 32-bit) would go through memory from one rank to the next.
        uint32_t* out = ranks;
        for (; points; points &= points - 1) {
            const int point = std::countr_zero(points), byte = point >> 3;
            *out++ = base[byte] + row[byte][uint32_t{1} << (point & 7)];
        }
        return static_cast<int>(out - ranks);
    }

  private:
    // The terms of the sum for the set bits of one byte of the set, given
    // how many set bits the bytes below hold. Tables for three bytes only
    // (28 KiB, so they stay in the L1 cache): boards have at most 24 points.
    static constexpr uint32_t byte_sum(int byte, int below, int value) {
        uint32_t sum = 0;
        int count = below;
        for (int bit = 0; bit < 8; ++bit)
            if (value >> bit & 1) sum += static_cast<uint32_t>(binomial[byte * 8 + bit][++count]);
        return sum;
    }
    uint32_t low_[256]{};
    uint32_t mid_[10][256]{};
    uint32_t high_[18][256]{};
};

inline const ColexRanker& colex() {
    static const ColexRanker ranker;
    return ranker;
}

// The next larger integer with the same number of set bits (Gosper's hack,
// its division by the lowest set bit done as a shift: walks of a sector call
// this once per position).
inline uint32_t next_combination(uint32_t set) {
    const uint32_t ripple = set + (set & -set);
    return ripple | ((set ^ ripple) >> 2 >> std::countr_zero(set));
}

// For each k-subset of n points, by colex rank: the subsets one exchange
// away (one of its points taken out, one of the other n - k put in), as a
// bitmap over colex ranks. A flying stone's moves are exchanges, so this
// lists a flying mover's successors without ranking each one; as a bitmap,
// how many of them have some property is a popcount of an AND with the
// bitmap of the subsets that have it, a word per 64 subsets rather than a
// read per exchange.
class ExchangeTable {
  public:
    ExchangeTable(int n, int k) : subsets_(subsets(n, k)), words_((subsets_ + 63) / 64) {
        bits_.resize(subsets_ * words_);
        const uint32_t all = (uint32_t{1} << n) - 1;
        uint32_t set = (uint32_t{1} << k) - 1;  // Gosper's walk is in colex order
        for (uint64_t* row = bits_.data(); row != bits_.data() + bits_.size();
             row += words_, set = next_combination(set))
            for (uint32_t taken = set; taken; taken &= taken - 1)
                for (uint32_t put = all & ~set; put; put &= put - 1) {
                    const uint32_t rank = colex().rank((set & ~(taken & -taken)) | (put & -put));
                    row[rank / 64] |= uint64_t{1} << rank % 64;
                }
    }
    uint32_t subsets() const { return subsets_; }
    // Words of a bitmap over the subsets.
    size_t words() const { return words_; }
    std::span<const uint64_t> of(uint32_t rank) const {
        return {bits_.data() + size_t{rank} * words_, words_};
    }

  private:
    // Checked before anything is allocated: the colex ranker covers
    // ColexRanker::kPoints points, and a table of 2^12 subsets already
    // takes 2 MiB.
    static uint32_t subsets(int n, int k) {
        constexpr uint64_t kMostSubsets = uint64_t{1} << 12;
        if (k < 0 || k > n || n > ColexRanker::kPoints || binomial[n][k] > kMostSubsets)
            throw std::invalid_argument("exchange table: no table for these sizes");
        return static_cast<uint32_t>(binomial[n][k]);
    }

    uint32_t subsets_;
    size_t words_;
    std::vector<uint64_t> bits_;
};

}  // namespace morris
