// The N-move rule (docs/rules.md §8) checked against a deliberately naive
// solver written here from the rule's text alone: a memoized search over
// states (position, counter). Under the rule these form an acyclic graph (a
// turn that resets the counter places or removes a stone, so it lowers the
// stones in hand or on the board, and every other turn raises the counter
// towards N), so a depth-first search with a memo needs no retrograde
// analysis. It knows nothing of sectors, layers, entries or the reading of a
// stored outcome at a counter: it finds the value and plies of every state
// itself, and each is compared with the database's outcome read at that
// counter.
//
// The tests named "Slow" are left out of the sanitizer run (scripts/test.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "db/sector_file.hpp"
#include "game/board.hpp"
#include "game/notation.hpp"
#include "game/sector.hpp"
#include "game/turns.hpp"
#include "game/variant.hpp"
#include "solver/solve.hpp"
#include "solver/verify.hpp"
#include "tests/temp_dir.hpp"
#include "tests/verified.hpp"

namespace morris {
namespace {

using test_support::inconsistencies;
using test_support::TempDir;

Variant make_variant(const std::string& name, const std::vector<std::string>& rules) {
    Variant v = find_variant(name);
    for (const auto& r : rules) apply_rule(v, r);
    return v;
}

// The least image of a position's stones under the board's symmetries.
uint64_t stones_key(const Board& board, const Position& p) {
    uint64_t least = ~uint64_t{0};
    for (const Permutation& symmetry : board.symmetries)
        least = std::min(least, uint64_t{board.transform(p.stones[white], symmetry)} |
                                    uint64_t{board.transform(p.stones[black], symmetry)} << 24);
    return least;
}

// The value of (position, counter) for the side to move, and its plies to
// the next resetting turn or the end, found by trying every turn.
class NaiveNMove {
  public:
    explicit NaiveNMove(const Variant& v) : v_(v), n_(v.rules.n_move) {}

    Outcome value(const Position& p, int counter) {
        const uint64_t key = key_of(p, counter);
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        const Outcome o = search(p, counter);
        memo_.emplace(key, o);
        return o;
    }
    size_t states() const { return memo_.size(); }

  private:
    Outcome search(const Position& p, int counter) {
        if (p.total(p.side) < kFewestStones) return {Value::loss, 0};
        std::vector<Turn> turns;
        generate_turns(v_, p, turns);
        if (turns.empty())
            return status(v_, p) == Status::loss ? Outcome{Value::loss, 0} : Outcome{};
        int fastest_win = -1, slowest_loss = -1;
        bool every_turn_loses = true;
        for (const Turn& t : turns) {
            const Position q = apply_turn(v_, p, t);
            const bool resets = t.is_placement() || t.removals() > 0;
            Outcome after;  // for the opponent, at the counter this turn leaves
            if (resets) {
                after = value(q, 0);
            } else if (counter + 1 == n_) {
                // The turn brings the counter to N: a draw, unless it leaves
                // the opponent without a legal turn (a loss ends the game first).
                std::vector<Turn> replies;
                generate_turns(v_, q, replies);
                const bool lost = q.total(q.side) < kFewestStones ||
                                  (replies.empty() && status(v_, q) == Status::loss);
                after = lost ? Outcome{Value::loss, 0} : Outcome{};
            } else {
                after = value(q, counter + 1);
            }
            // Plies to the next resetting turn: this one, or as many as after it, plus one.
            const int plies = resets ? 1 : after.plies + 1;
            if (after.value == Value::loss && (fastest_win < 0 || plies < fastest_win))
                fastest_win = plies;
            if (after.value == Value::win)
                slowest_loss = std::max(slowest_loss, plies);
            else
                every_turn_loses = false;
        }
        if (fastest_win > 0) return {Value::win, fastest_win};
        if (every_turn_loses) return {Value::loss, slowest_loss};
        return {};
    }

    // Positions that a symmetry of the board maps onto each other have the
    // same value: one key for all, the least of their images.
    uint64_t key_of(const Position& p, int counter) const {
        return stones_key(*v_.board, p) | uint64_t{p.in_hand[white]} << 48 |
               uint64_t{p.in_hand[black]} << 53 | uint64_t{p.side} << 58 | uint64_t(counter) << 59;
    }

    const Variant& v_;
    int n_;
    std::unordered_map<uint64_t, Outcome> memo_;
};

// Solves `sectors` (with what they need) under the variant's rules, then
// compares every position of them, white to move, at every counter below N,
// with the naive search. Returns how many states were compared.
uint64_t expect_naive_agrees(const Variant& v, const std::vector<SectorKey>& sectors) {
    TempDir dir("n-move-" + v.name);
    SolveOptions options;
    options.directory = dir.path();
    options.threads = 2;
    options.targets = sectors;
    options.progress = false;
    solve(v, options);
    EXPECT_EQ(inconsistencies(v, dir.path(), sectors), 0u) << v.rule_text();
    const Database db(dir.path(), v);
    NaiveNMove naive(v);
    uint64_t compared = 0, decisive = 0, drawn_by_counter = 0;
    int failures = 0;
    for (const SectorKey& key : sectors) {
        if (side_to_move(v, key) != white) continue;
        const int points = v.board->points;
        // Every placement of the mover's stones, then of the opponent's.
        std::vector<Bitboard> movers, opponents;
        for (Bitboard set = 0; set < (Bitboard{1} << points); ++set) {
            if (std::popcount(set) == key.mover_on_board) movers.push_back(set);
            if (std::popcount(set) == key.opponent_on_board) opponents.push_back(set);
        }
        for (Bitboard mine : movers)
            for (Bitboard theirs : opponents) {
                if (mine & theirs) continue;
                const Position p = position_of(key, {mine, theirs}, white);
                if (!is_valid(v, p)) continue;
                // One position of each class under the board's symmetries.
                if (stones_key(*v.board, p) != (uint64_t{mine} | uint64_t{theirs} << 24)) continue;
                const ProbeResult stored = db.probe(p);
                if (!stored.ok()) {
                    ADD_FAILURE() << stored.error;
                    return compared;
                }
                for (int c = 0; c < v.rules.n_move; ++c) {
                    const Outcome expected = naive.value(p, c);
                    const Outcome read = at_counter(v.rules, stored.outcome, c);
                    ++compared;
                    decisive += expected.value != Value::draw;
                    drawn_by_counter +=
                        expected.value == Value::draw && stored.outcome.value != Value::draw;
                    if (read != expected && ++failures <= 5)
                        ADD_FAILURE()
                            << v.rule_text() << ": " << to_string(v, p) << " " << c << ": database "
                            << to_string(stored.outcome) << ", at " << c << " " << to_string(read)
                            << ", naive " << to_string(expected);
                }
            }
    }
    std::cout << v.rule_text() << ": " << compared << " states compared (" << decisive
              << " decisive, " << drawn_by_counter << " drawn by the counter), " << naive.states()
              << " searched\n";
    EXPECT_GT(decisive, 0u);
    return compared;
}

SectorKey key(int mb, int ob, int mh = 0, int oh = 0) {
    return {static_cast<uint8_t>(mb), static_cast<uint8_t>(ob), static_cast<uint8_t>(mh),
            static_cast<uint8_t>(oh)};
}

TEST(NMoveSlow, FiveMovingSectorsAgreeWithNaiveSearchAtEveryCounter) {
    for (const char* n : {"n_move=4", "n_move=9", "n_move=20"})
        expect_naive_agrees(make_variant("five", {n}), {key(3, 3), key(4, 3), key(3, 4)});
    expect_naive_agrees(make_variant("five", {"n_move=9"}), {key(4, 4)});
}

TEST(NMoveSlow, SixMovingSectorsAgreeWithNaiveSearch) {
    expect_naive_agrees(make_variant("six", {"n_move=9"}), {key(4, 4), key(5, 3)});
}

TEST(NMoveSlow, SevenAgreesWithNaiveSearch) {
    expect_naive_agrees(make_variant("seven", {"n_move=4"}), {key(4, 4), key(3, 3)});
    expect_naive_agrees(make_variant("seven", {"n_move=20"}), {key(3, 3)});
}

// Flying: a side with three stones moves to any empty point.
TEST(NMoveSlow, NineThreeThreeWithFlyingAgreesWithNaiveSearch) {
    expect_naive_agrees(make_variant("nine", {"n_move=4"}), {key(3, 3)});
}

TEST(NMoveSlow, NineFourThreeAndThreeFourWithFlyingAgreeWithNaiveSearch) {
    expect_naive_agrees(make_variant("nine", {"n_move=2"}), {key(4, 3), key(3, 4)});
}

// Lasker's rule, a turn may place or move while stones remain in hand, with
// flying, on five's board: moves inside a sector with stones in hand are
// quiet, placements reset. (Lasker's own sectors reach nine-sized ones that
// the naive search cannot hold.)
TEST(NMoveSlow, PlaceOrMoveSectorsWithStonesInHandAgreeWithNaiveSearch) {
    expect_naive_agrees(make_variant("five", {"n_move=9", "placement=place-or-move", "flying=3"}),
                        {key(3, 3, 1, 1), key(3, 2, 1, 2), key(2, 3, 2, 1)});
}

TEST(NMoveSlow, StrictRemovalAgreesWithNaiveSearch) {
    expect_naive_agrees(make_variant("five", {"n_move=9", "removal=strict"}), {key(4, 4)});
}

TEST(NMoveSlow, TwoRemovalsAgreeWithNaiveSearch) {
    expect_naive_agrees(make_variant("seven", {"n_move=9", "double_mill=two"}), {key(4, 4)});
}

// ---------------------------------------------------------------------------
// The rule option, the counter in the notation, and the files.

TEST(NMove, TheRuleIsAnOptionOfEveryVariantRecordedInItsRuleText) {
    for (std::string_view name : variant_names()) {
        Variant v = find_variant(std::string(name));
        const std::string plain = v.rule_text();
        EXPECT_EQ(plain.find("n_move"), std::string::npos) << "off adds nothing: old files stay";
        apply_rule(v, "n_move=100");
        EXPECT_EQ(v.rules.n_move, 100);
        EXPECT_NE(v.rule_text().find("n_move=100"), std::string::npos);
        apply_rule(v, "n_move=off");
        EXPECT_EQ(v.rule_text(), plain);
    }
    Variant v = find_variant("nine");
    for (const char* bad :
         {"n_move=0", "n_move=-3", "n_move=x", "n_move=", "n_move=100000", "n_move=12a"})
        EXPECT_THROW(apply_rule(v, bad), std::invalid_argument) << bad;
}

TEST(NMove, ACounterIsAFifthFieldBelowNOnlyUnderTheRule) {
    const Variant plain = find_variant("nine");
    const Variant rule = make_variant("nine", {"n_move=50"});
    const std::string board = "WWW.....................";
    const std::string position = board.substr(0, 21) + "BBB w 0 0";
    EXPECT_EQ(parse_counted_position(rule, position).counter, 0);
    EXPECT_EQ(parse_counted_position(rule, position + " 49").counter, 49);
    for (const char* bad : {" 50", " -1", " x", " 1.5"})
        EXPECT_THROW(parse_counted_position(rule, position + bad), NotationError) << bad;
    EXPECT_THROW(parse_counted_position(plain, position + " 3"), NotationError);
}

TEST(NMove, ATurnListCarriesTheCounterItsTurnsLeave) {
    const Variant v = make_variant("five", {"n_move=3"});
    // Placements reset: all ten stones placed, no mill.
    const std::string placed = "a1 a5 c1 c5 d2 b2 d4 b4 e3 a3";
    EXPECT_EQ(parse_counted_position(v, placed).counter, 0);
    EXPECT_EQ(parse_counted_position(v, placed + " e3-e5").counter, 1);
    EXPECT_EQ(parse_counted_position(v, placed + " e3-e5 c5-c4").counter, 2);
    // A third quiet move brings the counter to N: the game is drawn.
    EXPECT_THROW(parse_counted_position(v, placed + " e3-e5 c5-c4 e5-e3"), NotationError);
}

TEST(NMove, FilesUnderTheRuleHoldOutcomesExplicitlyAndRefuseOtherN) {
    const Variant v = make_variant("five", {"n_move=4"});
    TempDir dir("n-move-files");
    SolveOptions options;
    options.directory = dir.path();
    options.progress = false;
    options.targets = {key(3, 3)};
    solve(v, options);
    const auto path = dir.path() / sector_file_name(v.name, key(3, 3));
    EXPECT_EQ(SectorFile::open_any(path)->info().code, EntryCode::explicit_value);
    const Variant other = make_variant("five", {"n_move=5"});
    EXPECT_THROW(SectorFile::open(path, other.name, rule_hash(other), key(3, 3)), DatabaseError);
    const Variant without = find_variant("five");
    EXPECT_THROW(SectorFile::open(path, without.name, rule_hash(without), key(3, 3)),
                 DatabaseError);
}

TEST(NMove, FilesAreTheSameForOneAndTwoThreads) {
    const Variant v = make_variant("five", {"n_move=9"});
    TempDir one("n-move-one"), two("n-move-two");
    SolveOptions options;
    options.progress = false;
    options.directory = one.path();
    options.threads = 1;
    solve(v, options);
    options.directory = two.path();
    options.threads = 2;
    solve(v, options);
    int compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(one.path())) {
        const auto other = two.path() / entry.path().filename();
        ASSERT_TRUE(std::filesystem::exists(other)) << other;
        std::ifstream a(entry.path(), std::ios::binary), b(other, std::ios::binary);
        const std::string bytes_a{std::istreambuf_iterator<char>(a), {}};
        const std::string bytes_b{std::istreambuf_iterator<char>(b), {}};
        EXPECT_EQ(bytes_a, bytes_b) << entry.path().filename();
        ++compared;
    }
    EXPECT_GT(compared, 50);
}

TEST(NMove, ExplicitEntriesRoundTripEveryOutcome) {
    for (int plies = 0; plies <= 2 * kMostNMovePlies; ++plies)
        for (Value value : {Value::win, Value::loss}) {
            const Outcome o{value, plies};
            const Entry e = encode(o, EntryCode::explicit_value);
            ASSERT_EQ(decode(e, EntryCode::explicit_value), o);
            ASSERT_EQ(e % 2 == 1, value == Value::loss) << "odd entries are losses";
        }
    EXPECT_EQ(decode(kDrawEntry, EntryCode::explicit_value), Outcome{});
}

}  // namespace
}  // namespace morris
