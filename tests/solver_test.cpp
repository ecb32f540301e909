// Checks solver/solve against a second, deliberately naive solver written
// here from docs/rules.md §4 and §4 alone: an explicit graph of positions (no symmetry,
// no colour swap, no un-turns, no sectors) built forwards from root positions
// with the rules' turn generator (itself checked against a naive one in
// rules_test), then solved by bounded-horizon minimax iteration:
//
//   L_0 = positions that are over and lost for the side to move,
//   W_k = positions with a successor in L_(k-1),
//   L_k = L_0 plus positions all of whose successors are in W_(k-1);
//
// a win's distance is the least k with the position in W_k, a loss's the least
// k with it in L_k, and a position in neither for every k is a draw.
//
// Where the graph is cut off at a depth (a cheap sample of nine's 4-3 and
// 3-4, which are also checked whole where memory allows), the iteration is
// still sound: W_k and L_k of a position depend only on the positions within
// k turns, so a position whose nearest cut-off position is h turns away (at
// least K - d for one first seen at depth d of a graph cut at depth K) is
// classified exactly up to horizon h, and anything classified beyond it is a
// true result with at most that distance. Positions whose outcome is known
// from an earlier naive solve can be leaves of a graph.
//
// Besides, every database outcome of a position whose turns the graph holds
// must follow from its successors' database outcomes by docs/rules.md §5's recursion.
//
// The tests named "Slow" are left out of the sanitizer run (scripts/test.sh).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "db/database.hpp"
#include "db/sector_file.hpp"
#include "db/sector_writer.hpp"
#include "db/value.hpp"
#include "game/notation.hpp"
#include "game/position.hpp"
#include "game/sector.hpp"
#include "game/turns.hpp"
#include "game/variant.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/layers.hpp"
#include "solver/region_writes.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solve.hpp"
#include "solver/unit.hpp"
#include "solver/verify.hpp"
#include "tests/temp_dir.hpp"
#include "tests/verified.hpp"

using namespace morris;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------
// The naive solver.

// A position packed into one number: both boards (at most 24 points each),
// both hands (at most 12 each) and the side to move.
uint64_t key_of(const Position& p) {
    return uint64_t{p.stones[white]} | uint64_t{p.stones[black]} << 24 |
           uint64_t{p.in_hand[white]} << 48 | uint64_t{p.in_hand[black]} << 53 |
           uint64_t{p.side} << 58;
}

// Position key -> dense id: an open-addressing table with linear probing
// (std::unordered_map works too, but is slow and big at tens of millions).
class StateTable {
  public:
    StateTable() { rehash(1 << 16); }

    // The id of `key`, inserting it with id `fresh` if absent; .second says
    // whether it was inserted.
    std::pair<uint32_t, bool> insert(uint64_t key, uint32_t fresh) {
        if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
        Slot& s = slots_[slot(key)];
        if (s.key == key) return {s.id, false};
        s = {key, fresh};
        ++size_;
        return {fresh, true};
    }

    std::optional<uint32_t> find(uint64_t key) const {
        const Slot& s = slots_[slot(key)];
        if (s.key == key) return s.id;
        return std::nullopt;
    }

    // Starts loading the memory a find(key) will look at first.
    void prefetch(uint64_t key) const {
        __builtin_prefetch(&slots_[mix(key) & (slots_.size() - 1)]);
    }

    // Room for `n` keys without growing.
    void reserve(size_t n) {
        size_t capacity = slots_.size();
        while (n * 2 > capacity) capacity *= 2;
        if (capacity != slots_.size()) rehash(capacity);
    }

  private:
    static constexpr uint64_t kEmpty = ~uint64_t{0};  // no position has this key

    static uint64_t mix(uint64_t x) {  // splitmix64's finaliser
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }

    size_t slot(uint64_t key) const {
        size_t mask = slots_.size() - 1;
        size_t i = mix(key) & mask;
        while (slots_[i].key != kEmpty && slots_[i].key != key) i = (i + 1) & mask;
        return i;
    }

    void rehash(size_t capacity) {
        std::vector<Slot> old(capacity);
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.key != kEmpty) slots_[slot(s.key)] = s;
    }

    struct Slot {
        uint64_t key = kEmpty;
        uint32_t id = 0;
    };
    std::vector<Slot> slots_;
    size_t size_ = 0;
};

// Outcomes the caller already knows exactly (from an earlier naive solve);
// such positions are leaves of the graph.
using KnownOutcomes = std::function<std::optional<Outcome>(const Position&)>;

constexpr uint32_t kUnlimited = UINT32_MAX;

class NaiveSolver {
  public:
    explicit NaiveSolver(const Variant& variant) : variant_(variant) {}

    // Adds every position reachable from `roots` in fewer than `max_depth`
    // turns, and the turns between them; positions at depth `max_depth` are
    // seen but not expanded. Positions `known` answers for are not expanded
    // (`known` is called from several threads).
    //
    // Breadth first, ids in order of discovery, a chunk of positions at a
    // time: their turns are generated and looked up in parallel, then the new
    // positions get ids in order, just as a one-thread search would give them.
    void explore(const std::vector<Position>& roots, uint32_t max_depth = kUnlimited,
                 const KnownOutcomes& known = {}) {
        auto add = [&](const Position& p, uint32_t depth) {
            auto [id, inserted] = table_.insert(key_of(p), static_cast<uint32_t>(states_.size()));
            if (inserted) {
                states_.push_back(p);
                depth_.push_back(depth);
            }
            return id;
        };
        table_.reserve(roots.size());
        for (const Position& root : roots) add(root, 0);
        first_.assign(1, 0);

        constexpr uint32_t kNew = UINT32_MAX;
        std::vector<Kind> kinds(kChunk);
        std::vector<Outcome> outcomes(kChunk);
        std::vector<std::vector<std::pair<uint32_t, Position>>> next(kChunk);  // id or kNew
        for (size_t begin = 0; begin < states_.size();) {
            // Chunks never straddle a multiple of kChunk, so that the turns of
            // positions [b * kChunk, (b + 1) * kChunk) fill edges_[b] alone.
            const size_t n = std::min(kChunk - begin % kChunk, states_.size() - begin);
            // The turns of the chunk's positions, and the ids of the positions
            // they lead to if already known.
#pragma omp parallel
            {
                std::vector<Turn> turns;
#pragma omp for schedule(dynamic, 64)
                for (size_t j = 0; j < n; ++j) {
                    const Position& p = states_[begin + j];
                    next[j].clear();
                    kinds[j] = Kind::expanded;
                    std::optional<Outcome> given;
                    switch (status(variant_, p)) {
                        case Status::loss:
                            kinds[j] = Kind::over, outcomes[j] = {Value::loss, 0};
                            break;
                        case Status::draw:
                            kinds[j] = Kind::over, outcomes[j] = {Value::draw, -1};
                            break;
                        case Status::playing:
                            if (known && (given = known(p))) {
                                kinds[j] = Kind::known, outcomes[j] = *given;
                            } else if (depth_[begin + j] >= max_depth) {
                                kinds[j] = Kind::frontier;
                            } else {
                                generate_turns(variant_, p, turns);
                                for (const Turn& t : turns) {
                                    next[j].emplace_back(kNew, apply_turn(variant_, p, t));
                                    table_.prefetch(key_of(next[j].back().second));
                                }
                                for (auto& [id, q] : next[j])
                                    id = table_.find(key_of(q)).value_or(kNew);
                            }
                            break;
                    }
                }
            }
            // New positions get their ids in order, one thread.
            for (size_t j = 0; j < n; ++j) {
                const uint32_t depth = depth_[begin + j];
                if (j + 2 < n)
                    for (const auto& [id, q] : next[j + 2])
                        if (id == kNew) table_.prefetch(key_of(q));
                for (auto& [id, q] : next[j])
                    if (id == kNew) id = add(q, depth + 1);
                kind_.push_back(kinds[j]);
                bool open = kinds[j] == Kind::expanded || kinds[j] == Kind::frontier;
                value_.push_back(open ? kUndecided : static_cast<int8_t>(outcomes[j].value));
                plies_.push_back(open ? -1 : outcomes[j].plies);
                first_.push_back(first_.back() + next[j].size());
            }
            const size_t block = begin / kChunk;
            if (edges_.size() == block) edges_.emplace_back();
            edges_[block].resize(first_.back() - first_[block * kChunk]);
            turns_ = first_.back();
#pragma omp parallel for schedule(dynamic, 256)
            for (size_t j = 0; j < n; ++j) {
                uint32_t* e = edges_[block].data() + (first_[begin + j] - first_[block * kChunk]);
                for (const auto& [id, q] : next[j]) *e++ = id;
            }
            begin += n;
        }
    }

    // Bounded-horizon minimax, k = 1, 2, ... until nothing changes (and every
    // known leaf's distance has been passed). Each step reads only results of
    // earlier steps.
    void solve() {
        compute_horizons();
        int longest_known = 0;
        std::vector<uint32_t> open;
        for (uint32_t i = 0; i < states_.size(); ++i) {
            if (kind_[i] == Kind::expanded) open.push_back(i);
            if (kind_[i] == Kind::known) longest_known = std::max(longest_known, plies_[i]);
        }
        std::vector<int8_t> verdict;
        for (int k = 1;; ++k) {
            verdict.assign(open.size(), kUndecided);
#pragma omp parallel for schedule(dynamic, 1024)
            for (size_t j = 0; j < open.size(); ++j) {
                uint32_t i = open[j];
                bool some_loss = false, all_wins = true;
                for (uint32_t s : successors(i)) {
                    bool settled = value_[s] != kUndecided && value_[s] != kDraw && plies_[s] < k;
                    if (settled && value_[s] == kLoss) {
                        some_loss = true;
                        break;
                    }
                    if (!settled || value_[s] != kWin) all_wins = false;
                }
                // An expanded position has a legal turn, so all_wins is not vacuous.
                if (some_loss)
                    verdict[j] = kWin;
                else if (all_wins)
                    verdict[j] = kLoss;
            }
            bool changed = false;
            std::vector<uint32_t> still_open;
            for (size_t j = 0; j < open.size(); ++j) {
                if (verdict[j] == kUndecided) {
                    still_open.push_back(open[j]);
                } else {
                    value_[open[j]] = verdict[j];
                    plies_[open[j]] = k;
                    changed = true;
                }
            }
            open.swap(still_open);
            passes_ = k;
            if (!changed && k > longest_known) break;
        }
    }

    size_t size() const { return states_.size(); }
    size_t turns() const { return turns_; }
    int passes() const { return passes_; }
    const Position& position(size_t i) const { return states_[i]; }
    std::optional<uint32_t> find(const Position& p) const { return table_.find(key_of(p)); }
    bool expanded(size_t i) const { return kind_[i] == Kind::expanded; }
    std::span<const uint32_t> successors(size_t i) const {
        const size_t block = i / kChunk;
        const uint32_t* base = edges_[block].data() - first_[block * kChunk];
        return {base + first_[i], base + first_[i + 1]};
    }
    void drop_turns() {
        std::vector<std::vector<uint32_t>>().swap(edges_);
        std::vector<uint64_t>().swap(first_);
    }

    // Up to how many plies the iteration classified position i exactly:
    // unbounded unless a cut-off position can be reached from it.
    int horizon(size_t i) const { return horizon_[i]; }
    // Whether the iteration decided position i: a win or loss found, or a
    // draw (undecided with no cut-off in reach).
    bool decided(size_t i) const { return value_[i] != kUndecided || horizon_[i] == INT_MAX; }
    Outcome outcome(size_t i) const {
        if (value_[i] == kUndecided) return {};
        return {static_cast<Value>(value_[i]), plies_[i]};
    }

  private:
    enum class Kind : uint8_t { expanded, over, known, frontier };
    // Positions are explored this many at a time.
    static constexpr size_t kChunk = size_t{1} << 16;
    static constexpr int8_t kLoss = static_cast<int8_t>(Value::loss);
    static constexpr int8_t kDraw = static_cast<int8_t>(Value::draw);
    static constexpr int8_t kWin = static_cast<int8_t>(Value::win);
    static constexpr int8_t kUndecided = -1;

    // horizon_[i]: the fewest turns from position i to a cut-off position.
    // W_k and L_k of a position depend only on the positions within k turns,
    // so they are exact for k up to this (a cut-off position is exactly
    // known not to be over, so L_0 and W_0 are exact even there).
    void compute_horizons() {
        horizon_.assign(states_.size(), INT_MAX);
        std::vector<uint32_t> open;
        for (uint32_t i = 0; i < states_.size(); ++i) {
            if (kind_[i] == Kind::frontier) horizon_[i] = 0;
            if (kind_[i] == Kind::expanded) open.push_back(i);
        }
        if (std::find(horizon_.begin(), horizon_.end(), 0) == horizon_.end()) return;
        std::vector<uint8_t> reached;
        for (int k = 1;; ++k) {
            reached.assign(open.size(), 0);
#pragma omp parallel for schedule(dynamic, 1024)
            for (size_t j = 0; j < open.size(); ++j)
                for (uint32_t s : successors(open[j]))
                    if (horizon_[s] < k) reached[j] = 1;
            std::vector<uint32_t> still_open;
            for (size_t j = 0; j < open.size(); ++j) {
                if (reached[j])
                    horizon_[open[j]] = k;
                else
                    still_open.push_back(open[j]);
            }
            if (still_open.size() == open.size()) break;
            open.swap(still_open);
        }
    }

    const Variant& variant_;
    StateTable table_;
    std::vector<Position> states_;
    std::vector<uint32_t> depth_;
    std::vector<Kind> kind_;
    std::vector<int8_t> value_;
    std::vector<int> plies_;
    std::vector<int> horizon_;
    // The turns of state i: successors(i), entries first_[i] .. first_[i+1]
    // of all turns, kept in blocks of kChunk states (one array of a billion
    // turns would be copied as it grows and take twice the memory).
    std::vector<uint64_t> first_;
    std::vector<std::vector<uint32_t>> edges_;
    uint64_t turns_ = 0;
    int passes_ = 0;
};

// docs/rules.md §5's recursion: a position's outcome from its successors' outcomes.
Outcome from_successors(const std::vector<Outcome>& successors) {
    int shortest_loss = INT_MAX, longest_win = -1;
    bool all_wins = true;
    for (const Outcome& o : successors) {
        if (o.value == Value::loss) shortest_loss = std::min(shortest_loss, o.plies);
        if (o.value == Value::win)
            longest_win = std::max(longest_win, o.plies);
        else
            all_wins = false;
    }
    if (shortest_loss != INT_MAX) return {Value::win, shortest_loss + 1};
    if (all_wins && !successors.empty()) return {Value::loss, longest_win + 1};
    return {};
}

// Compares every position of the naive graph with the database: exactly up to
// each position's horizon, and beyond it as far as the naive result goes.
// Then checks that the database's outcome of every expanded position follows
// from its successors' outcomes by docs/rules.md §5's recursion (which, holding
// everywhere, would make every stored outcome right). Failures name the
// position.
struct Compared {
    size_t positions = 0;
    size_t exact = 0;      // decided by the naive solver within its horizon
    size_t bounded = 0;    // decided beyond it
    size_t recursion = 0;  // checked against their successors' stored values
};

Compared compare_with_database(const Variant& v, const NaiveSolver& naive, const Database& db,
                               const std::string& what) {
    Compared counts;
    counts.positions = naive.size();
    size_t mismatches = 0;
    auto report = [&](size_t i, const ProbeResult& r, const std::string& expected) {
        if (++mismatches <= 20)
            ADD_FAILURE() << what << ": " << to_string(v, naive.position(i))
                          << ": naive solver says " << expected << ", database says "
                          << (r.ok() ? to_string(r.outcome) : "error: " + r.error);
    };
    // The database's outcomes, and its errors where it has no answer.
    std::vector<Outcome> stored(naive.size());
    std::vector<uint8_t> answered(naive.size());
    std::map<size_t, std::string> errors;
#pragma omp parallel for schedule(dynamic, 4096)
    for (size_t i = 0; i < naive.size(); ++i) {
        ProbeResult r = db.probe(naive.position(i));
        stored[i] = r.outcome;
        answered[i] = r.ok();
        if (!r.ok()) {
#pragma omp critical
            errors[i] = r.error;
        }
    }

    for (size_t i = 0; i < naive.size(); ++i) {
        const ProbeResult r{stored[i], answered[i] ? "" : errors[i]};
        Outcome n = naive.outcome(i);
        int horizon = naive.horizon(i);
        if (!r.ok()) {
            report(i, r, naive.decided(i) ? to_string(n) : "(undecided)");
        } else if (naive.decided(i) && (n.value == Value::draw || n.plies <= horizon)) {
            ++counts.exact;
            if (r.outcome != n) report(i, r, to_string(n));
        } else if (naive.decided(i)) {
            ++counts.bounded;
            // Found beyond the horizon: a true result, the true distance at most
            // this and beyond the horizon.
            if (r.outcome.value != n.value || r.outcome.plies > n.plies ||
                r.outcome.plies <= horizon)
                report(i, r,
                       to_string(n) + " or shorter, but longer than " + std::to_string(horizon));
        } else if (r.outcome.value != Value::draw && r.outcome.plies <= horizon) {
            report(i, r, "draw or longer than " + std::to_string(horizon) + " plies");
        }
    }

    std::vector<Outcome> next;
    for (size_t i = 0; i < naive.size(); ++i) {
        if (!naive.expanded(i) || !answered[i]) continue;
        next.clear();
        bool ok = true;
        for (uint32_t s : naive.successors(i)) {
            ok = ok && answered[s];
            next.push_back(stored[s]);
        }
        if (!ok) continue;
        ++counts.recursion;
        Outcome expected = from_successors(next);
        if (stored[i] != expected)
            report(i, {stored[i], ""},
                   "(from the database's values of its successors) " + to_string(expected));
    }
    EXPECT_EQ(mismatches, 0u) << what;
    std::cout << what << ": " << counts.positions << " positions, " << counts.exact
              << " with exact naive results, " << counts.bounded << " with bounds, "
              << counts.recursion << " checked against their successors\n";
    return counts;
}

// ---------------------------------------------------------------------------
// Helpers.

using morris::test_support::inconsistencies;
using morris::test_support::TempDir;

// Options that solve into `dir` without a progress line.
SolveOptions quiet_options(const fs::path& dir) {
    SolveOptions options;
    options.directory = dir;
    options.progress = false;
    return options;
}

std::vector<SectorReport> solve_into(const Variant& v, const fs::path& dir, int threads,
                                     std::vector<SectorKey> targets = {},
                                     Propagation propagation = Propagation::automatic,
                                     MovingWalk moving_walk = MovingWalk::automatic) {
    SolveOptions options = quiet_options(dir);
    options.threads = threads;
    options.targets = std::move(targets);
    options.propagation = propagation;
    options.moving_walk = moving_walk;
    return solve(v, options);
}

std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// File name -> contents of every file in a directory.
std::map<std::string, std::string> directory_bytes(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file())
            files[entry.path().filename().string()] = file_bytes(entry.path());
    return files;
}

// Calls f on every subset of `points` with exactly `k` members.
template <class F>
void for_each_subset(Bitboard points, int k, Bitboard chosen, const F& f) {
    if (k == 0) return f(chosen);
    if (std::popcount(points) < k) return;
    Bitboard lowest = points & -points;
    for_each_subset(points & ~lowest, k - 1, chosen | lowest, f);
    for_each_subset(points & ~lowest, k, chosen, f);
}

// Every position of the board with these stones on it, none in hand, either side to move.
std::vector<Position> all_positions(const Variant& v, int whites, int blacks) {
    std::vector<Position> out;
    Bitboard all = v.board->all();
    for_each_subset(all, whites, 0, [&](Bitboard w) {
        for_each_subset(all & ~w, blacks, 0, [&](Bitboard b) {
            for (Colour side : {white, black}) {
                Position p;
                p.stones[white] = w;
                p.stones[black] = b;
                p.side = side;
                out.push_back(p);
            }
        });
    });
    return out;
}

Position random_position(std::mt19937_64& rng, const Variant& v, int whites, int blacks,
                         Colour side) {
    std::vector<int> points(v.board->points);
    for (int i = 0; i < v.board->points; ++i) points[i] = i;
    std::shuffle(points.begin(), points.end(), rng);
    Position p;
    for (int i = 0; i < whites; ++i) p.stones[white] |= 1u << points[i];
    for (int i = 0; i < blacks; ++i) p.stones[black] |= 1u << points[whites + i];
    p.side = side;
    return p;
}

// Nine's 3-3 whole: every position with three stones each, either side to
// move, and all they lead to (2-3 and 3-2, lost); checked against `db`, and
// kept (without its turns) for its outcomes.
NaiveSolver solve_nine_three_three(const Variant& v, const Database& db) {
    auto t0 = std::chrono::steady_clock::now();
    NaiveSolver three(v);
    three.explore(all_positions(v, 3, 3));
    three.solve();
    std::cout << "nine 3-3: " << three.size() << " positions, " << three.turns() << " turns, "
              << three.passes() << " passes, " << seconds_since(t0) << " s\n";
    compare_with_database(v, three, db, "nine 3-3");
    three.drop_turns();
    return three;
}

// The outcomes of 3-3 positions, as leaves of a larger graph.
KnownOutcomes outcomes_of_three_three(const NaiveSolver& three) {
    return [&three](const Position& p) -> std::optional<Outcome> {
        if (p.in_hand[white] || p.in_hand[black] || p.on_board(white) != 3 ||
            p.on_board(black) != 3)
            return std::nullopt;
        std::optional<uint32_t> id = three.find(p);
        if (!id) return std::nullopt;
        return three.outcome(*id);
    };
}

}  // namespace

// ---------------------------------------------------------------------------
// a) Five Men's Morris, every position reachable from the start.

TEST(SolverSlow, FiveMatchesNaiveSolverOnEveryReachablePosition) {
    const Variant v = find_variant("five");
    TempDir dir("five");
    auto t0 = std::chrono::steady_clock::now();
    solve_into(v, dir.path(), 2);
    double solve_seconds = seconds_since(t0);

    t0 = std::chrono::steady_clock::now();
    NaiveSolver naive(v);
    naive.explore({start_position(v)});
    double explore_seconds = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    naive.solve();
    double naive_seconds = seconds_since(t0);

    Database db(dir.path(), v);
    Compared compared = compare_with_database(v, naive, db, "five");
    EXPECT_EQ(compared.exact, naive.size());

    Outcome start = naive.outcome(0);
    std::cout << "five: " << naive.size() << " reachable positions, " << naive.turns() << " turns, "
              << naive.passes() << " passes; start position: " << to_string(start) << " (solve "
              << solve_seconds << " s, naive explore " << explore_seconds << " s, naive solve "
              << naive_seconds << " s)\n";
    EXPECT_EQ(db.probe(start_position(v)).outcome, start);
}

// Five under double_mill=two and lenient removal: placements that close two
// mills remove two stones, which the first pass settles one position at a
// time (the group routine removes one), and every stone is removable.
TEST(SolverSlow, FiveWithTwoRemovalsAndLenientRemovalMatchesNaiveSolver) {
    Variant v = find_variant("five");
    apply_rule(v, "double_mill=two");
    apply_rule(v, "removal=lenient");
    TempDir dir("five-two");
    solve_into(v, dir.path(), 2);
    NaiveSolver naive(v);
    naive.explore({start_position(v)});
    naive.solve();
    Database db(dir.path(), v);
    Compared compared = compare_with_database(v, naive, db, "five double_mill=two");
    EXPECT_EQ(compared.exact, naive.size());
    EXPECT_EQ(inconsistencies(v, dir.path(), {}), 0u);
}

// Seven's lines of five hold overlapping mills, so four stones can close two
// at once (c2 c3 c4 c5 by c3 or c4): under double_mill=two that leads into
// sectors the 24-point boards reach only from five stones.
TEST(SolverSlow, SevenWithTwoRemovalsIsConsistent) {
    Variant v = find_variant("seven");
    apply_rule(v, "double_mill=two");
    TempDir dir("seven-two");
    solve_into(v, dir.path(), 2);
    EXPECT_EQ(inconsistencies(v, dir.path(), {}), 0u);
}

// ---------------------------------------------------------------------------
// b) Nine Men's Morris, moving phase, sectors 3-3, 4-3 and 3-4.

TEST(SolverSlow, NineMovingSectorsMatchNaiveSolver) {
    const Variant v = find_variant("nine");
    TempDir dir("nine");
    auto t0 = std::chrono::steady_clock::now();
    solve_into(v, dir.path(), 2,
               {SectorKey{3, 3, 0, 0}, SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}});
    std::cout << "nine: solve " << seconds_since(t0) << " s\n";
    Database db(dir.path(), v);

    NaiveSolver three = solve_nine_three_three(v, db);

    // 4-3 and 3-4: the three-stone side flies, so the closure of any position
    // is all of both sectors, too big here. Instead: graphs cut off at a depth
    // around sampled roots, with the 3-3 positions as leaves known from above.
    // Half the roots are positions the database calls won or lost (most are
    // draws), picked with a fixed seed; picking them with the database does
    // not make the naive results depend on it.
    constexpr int kRootsPerKind = 50;
    constexpr uint32_t kDepth = 4;
    const KnownOutcomes from_three = outcomes_of_three_three(three);
    std::mt19937_64 rng(20240611);
    std::vector<Position> roots;
    for (auto [whites, blacks] : {std::pair{4, 3}, std::pair{3, 4}}) {
        for (Colour side : {white, black}) {
            int decided = 0, drawn = 0;
            while (decided + drawn < kRootsPerKind) {
                Position p = random_position(rng, v, whites, blacks, side);
                ProbeResult r = db.probe(p);
                ASSERT_TRUE(r.ok()) << to_string(v, p) << ": " << r.error;
                bool draw = r.outcome.value == Value::draw;
                if (draw ? 2 * drawn >= kRootsPerKind : 2 * decided >= kRootsPerKind) continue;
                ++(draw ? drawn : decided);
                roots.push_back(p);
            }
        }
    }
    t0 = std::chrono::steady_clock::now();
    NaiveSolver around(v);
    around.explore(roots, kDepth, from_three);
    around.solve();
    std::cout << "nine 4-3 and 3-4: " << roots.size() << " roots, depth " << kDepth << ": "
              << around.size() << " positions, " << around.turns() << " turns, " << around.passes()
              << " passes, " << seconds_since(t0) << " s\n";
    Compared c = compare_with_database(v, around, db, "nine 4-3 and 3-4");
    EXPECT_GT(c.exact, 0u);
    EXPECT_GT(c.bounded, 0u);
    EXPECT_GT(c.recursion, 0u);
}

// All of 4-3 and 3-4, no sampling. Each position of the two sectors is a
// position with four white and three black stones, white (4-3) or black
// (3-4) to move; these close under turns, apart from captures, which end the
// game or lead to 3-3. So one naive graph of 24 million positions and 750
// million turns, with 3-3 as known leaves, checks every entry of both files.
// It takes about a minute on two cores and 5.6 GB at its peak, so it is
// skipped (saying so) on a machine with less than 8 GiB of memory.
TEST(SolverSlow, NineSectors43And34MatchNaiveSolverOnEveryPosition) {
    constexpr uint64_t kMemoryNeeded = uint64_t{8} << 30;
    const uint64_t memory = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                            static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
    if (memory < kMemoryNeeded)
        GTEST_SKIP() << "needs " << (kMemoryNeeded >> 30) << " GiB of memory, this machine has "
                     << (memory >> 20) << " MiB";
    const Variant v = find_variant("nine");
    TempDir dir("nine-exhaustive");
    solve_into(v, dir.path(), 2, {SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}});
    Database db(dir.path(), v);
    NaiveSolver three = solve_nine_three_three(v, db);

    auto t0 = std::chrono::steady_clock::now();
    NaiveSolver naive(v);
    {
        // Every position with four white and three black stones, either side to move.
        const std::vector<Position> roots = all_positions(v, 4, 3);
        naive.explore(roots, kUnlimited, outcomes_of_three_three(three));
        EXPECT_GE(naive.size(), roots.size());
    }
    naive.solve();
    std::cout << "nine 4-3 and 3-4: " << naive.size() << " positions, " << naive.turns()
              << " turns, " << naive.passes() << " passes, " << seconds_since(t0) << " s\n";
    Compared c = compare_with_database(v, naive, db, "nine 4-3 and 3-4, every position");
    EXPECT_EQ(c.exact, naive.size());
}

// ---------------------------------------------------------------------------
// c) The same files whatever the number of threads.

TEST(SolverSlow, SixIsConsistentAndBitForBitTheSameWithOneAndTwoThreads) {
    const Variant v = find_variant("six");
    TempDir one("six-1"), two("six-2");
    solve_into(v, one.path(), 1);
    solve_into(v, two.path(), 2);
    // Six's crowded moving sectors (9 to 12 stones on 16 points) are
    // settled by opponent groups, the others in index order: each value
    // must agree with its successors'.
    EXPECT_EQ(inconsistencies(v, one.path(), {}), 0u);
    auto a = directory_bytes(one.path()), b = directory_bytes(two.path());
    EXPECT_GT(a.size(), 10u);
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [name, bytes] : a) {
        ASSERT_TRUE(b.count(name)) << name << " is missing with two threads";
        EXPECT_TRUE(bytes == b[name]) << name << " differs between one and two threads";
    }
}

// ---------------------------------------------------------------------------
// c') The same files whichever way layers are propagated: pull (reading the
// undecided positions' turns again) against push (un-turns), which the naive
// solver checks above; the two in turn (every hand-over of win counters from
// one to the other); and the automatic choice between them layer by layer.

void expect_same_files_however_propagated(const Variant& v, const std::vector<SectorKey>& targets) {
    TempDir push("push"), pull("pull"), alternate("alternate"), automatic("automatic");
    solve_into(v, push.path(), 2, targets, Propagation::push);
    solve_into(v, pull.path(), 2, targets, Propagation::pull);
    solve_into(v, alternate.path(), 2, targets, Propagation::alternate);
    solve_into(v, automatic.path(), 2, targets, Propagation::automatic);
    const auto pushed = directory_bytes(push.path());
    EXPECT_GE(pushed.size(), 3u);
    for (const TempDir* other : {&pull, &alternate, &automatic}) {
        const auto files = directory_bytes(other->path());
        ASSERT_EQ(files.size(), pushed.size());
        for (const auto& [name, bytes] : pushed)
            EXPECT_TRUE(files.count(name) && bytes == files.at(name))
                << v.name << " " << name << " differs in " << other->path();
    }
}

TEST(Solver, FiveIsTheSameHoweverLayersArePropagated) {
    expect_same_files_however_propagated(find_variant("five"), {});
}

// Lasker's units with stones in hand move inside the unit too (place or move).
TEST(SolverSlow, SevenNine43AndLasker3311AreTheSameHoweverLayersArePropagated) {
    expect_same_files_however_propagated(find_variant("seven"), {});
    expect_same_files_however_propagated(find_variant("nine"),
                                         {SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}});
    expect_same_files_however_propagated(find_variant("lasker"), {SectorKey{3, 3, 1, 1}});
}

// The cost model learns each way's scale from the layers it times: a
// measured layer moves the scale a quarter of the way (geometrically) to
// its ratio of time to prediction, layers too short to time say nothing,
// and one odd layer moves it at most a quarter of the way to 8.
TEST(Solver, CostModelScalesFollowTheTimesItsLayersTook) {
    PropagationCost cost;
    const PropagationCost::Estimate even{.push_ns = 1e8, .pull_ns = 0.9e8};
    EXPECT_TRUE(cost.pull_is_cheaper(even));
    cost.record(/*pulled=*/true, 1e7, 0.16);  // 16 times the prediction: clamped to 8
    EXPECT_NEAR(cost.pull_scale(), std::pow(8.0, 0.25), 1e-9);
    EXPECT_FALSE(cost.pull_is_cheaper(even));
    cost.record(/*pulled=*/false, 1e7, 0.01);  // as predicted
    EXPECT_NEAR(cost.push_scale(), 1.0, 1e-9);
    cost.record(/*pulled=*/false, 1e4, 1.0);  // too short to time
    EXPECT_NEAR(cost.push_scale(), 1.0, 1e-9);
    for (int k = 0; k < 100; ++k) cost.record(/*pulled=*/true, 1e7, 0.005);  // twice as fast
    EXPECT_NEAR(cost.pull_scale(), 0.5, 1e-6);
    EXPECT_TRUE(cost.pull_is_cheaper(even));
}

// A scale of 0 makes its way free, whatever the layers measure (learning
// multiplies it): leaning all the way to push or to pull makes the automatic
// choice push every layer, or pull every layer where pushing costs
// anything (the stats count them). The files are the same, and the same as
// the default scales give.
TEST(Solver, FiveAndNine43AreTheSameWhicheverWayTheCostModelLeans) {
    for (const auto& [name, targets] : {std::pair<const char*, std::vector<SectorKey>>{"five", {}},
                                        {"nine", {SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}}}}) {
        const Variant v = find_variant(name);
        std::map<std::string, std::string> expected;
        std::map<std::string, std::pair<int, int>> layers;  // by leaning: pushed, pulled
        for (const auto& [leaning, push_scale, pull_scale] :
             {std::tuple{"none", 1.0, 1.0}, std::tuple{"push", 0.0, 1.0},
              std::tuple{"pull", 1.0, 0.0}}) {
            TempDir dir("leaning");
            SolveOptions options = quiet_options(dir.path());
            options.threads = 2;
            options.targets = targets;
            options.push_scale = push_scale;
            options.pull_scale = pull_scale;
            auto& [pushed, pulled] = layers[leaning];
            options.on_sector = [&](const SectorReport& r) {
                if (r.stats) pushed += r.stats->push.layers, pulled += r.stats->pull.layers;
            };
            solve(v, options);
            const auto files = directory_bytes(dir.path());
            if (expected.empty()) expected = files;
            ASSERT_EQ(files.size(), expected.size()) << name;
            for (const auto& [file, bytes] : expected)
                EXPECT_TRUE(files.count(file) && bytes == files.at(file))
                    << name << " " << file << " differs leaning to " << leaning;
        }
        EXPECT_EQ(layers["push"].second, 0) << name;
        EXPECT_GT(layers["pull"].second, 10) << name;
        EXPECT_LT(layers["pull"].first, layers["push"].first) << name;
    }
}

// The first pass's far reads are its turns that remove a stone into a
// solved sector (the opponent not left lost): counted here with the game's
// turn generator over every indexed position of each of five's units. Its
// far writes are the positions of the sectors it walks by opponent, those
// that place, when moving sectors walk in index order and placements read
// their removals' successors through the index (through views, each entry
// of each view is read once instead).
TEST(Solver, StatsCountEveryFirstPassReadOfASolvedChildAfterARemoval) {
    const Variant v = find_variant("five");
    TempDir dir("stats");
    SolveOptions options = quiet_options(dir.path());
    options.threads = 2;
    options.moving_walk = MovingWalk::index_order;
    options.removal_walk = RemovalWalk::through_index;
    std::vector<SectorKey> unit;
    int units = 0;
    options.on_sector = [&](const SectorReport& r) {
        unit.push_back(r.key);
        if (!r.stats) return;
        uint64_t removals = 0, positions = 0, by_opponent = 0;
        for (const SectorKey& k : unit) {
            const SectorIndex& index =
                sector_index(*v.board, k.mover_on_board, k.opponent_on_board);
            positions += index.size();
            if (k.mover_in_hand > 0) by_opponent += index.size();
            index.for_each_in_blocks(0, index.block_count(), [&](uint64_t, Stones stones) {
                for_each_turn(v, position_of(k, stones, side_to_move(v, k)), [&](const Turn& t) {
                    if (t.removals() > 0 &&
                        !is_lost_sector(sector_after(k, t.is_placement(), t.removals())))
                        ++removals;
                });
            });
        }
        EXPECT_EQ(r.stats->positions, positions) << to_string(r.key);
        EXPECT_EQ(r.stats->first_pass.far_reads, removals) << to_string(r.key);
        EXPECT_EQ(r.stats->first_pass.far_writes, by_opponent) << to_string(r.key);
        unit.clear();
        ++units;
    };
    solve(v, options);
    EXPECT_GT(units, 20);
}

// Push lists updates by region of states and applies each region on one
// thread, a chunk of the layer at a time. Nine's sectors in the tests hold
// under a million positions, one default region and one chunk: with regions
// of 2^8 states and buffers of 64 KiB there are thousands of each, and the
// files must be the same. Nine's layers are large enough for both threads to
// list and apply (the test fails when one thread's lists are dropped).
void expect_same_files_pushed_in_small_regions(const Variant& v,
                                               const std::vector<SectorKey>& targets) {
    TempDir usual("usual"), small("small");
    solve_into(v, usual.path(), 2, targets, Propagation::push);
    SolveOptions options = quiet_options(small.path());
    options.threads = 2;
    options.targets = targets;
    options.propagation = Propagation::push;
    options.push_region_bits = 8;
    options.push_bytes = 64 << 10;
    solve(v, options);
    const auto expected = directory_bytes(usual.path());
    EXPECT_GE(expected.size(), 3u);
    const auto files = directory_bytes(small.path());
    ASSERT_EQ(files.size(), expected.size());
    for (const auto& [name, bytes] : expected)
        EXPECT_TRUE(files.count(name) && bytes == files.at(name))
            << v.name << " " << name << " differs pushed in small regions";
}

TEST(Solver, FiveIsTheSamePushedInSmallRegionsAndChunks) {
    expect_same_files_pushed_in_small_regions(find_variant("five"), {});
}

TEST(SolverSlow, Nine43AndLasker3311AreTheSamePushedInSmallRegionsAndChunks) {
    expect_same_files_pushed_in_small_regions(find_variant("nine"),
                                              {SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}});
    expect_same_files_pushed_in_small_regions(find_variant("lasker"), {SectorKey{3, 3, 1, 1}});
}

TEST(Solver, PushRegionsOutsideTheirRangeAreRefused) {
    TempDir dir("regions");
    SolveOptions options = quiet_options(dir.path());
    options.push_region_bits = 27;
    EXPECT_THROW(solve(find_variant("five"), options), std::invalid_argument);
}

// A unit is refused before it starts when its estimated memory exceeds the
// limit: the limit stands however little a unit needs, and nothing is written.
TEST(Solver, AUnitAboveTheMemoryLimitIsRefusedBeforeItStarts) {
    TempDir dir("limit");
    SolveOptions options = quiet_options(dir.path());
    options.memory_limit = 1024;
    try {
        solve(find_variant("five"), options);
        ADD_FAILURE() << "a 1 KiB memory limit was not refused";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("more than the memory limit of"), std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// The hook where the tool hands freed memory back runs once before each
// unit it solves, ahead of that unit's reports, and never for a unit
// already written.
TEST(Solver, BeforeUnitRunsOnceAheadOfEachUnitSolved) {
    const Variant v = find_variant("five");
    TempDir dir("before-unit");
    SolveOptions options = quiet_options(dir.path());
    std::vector<std::vector<SectorKey>> reported;  // by call of before_unit
    options.before_unit = [&](uint64_t) {
        reported.emplace_back();
        return uint64_t{0};
    };
    options.on_sector = [&](const SectorReport& r) {
        ASSERT_FALSE(reported.empty()) << to_string(r.key) << " came before any call";
        if (!r.skipped) reported.back().push_back(r.key);
    };
    solve(v, options);
    // Sibling placement sectors, walked together by default, are one unit.
    EXPECT_EQ(reported, sibling_units(v, sector_graph(v)));

    reported.clear();
    options.before_unit = [&](uint64_t) {
        ADD_FAILURE() << "called with every unit written";
        return uint64_t{0};
    };
    options.on_sector = [](const SectorReport& r) { EXPECT_TRUE(r.skipped) << to_string(r.key); };
    solve(v, options);
}

// The freed memory a unit may find kept never takes it above the run's
// largest unit (the estimate the memory limit was checked against), which
// itself may keep only what its own buffers will take from the heap;
// smaller units may keep more.
TEST(Solver, BeforeUnitKeepsNoUnitAboveTheLargestUnitsNeed) {
    const Variant v = find_variant("five");
    TempDir dir("may-keep");
    SolveOptions options = quiet_options(dir.path());
    const SectorGraph graph = sector_graph(v);
    std::vector<uint64_t> may_keep;  // by unit, in the order solved
    options.before_unit = [&](uint64_t bytes) {
        may_keep.push_back(bytes);
        return uint64_t{0};  // no heap kept: the page pool may keep it all
    };
    solve(v, options);
    const std::vector<std::vector<SectorKey>> units = sibling_units(v, graph);
    ASSERT_EQ(may_keep.size(), units.size());
    uint64_t largest = 0;
    for (const auto& unit : units)
        largest = std::max(largest, unit_memory(v, graph, unit, options));
    bool some_kept_more = false;
    for (size_t i = 0; i < units.size(); ++i) {
        const uint64_t need = unit_memory(v, graph, units[i], options);
        const uint64_t own = unit_heap_memory(v, units[i], options);
        ASSERT_GE(may_keep[i], own) << to_string(units[i]);
        EXPECT_LE(need + may_keep[i] - own, largest) << to_string(units[i]);
        if (need == largest) {
            EXPECT_EQ(may_keep[i], own) << to_string(units[i]);
        }
        some_kept_more |= may_keep[i] > own;
    }
    EXPECT_TRUE(some_kept_more);
}

// The first pass's group walk hands its states to RegionWrites in the
// walk's order; whenever they are written, a region at a time, each must
// land where writing it at once would have put it, and each counts once.
TEST(Solver, RegionWritesPutEveryStateWhereAWriteAtOnceWould) {
    for (const uint64_t positions :
         {uint64_t{50}, (uint64_t{3} << RegionWrites::kRegionBits) + 1000}) {
        std::vector<UnitPosition> order(positions);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), std::mt19937(7));
        auto state_of = [](UnitPosition u) { return State::undecided(u % 60, u % 500); };
        HugeArray<State> states(positions, State::cannot_lose());
        RegionWrites writes(states, positions, /*threads=*/2);  // holds positions / 128
        // Whatever is held when the last is added waits for finish().
        for (const UnitPosition u : order) writes.add(u, state_of(u));
        EXPECT_EQ(writes.finish(), positions);
        EXPECT_EQ(writes.finish(), 0u);  // nothing written twice
        for (uint64_t u = 0; u < positions; ++u)
            ASSERT_EQ(states[u], state_of(static_cast<UnitPosition>(u))) << "position " << u;
    }
}

// The threads' lists of decided positions join a layer as they are, their
// buffers moved rather than copied, and none is lost or kept twice.
TEST(Solver, MergedLayersKeepEveryThreadsListWithoutCopyingIt) {
    Layers unit, first_thread, second_thread;
    for (UnitPosition u = 0; u < 1000; ++u) append(u % 3 ? first_thread : second_thread, u % 7, u);
    const UnitPosition* first_buffer = first_thread[2].parts.front().data();
    merge(unit, first_thread);
    merge(unit, second_thread);
    EXPECT_TRUE(first_thread.empty());
    EXPECT_TRUE(second_thread.empty());
    ASSERT_EQ(unit.size(), 7u);
    EXPECT_EQ(unit[2].parts.front().data(), first_buffer);
    for (int d = 0; d < 7; ++d) {
        EXPECT_EQ(unit[d].parts.size(), 2u) << "distance " << d;
        std::vector<UnitPosition> all;
        for (const PositionList& part : unit[d].parts)
            all.insert(all.end(), part.begin(), part.end());
        std::sort(all.begin(), all.end());
        std::vector<UnitPosition> expected;
        for (UnitPosition u = d; u < 1000; u += 7) expected.push_back(u);
        EXPECT_EQ(all, expected) << "distance " << d;
        EXPECT_EQ(unit[d].size(), expected.size());
    }
}

// What a unit is expected to take: its states, the states the first pass
// holds to write by region, its files' compressed blocks and its
// children's entries; for a unit whose positions move, also its layers and
// push's buffers, the latter up to twice push_bytes.
TEST(Solver, UnitMemoryCountsLayersAndPushBuffersOfUnitsThatMove) {
    const Variant& nine = find_variant("nine");
    const SectorGraph graph = sector_graph(nine);
    auto positions = [&](const SectorKey& k) {
        return sector_index(*nine.board, k.mover_on_board, k.opponent_on_board).size();
    };
    auto children_bytes = [&](const std::vector<SectorKey>& unit) {
        uint64_t bytes = 0;
        for (const SectorKey& c : unit_children(graph, unit)) bytes += 2 * positions(c);
        return bytes;
    };
    const SectorKey four_three{4, 3, 0, 0}, three_four{3, 4, 0, 0};
    const std::vector<SectorKey> moving{four_three, three_four};
    const uint64_t n = positions(four_three) + positions(three_four);
    // Held states: 8 bytes for one position in 64, held and sorted.
    auto held_bytes = [](uint64_t positions) { return 2 * 8 * (positions / 64 + 1); };
    const uint64_t states_and_layers =
        2 * n + held_bytes(n) + 2 * n + 4 * n + children_bytes(moving);
    SolveOptions options;
    options.push_bytes = 1024;
    EXPECT_EQ(unit_memory(nine, graph, moving, options), states_and_layers + 2048);
    // With room for any chunk, push's share is what the unit's positions
    // can list: at least an update each, and far less than the room.
    options.push_bytes = uint64_t{1} << 40;
    const uint64_t push = unit_memory(nine, graph, moving, options) - states_and_layers;
    EXPECT_GE(push, 4 * n);
    EXPECT_LT(push, 1024 * n);

    const std::vector<SectorKey> placing{{3, 3, 1, 1}};  // nine's placements are place-only
    EXPECT_EQ(unit_memory(nine, graph, placing, options),
              2 * positions(placing[0]) + held_bytes(positions(placing[0])) +
                  2 * positions(placing[0]) + children_bytes(placing));
}

// The first pass walks a moving sector in index order or by opponent groups
// (the automatic choice mixes them in six); Lasker's moving sectors have
// stones in the opponent's hand.
TEST(SolverSlow, MovingSectorsAreTheSameWalkedInIndexOrderOrByOpponent) {
    auto expect_same_files_however_walked = [](const Variant& v,
                                               const std::vector<SectorKey>& targets) {
        TempDir in_order("in-order"), by_opponent("by-opponent"), automatic("automatic");
        solve_into(v, in_order.path(), 2, targets, Propagation::automatic, MovingWalk::index_order);
        solve_into(v, by_opponent.path(), 2, targets, Propagation::automatic,
                   MovingWalk::by_opponent);
        solve_into(v, automatic.path(), 2, targets);
        const auto expected = directory_bytes(in_order.path());
        EXPECT_GE(expected.size(), 3u);
        for (const TempDir* other : {&by_opponent, &automatic}) {
            const auto files = directory_bytes(other->path());
            ASSERT_EQ(files.size(), expected.size());
            for (const auto& [name, bytes] : expected)
                EXPECT_TRUE(files.count(name) && bytes == files.at(name))
                    << v.name << " " << name << " differs in " << other->path();
        }
    };
    expect_same_files_however_walked(find_variant("five"), {});
    expect_same_files_however_walked(find_variant("six"), {});
    expect_same_files_however_walked(find_variant("nine"),
                                     {SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}});
    expect_same_files_however_walked(find_variant("lasker"), {SectorKey{3, 3, 1, 1}});
}

// A placement sector's groups read their removals' successors through the
// index or through views of their blocks (the automatic choice takes views
// where a sector's groups close many mills: on twelve's crowded boards, not
// on these). Five's and six's placement sectors have groups of every kind:
// symmetric and not, leading into removal blocks symmetric and not. The
// first pass's far reads show that each way read differently.
TEST(SolverSlow, PlacementSectorsAreTheSameWithRemovalsReadThroughTheIndexOrViews) {
    for (const char* name : {"five", "six"}) {
        std::map<RemovalWalk, std::map<std::string, std::string>> files;
        std::map<RemovalWalk, uint64_t> far_reads;
        for (RemovalWalk walk : {RemovalWalk::through_index, RemovalWalk::through_views,
                                 RemovalWalk::through_folded_views, RemovalWalk::automatic}) {
            TempDir dir("removal-walk");
            SolveOptions options = quiet_options(dir.path());
            options.threads = 2;
            options.removal_walk = walk;
            options.on_sector = [&](const SectorReport& r) {
                if (r.stats) far_reads[walk] += r.stats->first_pass.far_reads;
            };
            solve(find_variant(name), options);
            files[walk] = directory_bytes(dir.path());
        }
        const auto& expected = files[RemovalWalk::through_index];
        EXPECT_GE(expected.size(), 50u) << name;
        EXPECT_TRUE(files[RemovalWalk::through_views] == expected) << name << " through views";
        EXPECT_TRUE(files[RemovalWalk::through_folded_views] == expected)
            << name << " through folded views";
        EXPECT_TRUE(files[RemovalWalk::automatic] == expected) << name << " automatic";
        EXPECT_NE(far_reads[RemovalWalk::through_views], far_reads[RemovalWalk::through_index])
            << name;
    }
}

// Sibling placement sectors (sibling_units) are solved as one unit, the
// first pass walking both at once and sharing the ranks and slots of their
// children: the files are the same as solved one unit a sector, however the
// removals are read, and so are the first pass's far reads and writes, which
// are counted per position. Five's and six's pairs include siblings of which
// one's removal child is lost and the other's not.
TEST(Solver, SiblingSectorsWalkedTogetherGiveTheSameFilesAndCounts) {
    for (const char* name : {"five", "six"}) {
        for (RemovalWalk walk : {RemovalWalk::through_index, RemovalWalk::through_views,
                                 RemovalWalk::through_folded_views, RemovalWalk::automatic}) {
            std::map<bool, std::map<std::string, std::string>> files;
            std::map<bool, uint64_t> far_reads, far_writes, units;
            for (bool siblings : {false, true}) {
                TempDir dir("siblings");
                SolveOptions options = quiet_options(dir.path());
                options.threads = 2;
                options.removal_walk = walk;
                options.sibling_walk = siblings;
                options.on_sector = [&](const SectorReport& r) {
                    if (!r.stats) return;
                    far_reads[siblings] += r.stats->first_pass.far_reads;
                    far_writes[siblings] += r.stats->first_pass.far_writes;
                    ++units[siblings];
                };
                solve(find_variant(name), options);
                files[siblings] = directory_bytes(dir.path());
            }
            EXPECT_GE(files[false].size(), 50u) << name;
            EXPECT_TRUE(files[true] == files[false]) << name << " walk " << static_cast<int>(walk);
            EXPECT_EQ(far_reads[true], far_reads[false]) << name;
            EXPECT_EQ(far_writes[true], far_writes[false]) << name;
            EXPECT_LT(units[true] + 10, units[false]) << name << ": few siblings were paired";
        }
    }
}

// Every variant's units with siblings paired: each sector once, each unit
// after every sector its sectors' turns lead into, and a unit of two
// sectors that only place is two siblings, which neither leads into the
// other: the same stones on the board, both with stones in hand, a stone
// more in one side's hand. Lasker's place-or-move sectors have none.
TEST(Solver, SiblingUnitsComeAfterTheirChildrenAndPairOnlySiblings) {
    for (std::string_view name : variant_names()) {
        const Variant v = find_variant(name);
        const SectorGraph graph = sector_graph(v);
        std::set<SectorKey> solved;
        int pairs = 0;
        for (const std::vector<SectorKey>& unit : sibling_units(v, graph)) {
            for (const SectorKey& k : unit) {
                EXPECT_FALSE(solved.count(k)) << name << " " << to_string(k) << " twice";
                for (const SectorKey& s : graph.successors.at(k))
                    EXPECT_TRUE(solved.count(s) ||
                                std::find(unit.begin(), unit.end(), s) != unit.end())
                        << name << " " << to_string(k) << " before its child " << to_string(s);
            }
            if (std::find(graph.units.begin(), graph.units.end(), unit) == graph.units.end()) {
                ASSERT_EQ(unit.size(), 2u) << name << " " << to_string(unit);
                const SectorKey &a = unit[0], &b = unit[1];
                EXPECT_TRUE(only_places(v, unit)) << name << " " << to_string(unit);
                EXPECT_EQ(a.mover_on_board, b.mover_on_board) << to_string(unit);
                EXPECT_EQ(a.opponent_on_board, b.opponent_on_board) << to_string(unit);
                EXPECT_GT(std::min(a.mover_in_hand, b.mover_in_hand), 0) << to_string(unit);
                EXPECT_EQ(std::abs(a.mover_in_hand - b.mover_in_hand) +
                              std::abs(a.opponent_in_hand - b.opponent_in_hand),
                          1)
                    << to_string(unit);
                for (const SectorKey& k : unit)
                    for (const SectorKey& s : graph.successors.at(k))
                        EXPECT_FALSE(s == a || s == b) << to_string(unit) << " reach each other";
                ++pairs;
            }
            solved.insert(unit.begin(), unit.end());
        }
        EXPECT_EQ(solved.size(), graph.sectors.size()) << name;
        if (name == "lasker")
            EXPECT_EQ(pairs, 0);
        else
            EXPECT_GT(pairs, static_cast<int>(graph.units.size()) / 5) << name;
    }
}

// Siblings do not read each other: with either of a pair's files gone, a
// resumed solve writes that one alone, the same bytes, and leaves the
// other's file as it was; asked for one sibling, it solves that one alone.
TEST(Solver, ResumeWithSiblingsRecreatesOnlyTheDeletedSibling) {
    const Variant v = find_variant("five");
    TempDir dir("siblings-resume");
    SolveOptions options = quiet_options(dir.path());
    options.threads = 2;
    options.sibling_walk = true;
    solve(v, options);
    const auto before = directory_bytes(dir.path());
    std::vector<SectorKey> pair;
    for (const auto& unit : sibling_units(v, sector_graph(v)))
        if (unit.size() == 2 && only_places(v, unit)) pair = unit;
    ASSERT_EQ(pair.size(), 2u);
    for (int gone : {0, 1}) {
        const fs::path gone_path = dir.path() / sector_file_name(v.name, pair[gone]);
        const fs::path kept = dir.path() / sector_file_name(v.name, pair[1 - gone]);
        const auto kept_time = fs::last_write_time(kept);
        fs::remove(gone_path);
        std::vector<SectorKey> solved;
        options.on_sector = [&](const SectorReport& r) {
            if (!r.skipped) solved.push_back(r.key);
        };
        solve(v, options);
        EXPECT_EQ(solved, std::vector<SectorKey>{pair[gone]});
        EXPECT_TRUE(directory_bytes(dir.path()) == before) << "the files differ after resuming";
        EXPECT_TRUE(fs::last_write_time(kept) == kept_time) << "the kept sibling was rewritten";
    }

    TempDir one("siblings-one");
    SolveOptions just_one = quiet_options(one.path());
    just_one.sibling_walk = true;
    just_one.targets = {pair[0]};
    solve(v, just_one);
    EXPECT_TRUE(fs::exists(one.path() / sector_file_name(v.name, pair[0])));
    EXPECT_FALSE(fs::exists(one.path() / sector_file_name(v.name, pair[1])));
}

// Pull reads a flying mover's turns from an exchange table, less the moves
// that close a mill: those are quiet when nothing can be removed, as in 3-6
// under strict removal when the opponent's six stones stand in two mills;
// diagonal mills are more of them.
TEST(SolverSlow, FlyingUnitsAreTheSameHoweverPropagatedWithDiagonalMillsAndStrictRemoval) {
    expect_same_files_however_propagated(find_variant("nine-diagonal"),
                                         {SectorKey{4, 3, 0, 0}, SectorKey{3, 4, 0, 0}});
    Variant strict = find_variant("nine");
    apply_rule(strict, "removal=strict");
    expect_same_files_however_propagated(strict, {SectorKey{3, 6, 0, 0}});
}

// ---------------------------------------------------------------------------
// d) verify finds nothing wrong in a solved database, and finds a changed value.

TEST(Solver, VerifyPassesFiveAndCatchesOneChangedEntry) {
    const Variant v = find_variant("five");
    TempDir dir("five-verify");
    solve_into(v, dir.path(), 2);
    EXPECT_EQ(inconsistencies(v, dir.path(), {}), 0u);

    // The sector file with the most draws, and one with a long win.
    fs::path drawn, won;
    uint64_t most_draws = 0;
    int longest_win = -1;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        if (entry.path().extension() != ".mdb") continue;
        SectorFileInfo info = SectorFile::open_any(entry.path())->info();
        if (info.draws > most_draws) most_draws = info.draws, drawn = entry.path();
        if (info.longest_win > longest_win) longest_win = info.longest_win, won = entry.path();
    }
    ASSERT_FALSE(drawn.empty());
    ASSERT_FALSE(won.empty());

    // Rewrites one entry of a sector file, verifies, and puts the file back.
    auto verify_with_changed_entry = [&](const fs::path& path, auto pick, Entry replacement) {
        const std::string original = file_bytes(path);
        std::vector<Entry> entries;
        SectorFileInfo info;
        {
            auto file = SectorFile::open_any(path);
            info = file->info();
            entries = file->read_all();
        }
        auto it = std::find_if(entries.begin(), entries.end(), pick);
        if (it == entries.end()) {
            ADD_FAILURE() << path << " has no entry to change";
            return uint64_t{0};
        }
        std::cout << path.filename().string() << ": entry " << (it - entries.begin()) << " "
                  << to_string(decode(*it)) << " -> " << to_string(decode(replacement)) << "\n";
        *it = replacement;
        write_sector_file(path, info.variant, info.rule_hash, info.key, entries);
        uint64_t found = inconsistencies(v, dir.path(), {});
        uint64_t found_in_sector = inconsistencies(v, dir.path(), {info.key});
        EXPECT_GE(found_in_sector, 1u) << "verify of " << to_string(info.key) << " alone";
        std::ofstream(path, std::ios::binary | std::ios::trunc) << original;
        return found;
    };
    // A draw made a loss 0: a position with turns cannot be lost already.
    EXPECT_GE(verify_with_changed_entry(
                  drawn, [](Entry e) { return e == kDrawEntry; }, encode({Value::loss, 0})),
              1u);
    // The longest win made two plies longer: the value is right, the distance not.
    EXPECT_GE(verify_with_changed_entry(
                  won,
                  [&](Entry e) {
                      return e == encode({Value::win, longest_win});
                  },
                  encode({Value::win, longest_win + 2})),
              1u);
    EXPECT_EQ(inconsistencies(v, dir.path(), {}), 0u) << "the files were put back";
}

// The larger games' machinery on what fits in CI: twelve's endgames on the
// board with diagonals and its full board (after the last placement every
// point is taken: no one can move, a draw under full_board=draw),
// nine-diagonal's flying endgames, and Lasker's place-or-move sectors, each
// solved and verified.
TEST(SolverSlow, TwelveNineDiagonalAndLaskerSmallSectorsAreConsistent) {
    struct Case {
        const char* variant;
        std::vector<SectorKey> sectors;
    };
    for (const Case& c :
         {Case{"twelve", {{4, 4, 0, 0}, {12, 12, 0, 0}}}, Case{"nine-diagonal", {{4, 4, 0, 0}}},
          Case{"lasker", {{3, 3, 1, 1}, {4, 3, 0, 1}}}}) {
        const Variant v = find_variant(c.variant);
        TempDir dir(std::string(c.variant) + "-small");
        solve_into(v, dir.path(), 2, c.sectors);
        std::vector<SectorKey> solved;
        for (const SectorKey& key : sector_graph(v).sectors)
            if (fs::exists(dir.path() / sector_file_name(v.name, key))) solved.push_back(key);
        EXPECT_GE(solved.size(), c.sectors.size()) << c.variant;
        EXPECT_EQ(inconsistencies(v, dir.path(), solved), 0u) << c.variant;
        if (v.name == "twelve") {
            const SectorFileInfo full =
                SectorFile::open_any(dir.path() / sector_file_name(v.name, {12, 12, 0, 0}))->info();
            EXPECT_EQ(full.entries, 170854u);
            EXPECT_EQ(full.draws, full.entries) << "a full board is a draw";
        }
    }
}

// ---------------------------------------------------------------------------
// e) A second run solves only what is missing, and solves it the same.

// A unit's files are written while the next unit is solved: a file that
// cannot be written still fails the solve, with the file named, and leaves
// neither it nor its temporary file. Here every sector's temporary name is
// taken by a directory with a file in it once the solve has begun (it
// clears stale temporary files first), so the first unit's write fails.
TEST(Solver, FailedBackgroundWriteFailsTheSolve) {
    const Variant v = find_variant("five");
    TempDir dir("write-fails");
    SolveOptions options = quiet_options(dir.path());
    options.threads = 2;
    const SectorGraph graph = sector_graph(v);
    bool blocked = false;
    options.before_unit = [&](uint64_t) {
        if (std::exchange(blocked, true)) return uint64_t{0};
        for (const SectorKey& k : graph.sectors) {
            fs::path taken = dir.path() / sector_file_name(v.name, k);
            taken += ".tmp";
            fs::create_directories(taken / "x");
        }
        return uint64_t{0};
    };
    int reported = 0;
    options.on_sector = [&](const SectorReport&) { ++reported; };
    try {
        solve(v, options);
        ADD_FAILURE() << "the solve did not fail";
    } catch (const DatabaseError& e) {
        EXPECT_NE(std::string(e.what()).find(".mdb.tmp"), std::string::npos) << e.what();
    }
    EXPECT_GT(reported, 0);
    for (const auto& entry : fs::directory_iterator(dir.path()))
        EXPECT_TRUE(fs::is_directory(entry.path())) << entry.path() << " was written";
}

TEST(Solver, ResumeRecreatesOnlyTheDeletedSectorFileIdentically) {
    const Variant v = find_variant("five");
    TempDir dir("five-resume");
    std::vector<SectorReport> first = solve_into(v, dir.path(), 2);
    ASSERT_FALSE(first.empty());
    for (const SectorReport& r : first) EXPECT_FALSE(r.skipped) << to_string(r.key);

    // A sector with stones in hand from the middle of the solving order.
    std::vector<SectorKey> placing;
    for (const SectorReport& r : first)
        if (r.key.mover_in_hand + r.key.opponent_in_hand > 0) placing.push_back(r.key);
    ASSERT_FALSE(placing.empty());
    const SectorKey gone = placing[placing.size() / 2];
    const fs::path gone_path = dir.path() / sector_file_name(v.name, gone);
    ASSERT_TRUE(fs::exists(gone_path)) << gone_path;

    const auto before = directory_bytes(dir.path());
    std::map<std::string, fs::file_time_type> times;
    for (const auto& entry : fs::directory_iterator(dir.path()))
        times[entry.path().filename().string()] = fs::last_write_time(entry.path());
    fs::remove(gone_path);

    std::vector<SectorReport> second = solve_into(v, dir.path(), 2);
    ASSERT_EQ(second.size(), first.size());
    for (const SectorReport& r : second) EXPECT_EQ(r.skipped, r.key != gone) << to_string(r.key);
    EXPECT_TRUE(fs::exists(gone_path)) << gone_path;
    EXPECT_TRUE(directory_bytes(dir.path()) == before) << "the files differ after resuming";
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        std::string name = entry.path().filename().string();
        if (entry.path() != gone_path) {
            EXPECT_TRUE(fs::last_write_time(entry.path()) == times[name])
                << name << " was rewritten";
        }
    }
}
