// The folds of a position's successor entries (solver/successors.hpp) say
// what the entries say read one by one, plainly: one at a time, gathered and
// folded as vectors, padded with entries that change nothing, or folded by
// rank.
#include "solver/successors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace morris {
namespace {

// Entries as the solver reads them: draws, wins and losses at any
// distance, and now and then the padding entry itself.
std::vector<Entry> random_entries(std::mt19937& random, int count) {
    std::uniform_int_distribution<int> kind(0, 9), plies(1, 400);
    std::vector<Entry> entries(count);
    for (Entry& e : entries) {
        const int k = kind(random);
        e = k == 0 ? kDrawEntry : k == 1 ? Successors::kNoLoss : static_cast<Entry>(plies(random));
    }
    return entries;
}

// What the entries say, read plainly (not through EntryFold's rule, nor
// from its starting values): a draw is 0, a successor lost an odd
// distance, one won an even one.
Successors read_plainly(const std::vector<Entry>& entries) {
    Entry least_loss = 0xffff, longest_win = 0, draw = 0;
    for (Entry e : entries)
        if (e == kDrawEntry)
            draw = 1;
        else if (e % 2 == 1)
            least_loss = std::min(least_loss, e);
        else
            longest_win = std::max(longest_win, e);
    return {{least_loss, longest_win, draw}};
}

void expect_same(const Successors& a, const Successors& b) {
    EXPECT_EQ(a.least_loss, b.least_loss);
    EXPECT_EQ(a.longest_win, b.longest_win);
    EXPECT_EQ(a.draw, b.draw);
}

TEST(Successors, AddingOneAtATimeSaysWhatTheEntriesSay) {
    std::mt19937 random(5);
    for (int count = 0; count <= 40; ++count) {
        const std::vector<Entry> entries = random_entries(random, count);
        Successors s;
        for (Entry e : entries) s.add(e);
        expect_same(s, read_plainly(entries));
    }
}

// A fold of folds (a group's gathered entries added to a summary) is the
// fold of their entries, however they are split.
TEST(Successors, AddingAFoldAddsItsEntries) {
    std::mt19937 random(3);
    for (int count = 0; count <= 40; ++count) {
        const std::vector<Entry> entries = random_entries(random, count);
        const auto split =
            static_cast<std::ptrdiff_t>(std::uniform_int_distribution<int>(0, count)(random));
        Successors first, second;
        for (auto e = entries.begin(); e != entries.end(); ++e)
            (e - entries.begin() < split ? first : second).add(*e);
        first.add(second);
        expect_same(first, read_plainly(entries));
    }
}

TEST(GatheredEntries, FoldSaysWhatTheEntriesSayWhateverTheCount) {
    std::mt19937 random(7);
    for (int count = 0; count <= GatheredEntries::kCapacity; ++count) {
        SCOPED_TRACE(count);
        const std::vector<Entry> entries = random_entries(random, count);
        GatheredEntries gathered;
        for (Entry e : entries) gathered.add(e);
        expect_same(gathered.fold(), read_plainly(entries));
    }
}

TEST(GatheredEntries, FoldOfNothingIsNoSuccessor) {
    GatheredEntries gathered;
    const Successors none = gathered.fold();
    EXPECT_EQ(none.best_win(), -1);
    EXPECT_EQ(none.floor(), 0);
    EXPECT_EQ(none.draw, 0);
}

// Each kind alone, in every lane: a fold that lost a lane, or read the
// padding as a draw or a loss, fails here.
TEST(GatheredEntries, EveryLaneCounts) {
    for (int lane = 0; lane < 2 * GatheredEntries::kLanes; ++lane)
        for (Entry e : {kDrawEntry, Entry{1}, Entry{2}, Entry{399}, Entry{400}}) {
            std::vector<Entry> entries(2 * GatheredEntries::kLanes, Successors::kNoLoss);
            entries[lane] = e;
            GatheredEntries gathered;
            for (Entry x : entries) gathered.add(x);
            expect_same(gathered.fold(), read_plainly(entries));
        }
}

// Runs of 1 to 24 entries (a rank of the interleaved removal views: one
// entry a removable stone), each read a vector at a time with whatever
// follows it up to the vector's end, mixed with single entries: what
// follows a run must change nothing.
TEST(GatheredEntries, RunsFoldAsTheirEntriesWhateverFollowsThem) {
    constexpr int kLanes = GatheredEntries::kLanes;
    std::mt19937 random(11);
    std::uniform_int_distribution<int> lengths(1, 3 * kLanes), runs(0, 12);
    for (int trial = 0; trial < 1000; ++trial) {
        GatheredEntries gathered;
        std::vector<Entry> real;
        for (int r = runs(random); r > 0; --r) {
            const std::vector<Entry> single = random_entries(random, 1);
            gathered.add(single[0]);
            real.push_back(single[0]);
            const int length = lengths(random);
            // Followed by other entries, as a view's next rank follows.
            const std::vector<Entry> run = random_entries(random, length + kLanes - 1);
            real.insert(real.end(), run.begin(), run.begin() + length);
            gathered.add_run(run.data(), length);
        }
        expect_same(gathered.fold(), read_plainly(real));
    }
}

TEST(FoldedViews, EachRankFoldsItsEntriesOfEveryView) {
    std::mt19937 random(13);
    constexpr int kRanks = 100, kViews = 7;
    std::vector<std::vector<Entry>> views;
    for (int v = 0; v < kViews; ++v) views.push_back(random_entries(random, kRanks));
    FoldedViews folded;
    folded.reset(kRanks);
    for (const auto& view : views) folded.add(view.data());
    for (int r = 0; r < kRanks; ++r) {
        std::vector<Entry> column;
        for (const auto& view : views) column.push_back(view[r]);
        expect_same(folded.at(r), read_plainly(column));
    }
}

// Reset sizes the folds without clearing them: what a smaller reset left
// behind, or no view at all, must not show through.
TEST(FoldedViews, ResetForgetsEveryEarlierView) {
    std::mt19937 random(17);
    constexpr int kRanks = 64;
    FoldedViews folded;
    folded.reset(2 * kRanks);
    const std::vector<Entry> before = random_entries(random, 2 * kRanks);
    folded.add(before.data());
    folded.reset(kRanks);
    for (int r = 0; r < kRanks; ++r) expect_same(folded.at(r), read_plainly({}));
    const std::vector<Entry> view = random_entries(random, kRanks);
    folded.add(view.data());
    for (int r = 0; r < kRanks; ++r) expect_same(folded.at(r), read_plainly({view[r]}));
}

}  // namespace
}  // namespace morris
