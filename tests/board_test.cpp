#include "game/board.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "game/variant.hpp"

using namespace morris;

TEST(Board, SizesMatchSpec) {
    struct Expected {
        const char* name;
        int points, edges, mills;
        size_t symmetries;
    };
    for (auto e : {Expected{"b24", 24, 32, 16, 16}, Expected{"b24d", 24, 40, 20, 16},
                   Expected{"b16", 16, 20, 8, 16}, Expected{"b17", 17, 24, 14, 8}}) {
        const Board* b = find_board(e.name);
        ASSERT_NE(b, nullptr) << e.name;
        EXPECT_EQ(b->points, e.points) << e.name;
        EXPECT_EQ(b->edge_count(), e.edges) << e.name;
        EXPECT_EQ(b->mills.size(), static_cast<size_t>(e.mills)) << e.name;
        EXPECT_EQ(b->symmetries.size(), e.symmetries) << e.name;
    }
}

TEST(Board, PointsAreInCanonicalAlphabeticalOrder) {
    for (const Board* b : all_boards())
        EXPECT_TRUE(std::is_sorted(b->point_names.begin(), b->point_names.end())) << b->name;
    EXPECT_EQ(find_board("b17")->point_names[8], "c3");
}

TEST(Board, SymmetriesAreDistinctPermutationsFormingAGroup) {
    for (const Board* b : all_boards()) {
        std::set<Permutation> group(b->symmetries.begin(), b->symmetries.end());
        EXPECT_EQ(group.size(), b->symmetries.size()) << b->name;
        for (const auto& s : b->symmetries) {
            for (const auto& t : b->symmetries) {
                Permutation composed{};
                for (int i = 0; i < b->points; ++i) composed[i] = t[s[i]];
                EXPECT_TRUE(group.count(composed)) << b->name;
            }
        }
    }
}

TEST(Board, RingSwapExchangesOuterAndInnerRing) {
    const Board* b = find_board("b24");
    bool found = false;
    for (const auto& s : b->symmetries)
        found |= s[*b->point("a1")] == *b->point("c3") && s[*b->point("d1")] == *b->point("d3") &&
                 s[*b->point("b2")] == *b->point("b2");
    EXPECT_TRUE(found);
}

TEST(Board, EveryMillIsAStraightLineOfAdjacentPoints) {
    for (const Board* b : all_boards()) {
        for (Bitboard mill : b->mills) {
            EXPECT_EQ(std::popcount(mill), 3);
            int links = 0;
            for (Bitboard m = mill; m; m &= m - 1)
                links += std::popcount(b->neighbours[std::countr_zero(m)] & mill);
            EXPECT_EQ(links, 4) << b->name;  // a path of three points has two edges
        }
    }
}

TEST(Variant, AllEightVariantsResolve) {
    EXPECT_EQ(variant_names().size(), 8u);
    for (auto name : variant_names()) {
        Variant v = find_variant(name);
        EXPECT_NE(v.board, nullptr);
        EXPECT_GE(v.stones, 5);
    }
    EXPECT_EQ(find_variant("lasker").rules.placement, Placement::place_or_move);
    EXPECT_EQ(find_variant("five").rules.flying, Flying::none);
    EXPECT_EQ(find_variant("twelve").rules.full_board, FullBoard::draw);
}

// Gévay and Danner's Morabaraba is twelve under these rules: the same
// variant, name included, so twelve's databases answer for it.
TEST(Variant, MorabarabaIsAnotherNameForTwelve) {
    const Variant twelve = find_variant("twelve"), morabaraba = find_variant("morabaraba");
    EXPECT_EQ(morabaraba.name, "twelve");
    EXPECT_EQ(morabaraba.board, twelve.board);
    EXPECT_EQ(morabaraba.stones, twelve.stones);
    EXPECT_EQ(morabaraba.rules, twelve.rules);
    EXPECT_EQ(morabaraba.rule_text(), twelve.rule_text());
}

TEST(Variant, RuleOverridesChangeTheRuleText) {
    Variant v = find_variant("nine");
    const std::string before = v.rule_text();
    apply_rule(v, "flying=none");
    apply_rule(v, "removal=strict");
    EXPECT_EQ(v.rules.flying, Flying::none);
    EXPECT_EQ(v.rules.removal, Removal::strict);
    EXPECT_NE(v.rule_text(), before);
    EXPECT_NE(v.rule_text().find("removal=strict"), std::string::npos);
}

TEST(Variant, BadNamesAndRulesAreRejectedWithClearMessages) {
    EXPECT_THROW(find_variant("ten"), std::invalid_argument);
    Variant v = find_variant("nine");
    EXPECT_THROW(apply_rule(v, "flying"), std::invalid_argument);
    EXPECT_THROW(apply_rule(v, "flying=4"), std::invalid_argument);
    EXPECT_THROW(apply_rule(v, "speed=fast"), std::invalid_argument);
    try {
        apply_rule(v, "removal=gentle");
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("standard, strict, lenient"), std::string::npos);
    }
}
