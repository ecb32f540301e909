// The page pool hands a freed huge array's pages to the next array: proved by
// the contents the next array finds, since untouched anonymous memory reads
// as zeros.
#include "indexing/huge_array.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace morris {
namespace {

constexpr size_t kWordsPerPage = kHugePage / sizeof(uint32_t);

bool all_equal(const HugeArray<uint32_t>& a, size_t first, size_t last, uint32_t value) {
    return std::all_of(a.begin() + first, a.begin() + last, [&](uint32_t w) { return w == value; });
}

TEST(PagePool, ArraysWithoutPoolStartAsFilled) {
    const HugeArray<uint32_t> a(3 * kWordsPerPage + 5, 7u);
    EXPECT_EQ(a.size(), 3 * kWordsPerPage + 5);
    EXPECT_TRUE(all_equal(a, 0, a.size(), 7));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % kHugePage, 0u);
}

TEST(PagePool, AFreedArraysPagesGoToTheNextArray) {
    PagePool pool;
    {
        HugeArray<uint32_t> a(2 * kWordsPerPage, kUninitialized, &pool);
        std::fill(a.begin(), a.end(), 0xabcdu);
    }
    EXPECT_EQ(pool.kept_bytes(), 2 * kHugePage);
    const HugeArray<uint32_t> b(2 * kWordsPerPage, kUninitialized, &pool);
    EXPECT_EQ(pool.kept_bytes(), 0u);
    EXPECT_TRUE(all_equal(b, 0, b.size(), 0xabcd));
}

TEST(PagePool, ALargerArrayTakesEveryKeptRangeThenUntouchedPages) {
    PagePool pool;
    {
        HugeArray<uint32_t> one(kWordsPerPage, kUninitialized, &pool);
        HugeArray<uint32_t> two(2 * kWordsPerPage, kUninitialized, &pool);
        std::fill(one.begin(), one.end(), 1u);
        std::fill(two.begin(), two.end(), 2u);
    }  // `one`, destroyed last, goes back last: it is taken first
    HugeArray<uint32_t> all(4 * kWordsPerPage, kUninitialized, &pool);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(all.data()) % kHugePage, 0u);
    EXPECT_TRUE(all_equal(all, 0, kWordsPerPage, 1));
    EXPECT_TRUE(all_equal(all, kWordsPerPage, 3 * kWordsPerPage, 2));
    EXPECT_TRUE(all_equal(all, 3 * kWordsPerPage, 4 * kWordsPerPage, 0));
    std::fill(all.begin(), all.end(), 3u);  // every page is writable
    EXPECT_TRUE(all_equal(all, 0, all.size(), 3));
}

TEST(PagePool, ASmallerArrayLeavesTheRestKept) {
    PagePool pool;
    {
        HugeArray<uint32_t> a(3 * kWordsPerPage, kUninitialized, &pool);
        std::fill(a.begin(), a.end(), 5u);
    }
    const HugeArray<uint32_t> b(kWordsPerPage + 1, kUninitialized, &pool);  // two pages
    EXPECT_EQ(pool.kept_bytes(), kHugePage);
    EXPECT_TRUE(all_equal(b, 0, b.size(), 5));
    const HugeArray<uint32_t> c(kWordsPerPage, kUninitialized, &pool);
    EXPECT_EQ(pool.kept_bytes(), 0u);
    EXPECT_TRUE(all_equal(c, 0, c.size(), 5));
}

// A unit of sibling sectors keeps each one's solved entries apart: the
// parts of a split array hold what the whole held, each frees its own pages
// alone (the first's last page, past its elements, with it), and a split off
// a huge page's start is refused.
TEST(PagePool, ASplitArraysPartsKeepTheirElementsAndFreeTheirOwnPages) {
    PagePool pool;
    HugeArray<uint32_t> whole(3 * kWordsPerPage + 5, kUninitialized, &pool);
    for (size_t i = 0; i < whole.size(); ++i) whole[i] = static_cast<uint32_t>(i);
    auto [first, second] = std::move(whole).split(2 * kWordsPerPage, kWordsPerPage + 3);
    EXPECT_EQ(whole.size(), 0u);
    ASSERT_EQ(first.size(), kWordsPerPage + 3);
    ASSERT_EQ(second.size(), kWordsPerPage + 5);
    for (size_t i = 0; i < first.size(); ++i) ASSERT_EQ(first[i], i);
    for (size_t i = 0; i < second.size(); ++i) ASSERT_EQ(second[i], 2 * kWordsPerPage + i);
    first = HugeArray<uint32_t>();
    EXPECT_EQ(pool.kept_bytes(), 2 * kHugePage);
    second = HugeArray<uint32_t>();
    EXPECT_EQ(pool.kept_bytes(), 4 * kHugePage);

    HugeArray<uint32_t> a(2 * kWordsPerPage, kUninitialized, &pool);
    EXPECT_THROW(std::move(a).split(kWordsPerPage + 1, 0), std::logic_error);
}

TEST(PagePool, ReleasedPagesAreGone) {
    PagePool pool;
    {
        HugeArray<uint32_t> a(2 * kWordsPerPage, kUninitialized, &pool);
        std::fill(a.begin(), a.end(), 9u);
    }
    pool.release();
    EXPECT_EQ(pool.kept_bytes(), 0u);
    const HugeArray<uint32_t> b(2 * kWordsPerPage, kUninitialized, &pool);
    EXPECT_TRUE(all_equal(b, 0, b.size(), 0));
}

// A solve keeps what its memory budget allows: the pages given last (the
// first taken) stay with what they held, whole pages of the rest are
// unmapped and come back untouched.
TEST(PagePool, ReleaseKeepsTheLastGivenPagesUpToItsBudget) {
    PagePool pool;
    {
        HugeArray<uint32_t> one(2 * kWordsPerPage, kUninitialized, &pool);
        HugeArray<uint32_t> two(2 * kWordsPerPage, kUninitialized, &pool);
        std::fill(one.begin(), one.end(), 1u);
        std::fill(two.begin(), two.end(), 2u);
    }                                             // `two` goes back first, `one` last
    pool.release(3 * kHugePage + kHugePage / 2);  // three pages: no half page is kept
    EXPECT_EQ(pool.kept_bytes(), 3 * kHugePage);
    const HugeArray<uint32_t> all(4 * kWordsPerPage, kUninitialized, &pool);
    EXPECT_EQ(pool.kept_bytes(), 0u);
    EXPECT_TRUE(all_equal(all, 0, 2 * kWordsPerPage, 1));
    EXPECT_TRUE(all_equal(all, 2 * kWordsPerPage, 3 * kWordsPerPage, 2));
    EXPECT_TRUE(all_equal(all, 3 * kWordsPerPage, 4 * kWordsPerPage, 0));
}

TEST(PagePool, ReleaseWithABudgetAboveWhatIsKeptUnmapsNothing) {
    PagePool pool;
    { HugeArray<uint32_t> a(2 * kWordsPerPage, kUninitialized, &pool); }
    pool.release(10 * kHugePage);
    EXPECT_EQ(pool.kept_bytes(), 2 * kHugePage);
    pool.release(0);
    EXPECT_EQ(pool.kept_bytes(), 0u);
}

TEST(PagePool, EmptyArraysTakeNothing) {
    PagePool pool;
    { const HugeArray<uint32_t> a(0, kUninitialized, &pool); }
    EXPECT_EQ(pool.kept_bytes(), 0u);
}

}  // namespace
}  // namespace morris
