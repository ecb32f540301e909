// PositionList against std::vector: the same operations leave the same
// elements, through growth far past the size glibc maps blocks separately
// (where realloc moves pages rather than copying them).
#include "solver/position_list.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace morris {
namespace {

void expect_same(const PositionList& list, const std::vector<UnitPosition>& expected) {
    ASSERT_EQ(list.size(), expected.size());
    EXPECT_EQ(list.empty(), expected.empty());
    EXPECT_TRUE(std::equal(list.begin(), list.end(), expected.begin()));
}

TEST(PositionList, GrowsLikeAVectorThroughAppendsAndClears) {
    PositionList list;
    std::vector<UnitPosition> expected;
    std::mt19937 random(1);
    // About 24 M positions in all, 96 MB at the largest: past glibc's
    // threshold for mapping blocks apart (at most 32 MiB).
    for (int round = 0; round < 40; ++round) {
        const auto count = random() % (1 << 20);
        for (uint32_t k = 0; k < count; ++k) {
            const auto u = static_cast<UnitPosition>(random());
            list.push_back(u);
            expected.push_back(u);
        }
        std::vector<UnitPosition> more(random() % (1 << 20));
        for (auto& u : more) u = static_cast<UnitPosition>(random());
        list.append(more);
        expected.insert(expected.end(), more.begin(), more.end());
        expect_same(list, expected);
        if (round % 10 == 9) {
            list.clear();
            expected.clear();
            expect_same(list, expected);
        }
    }
}

TEST(PositionList, MovesItsElementsAndLeavesTheSourceEmpty) {
    PositionList a;
    for (UnitPosition u = 0; u < 5000; ++u) a.push_back(u * 3);
    PositionList b = std::move(a);
    EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
    ASSERT_EQ(b.size(), 5000u);
    EXPECT_EQ(b[4999], 4999u * 3);
    PositionList c;
    c.push_back(7);
    c = std::move(b);
    ASSERT_EQ(c.size(), 5000u);
    EXPECT_EQ(c[1], 3u);
    const std::span<const UnitPosition> all = c;
    EXPECT_EQ(all.size(), 5000u);
    EXPECT_EQ(all.data(), c.data());
    c.append({});
    EXPECT_EQ(c.size(), 5000u);
}

}  // namespace
}  // namespace morris
