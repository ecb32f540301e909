#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "game/variant.hpp"
#include "indexing/perfect_hash.hpp"

using namespace morris;

namespace {

// Orbits of (mover, opponent) stone pairs under the board's symmetries, by
// Burnside's lemma: the average number of pairs each symmetry fixes. A pair is
// fixed when each cycle of the permutation is all mover, all opponent or empty.
uint64_t burnside_orbits(const Board& board, int mover, int opponent) {
    uint64_t fixed_total = 0;
    for (const auto& perm : board.symmetries) {
        std::vector<int> cycles;
        std::vector<bool> seen(board.points);
        for (int p = 0; p < board.points; ++p) {
            int length = 0;
            for (int q = p; !seen[q]; q = perm[q]) seen[q] = true, ++length;
            if (length) cycles.push_back(length);
        }
        std::map<std::pair<int, int>, uint64_t> ways{{{0, 0}, 1}};
        for (int length : cycles) {
            std::map<std::pair<int, int>, uint64_t> next;
            for (auto [counts, n] : ways) {
                auto [a, b] = counts;
                next[{a, b}] += n;
                if (a + length <= mover) next[{a + length, b}] += n;
                if (b + length <= opponent) next[{a, b + length}] += n;
            }
            ways = std::move(next);
        }
        fixed_total += ways[{mover, opponent}];
    }
    return fixed_total / board.symmetries.size();
}

Stones random_stones(std::mt19937_64& rng, const Board& board, int mover, int opponent) {
    std::vector<int> points(board.points);
    for (int i = 0; i < board.points; ++i) points[i] = i;
    std::shuffle(points.begin(), points.end(), rng);
    Stones s;
    for (int i = 0; i < mover; ++i) s.mover |= 1u << points[i];
    for (int i = 0; i < opponent; ++i) s.opponent |= 1u << points[mover + i];
    return s;
}

}  // namespace

TEST(Hash, OrbitCountsMatchTheSpec) {
    const Board& b24 = *find_board("b24");
    EXPECT_EQ(burnside_orbits(b24, 3, 3), 169'626u);
    EXPECT_EQ(burnside_orbits(b24, 4, 4), 3'225'597u);
    EXPECT_EQ(burnside_orbits(b24, 8, 8), 591'726'690u);
    EXPECT_EQ(burnside_orbits(b24, 9, 9), 409'106'740u);
    uint64_t total = 0;
    for (int w = 3; w <= 9; ++w)
        for (int b = 3; b <= 9; ++b) total += burnside_orbits(b24, w, b);
    EXPECT_EQ(total, 8'904'593'601u);
}

// The sectors of every board with at most `most` stones a side. The tests
// below check those with up to five in every build, all of them in the
// "Slow" tests, which the sanitizer build leaves out: building every index
// of every board takes 6 s in the Release build, 90 s under the sanitizers.
constexpr int kFewStones = 5, kMostStones = 9;
template <typename Check>
void for_each_sector(int most, Check&& check) {
    for (const Board* board : all_boards())
        for (int m = 0; m <= most; ++m)
            for (int o = 0; o <= most && m + o <= board->points; ++o) check(*board, m, o);
}

// orbit_count stands in for the index's size where only sizes are needed.
// The index lays its symmetric blocks out by their own orbit counts (so its
// size is Burnside's count either way) and fills their bitmaps when first
// read: reading each block's first position fills it, which throws if the
// bitmap holds another count. That loop is what checks the bitmaps here.
void expect_size_is_orbit_count(const Board& board, int m, int o) {
    const SectorIndex& sector = sector_index(board, m, o);
    EXPECT_EQ(sector.size(), burnside_orbits(board, m, o)) << board.name << " " << m << "-" << o;
    EXPECT_EQ(orbit_count(board, m, o), burnside_orbits(board, m, o));
    for (uint32_t b = 0; b < sector.block_count(); ++b)
        EXPECT_NO_THROW(sector.stones_at(sector.block_begin(b)))
            << board.name << " " << m << "-" << o << " block " << b;
}

TEST(Hash, EverySmallSectorSizeIsExactlyItsOrbitCount) {
    for_each_sector(kFewStones, expect_size_is_orbit_count);
}

TEST(HashSlow, EverySectorSizeIsExactlyItsOrbitCount) {
    for_each_sector(kMostStones, expect_size_is_orbit_count);
}

// Walking a sector visits consecutive indices whose stones index back to them
// and are pairwise inequivalent, and unindexing gives the same stones.
void expect_round_trip_over_whole_sector(const Board& board, int m, int o) {
    const SectorIndex& sector = sector_index(board, m, o);
    uint64_t expected = 0;
    sector.for_each([&](uint64_t index, Stones stones) {
        ASSERT_EQ(index, expected++);
        ASSERT_EQ(std::popcount(stones.mover), m);
        ASSERT_EQ(std::popcount(stones.opponent), o);
        ASSERT_EQ(stones.mover & stones.opponent, 0u);
        ASSERT_EQ(sector.index(stones), index) << board.name << " " << m << "-" << o;
        ASSERT_EQ(sector.stones_at(index), stones) << board.name << " " << m << "-" << o;
    });
    EXPECT_EQ(expected, sector.size());
}

TEST(Hash, RoundTripsOverEverySectorOfTheSmallBoards) {
    for (const char* name : {"b16", "b17"}) {
        const Board& board = *find_board(name);
        for (int m = 0; m <= 7; ++m)
            for (int o = 0; o <= 7 && m + o <= board.points; ++o)
                expect_round_trip_over_whole_sector(board, m, o);
    }
}

TEST(Hash, RoundTripsOverNineSmallSectors) {
    const Board& board = *find_board("b24");
    for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {3, 4}, {0, 3}, {3, 0}, {1, 1}})
        expect_round_trip_over_whole_sector(board, m, o);
    expect_round_trip_over_whole_sector(*find_board("b24d"), 3, 3);
}

// Walking by opponent (the first pass's group walks) visits every index
// once, class of the opponent's stones after class, each class's positions
// those that a plain loop over the mover sets among the free points finds,
// only the smallest of twins, each with its own index. Within a class the
// order is left free (a walk that holds some positions back, as one that
// loaded symmetric blocks' bitmaps ahead did, still passes).
void expect_walk_by_opponent_is_the_plain_walk(const Board& board, int m, int o) {
    const SectorIndex& sector = sector_index(board, m, o);
    const SymmetryClasses& classes = symmetry_classes(board);
    using Visited = std::vector<std::pair<uint64_t, Bitboard>>;  // index, mover
    std::vector<Visited> walked(sector.opponent_class_count());
    uint32_t c = 0;
    sector.for_each_by_opponent(0, sector.opponent_class_count(), [&](uint64_t i, Stones s) {
        while (c < walked.size() && classes.representatives(o)[c] != s.opponent) ++c;
        ASSERT_LT(c, walked.size()) << board.name << " " << m << "-" << o;
        walked[c].emplace_back(i, s.mover);
    });
    uint64_t visits = 0;
    for (c = 0; c < walked.size(); ++c) {
        const Bitboard opponent = classes.representatives(o)[c];
        Visited plain;
        std::vector<int> free;
        for (int p = 0; p < board.points; ++p)
            if (!(opponent >> p & 1)) free.push_back(p);
        std::vector<int> fixing;  // the symmetries that leave the opponent as it is
        for (int t = 0; t < classes.symmetry_count(); ++t)
            if (classes.transform(opponent, t) == opponent) fixing.push_back(t);
        if (m <= static_cast<int>(free.size())) {
            std::vector<bool> chosen(free.size());
            std::fill(chosen.begin(), chosen.begin() + m, true);
            do {
                Bitboard mover = 0;
                for (size_t k = 0; k < free.size(); ++k)
                    if (chosen[k]) mover |= 1u << free[k];
                bool smallest = true;
                for (int t : fixing) smallest &= classes.transform(mover, t) >= mover;
                if (smallest) plain.emplace_back(sector.index(Stones{mover, opponent}), mover);
            } while (std::prev_permutation(chosen.begin(), chosen.end()));
        }
        std::sort(plain.begin(), plain.end());
        std::sort(walked[c].begin(), walked[c].end());
        ASSERT_TRUE(walked[c] == plain) << board.name << " " << m << "-" << o << " class " << c;
        visits += plain.size();
    }
    EXPECT_EQ(visits, sector.size()) << board.name << " " << m << "-" << o;
}

TEST(Hash, WalkByOpponentVisitsWhatAPlainLoopFindsClassByClass) {
    for (const char* name : {"b16", "b17"})
        for (int m = 0; m <= 4; ++m)
            for (int o = 0; o <= 4; ++o)
                expect_walk_by_opponent_is_the_plain_walk(*find_board(name), m, o);
    for (auto [m, o] : {std::pair{3, 3}, {4, 3}, {2, 4}, {1, 0}})
        expect_walk_by_opponent_is_the_plain_walk(*find_board("b24"), m, o);
}

void expect_twins_share_an_index(std::mt19937_64& rng, const Board& board, int m, int o) {
    const SectorIndex& sector = sector_index(board, m, o);
    const SymmetryClasses& classes = symmetry_classes(board);
    for (int sample = 0; sample < 200; ++sample) {
        Stones s = random_stones(rng, board, m, o);
        uint64_t index = sector.index(s);
        ASSERT_LT(index, sector.size());
        Stones canonical = sector.stones_at(index);
        ASSERT_EQ(sector.index(canonical), index);
        bool equivalent = false;
        for (int t = 0; t < classes.symmetry_count(); ++t) {
            Stones twin{classes.transform(s.mover, t), classes.transform(s.opponent, t)};
            ASSERT_EQ(sector.index(twin), index) << board.name;
            equivalent |= twin == canonical;
        }
        ASSERT_TRUE(equivalent) << board.name << " " << m << "-" << o;
    }
}

TEST(Hash, SymmetricTwinsShareAnIndexAndRandomSamplesRoundTripInSmallSectors) {
    std::mt19937_64 rng(2026);
    for_each_sector(kFewStones, std::bind_front(expect_twins_share_an_index, std::ref(rng)));
}

TEST(HashSlow, SymmetricTwinsShareAnIndexAndRandomSamplesRoundTrip) {
    std::mt19937_64 rng(2026);
    for_each_sector(kMostStones, std::bind_front(expect_twins_share_an_index, std::ref(rng)));
}

// The index of a moved position found as the propagation finds its
// predecessors' (the moved mover's class from its images taken once, the
// opponent moved by that class's symmetry) must agree with index, on every
// board, for every stone and every free point it can move to.
void expect_moved_index_from_images(std::mt19937_64& rng, const Board& board, int m, int o) {
    if (m == 0 || m + o == board.points) return;  // no stone to move, or nowhere to
    const SymmetryClasses& classes = symmetry_classes(board);
    const SectorIndex& sector = sector_index(board, m, o);
    for (int sample = 0; sample < 4; ++sample) {
        const Stones s = random_stones(rng, board, m, o);
        const auto mover = classes.images(s.mover);
        const auto opponent = classes.images(s.opponent);
        const Bitboard free = board.all() & ~s.mover & ~s.opponent;
        for (Bitboard outs = s.mover; outs; outs &= outs - 1)
            for (Bitboard ins = free; ins; ins &= ins - 1) {
                const int out = std::countr_zero(outs), in = std::countr_zero(ins);
                const Stones moved{(s.mover & ~(1u << out)) | 1u << in, s.opponent};
                const auto c = classes.class_of_moved(mover, out, in);
                ASSERT_EQ(sector.index_transformed(c, SymmetryClasses::image(opponent, c.symmetry)),
                          sector.index(moved))
                    << board.name << " " << m << "-" << o;
            }
    }
}

TEST(Hash, IndexOfAMovedStoneFromImagesEqualsIndexOfTheMovedPositionInSmallSectors) {
    std::mt19937_64 rng(7);
    for_each_sector(kFewStones, std::bind_front(expect_moved_index_from_images, std::ref(rng)));
}

TEST(HashSlow, IndexOfAMovedStoneFromImagesEqualsIndexOfTheMovedPosition) {
    std::mt19937_64 rng(7);
    for_each_sector(kMostStones, std::bind_front(expect_moved_index_from_images, std::ref(rng)));
}

// A symmetry class table's sizes and an index's symmetric blocks are built
// when first read, under a lock: threads reading a fresh index at once, each
// in its own order, must get what the (already built) shared one gives.
TEST(Hash, ThreadsReadingAFreshIndexAtOnceAgreeWithTheSharedOne) {
    const Board& board = *find_board("b24");
    const SectorIndex& shared = sector_index(board, 4, 5);
    std::vector<Stones> samples;  // the first and last position of each symmetric block
    for (uint32_t b = 0; b < shared.block_count(); ++b)
        if (shared.stabiliser_of(b) != 1)
            for (uint64_t i : {shared.block_begin(b), shared.block_end(b) - 1})
                samples.push_back(shared.stones_at(i));
    ASSERT_GT(samples.size(), 100u);
    const SymmetryClasses classes(board);
    const SectorIndex fresh(classes, 4, 5);  // builds size 4's classes
    // Each sample's index, and the index of the stones at that index, after
    // asking for a size of classes that nothing has built yet.
    auto read = [&](bool backwards, std::vector<uint64_t>& indices) {
        indices = {classes.asymmetric_count(6), classes.class_of(0b11111101).rank};
        indices.resize(2 + 2 * samples.size());
        for (size_t k = 0; k < samples.size(); ++k) {
            const size_t at = backwards ? samples.size() - 1 - k : k;
            indices[2 + 2 * at] = fresh.index(samples[at]);
            indices[3 + 2 * at] = fresh.index(fresh.stones_at(indices[2 + 2 * at]));
        }
    };
    std::vector<uint64_t> forwards, backwards;
    std::thread other(read, true, std::ref(backwards));
    read(false, forwards);
    other.join();
    const SymmetryClasses& built = symmetry_classes(board);
    std::vector<uint64_t> expected = {built.asymmetric_count(6), built.class_of(0b11111101).rank};
    for (const Stones& s : samples) expected.insert(expected.end(), 2, shared.index(s));
    EXPECT_EQ(forwards, expected);
    EXPECT_EQ(backwards, expected);
}

TEST(Hash, ExchangeTablesListEverySubsetOneExchangeAway) {
    for (auto [n, k] : {std::pair{5, 1}, {8, 4}, {15, 3}, {16, 3}, {21, 3}}) {
        // Colex order is increasing integer order among sets of one size.
        std::vector<uint32_t> sets;
        for (uint32_t set = 0; set < uint32_t{1} << n; ++set)
            if (std::popcount(set) == k) sets.push_back(set);
        ASSERT_EQ(sets.size(), binomial[n][k]);
        const ExchangeTable table(n, k);
        for (uint32_t rank = 0; rank < sets.size(); ++rank) {
            std::vector<uint32_t> expected;
            for (uint32_t other = 0; other < sets.size(); ++other)
                if (std::popcount(sets[rank] & sets[other]) == k - 1) expected.push_back(other);
            std::vector<uint32_t> listed;
            const std::span<const uint64_t> bits = table.of(rank);
            ASSERT_EQ(bits.size(), (sets.size() + 63) / 64);
            for (uint32_t other = 0; other < bits.size() * 64; ++other)
                if (bits[other / 64] >> other % 64 & 1) listed.push_back(other);
            ASSERT_EQ(listed, expected) << n << " " << k << " rank " << rank;
        }
    }
}

// A set's colex rank is its place among the sets of its size in increasing
// integer order: checked for every set of up to 24 points (the solver ranks
// a placement's successor as the mover's packed stones with one more).
TEST(Hash, ColexRanksAreThePlacesOfSetsAmongThoseOfTheirSize) {
    std::array<uint32_t, ColexRanker::kPoints + 1> sets_of_size{};
    uint64_t wrong = 0;
    uint32_t first_wrong = 0;
    for (uint32_t set = 0; set < uint32_t{1} << ColexRanker::kPoints; ++set)
        if (colex().rank(set) != sets_of_size[std::popcount(set)]++ && wrong++ == 0)
            first_wrong = set;
    EXPECT_EQ(wrong, 0u) << "first at set " << first_wrong;
}

// The ranks of a set with each of some other points, worked out together,
// are rank() of each such set: for random sets, and for sets whose low
// bytes are full (where the rows for one more bit below are read unused).
TEST(Hash, RanksWithEachPointAreTheRanksOfTheSetWithIt) {
    constexpr uint32_t kAll = (uint32_t{1} << ColexRanker::kPoints) - 1;
    std::mt19937 random(7);
    std::vector<uint32_t> sets = {0, 0xff, 0xffff, 0xff00, 0xffffff, 0xff00ff, 0x7fffff};
    for (int k = 0; k < 200000; ++k) sets.push_back(random() & kAll & random());
    for (uint32_t set : sets) {
        const uint32_t points = random() & kAll & ~set;
        std::array<uint32_t, ColexRanker::kPoints> ranks;
        const int n = colex().ranks_with_each(set, points, ranks.data());
        ASSERT_EQ(n, std::popcount(points)) << set;
        int k = 0;
        for (uint32_t p = points; p; p &= p - 1, ++k)
            ASSERT_EQ(ranks[k], colex().rank(set | (p & -p))) << "set " << set << " point " << k;
    }
}

// Independent of the colex ranker: the index walk deposits Gosper's subsets,
// so the r-th position of a full block must have slot r.
TEST(Hash, FullBlockSlotsAreWhereTheIndexWalkPutsPositions) {
    for (const Board* board : all_boards()) {
        const SymmetryClasses& classes = symmetry_classes(*board);
        uint64_t full = 0;  // positions in full blocks (a lone stone has none)
        // The solver reads full blocks of a flying (three-stone) opponent.
        for (auto [m, o] : {std::pair{1, 3}, {3, 3}, {5, 3}, {4, 3}}) {
            const SectorIndex& sector = sector_index(*board, m, o);
            sector.for_each([&](uint64_t i, Stones s) {
                const SymmetryClasses::Class c = classes.class_of(s.mover);
                if (!sector.is_full_block(c.rank)) return;
                ++full;
                ASSERT_EQ(c.representative, s.mover);  // the walk's movers are representatives
                ASSERT_EQ(sector.block_begin(c.rank) + sector.slot_in_full_block(c, s.opponent), i)
                    << board->name << " " << m << "-" << o;
            });
        }
        EXPECT_GT(full, 10000u) << board->name;
    }
}

// The first pass reads a successor block through a PackedBlockIndex of a
// group's free points (the board less the opponent's stones O): the block
// of O's class after a quiet placement, of O less a stone r after a
// removal. It must index every set of those points as index_transformed
// does, in full blocks and symmetric ones, on every board.
TEST(Hash, PackedBlockIndexAgreesWithIndexTransformedInEveryKindOfBlock) {
    std::mt19937_64 rng(11);
    for (const Board* board : all_boards()) {
        const SymmetryClasses& classes = symmetry_classes(*board);
        uint64_t full = 0, symmetric = 0;  // sets checked in blocks of each kind
        auto expect_agree = [&](Bitboard free, Bitboard block_set, int stones) {
            const SectorIndex& index = sector_index(*board, std::popcount(block_set), stones);
            const SymmetryClasses::Class block = classes.class_of(block_set);
            const PackedBlockIndex at(index, block, free);
            const uint64_t count = binomial[std::popcount(free)][stones];
            uint32_t packed = (uint32_t{1} << stones) - 1;
            for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed))
                ASSERT_EQ(at(packed),
                          index.index_transformed(
                              block, classes.transform(deposit_bits(packed, free), block.symmetry)))
                    << board->name << " block set " << block_set << " free " << free;
            (index.is_full_block(block.rank) ? full : symmetric) += count;
        };
        for (int o = 1; o <= 5; ++o) {
            // Groups of every symmetric class of o stones (ranked last) up
            // to a dozen, a few asymmetric ones, and a set that is no
            // class's representative.
            const std::vector<Bitboard>& reps = classes.representatives(o);
            std::vector<Bitboard> groups;
            for (uint32_t c = 0, taken = 0; c < reps.size(); ++c)
                if (classes.stabiliser(o, c) != 1 && taken++ < 12) groups.push_back(reps[c]);
            for (int i = 0; i < 3; ++i) groups.push_back(reps[rng() % reps.size()]);
            groups.push_back(random_stones(rng, *board, o, 0).mover);
            for (Bitboard opponent : groups) {
                const Bitboard free = board->all() & ~opponent;
                for (int stones = 1; stones <= 4 && stones <= std::popcount(free); ++stones) {
                    expect_agree(free, opponent, stones);
                    if (o >= 2)
                        for (Bitboard r = opponent; r; r &= r - 1)
                            expect_agree(free, opponent & ~(r & -r), stones);
                }
            }
        }
        EXPECT_GT(full, 1000u) << board->name;
        EXPECT_GT(symmetric, 1000u) << board->name;
    }
}

TEST(Hash, SectorKeysPrintAndParse) {
    SectorKey key{9, 8, 0, 1};
    EXPECT_EQ(to_string(key), "9-8-0-1");
    EXPECT_EQ(parse_sector("9-8-0-1"), key);
    EXPECT_FALSE(parse_sector("9-8-0"));
    EXPECT_FALSE(parse_sector("9-8-0-1-"));
    EXPECT_FALSE(parse_sector("a-b-c-d"));
}
