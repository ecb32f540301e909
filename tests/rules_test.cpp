// Checks solver/rules against a second, deliberately naive implementation of
// docs/rules.md §4 written here from the board data alone (point names, neighbours and
// mill lists): boards are strings of 'W', 'B' and '.', turns are docs/rules.md §6
// strings, and everything is found by looping over every point and mill.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "game/board.hpp"
#include "game/notation.hpp"
#include "game/perft.hpp"
#include "game/position.hpp"
#include "game/sector.hpp"
#include "game/turns.hpp"
#include "game/variant.hpp"
#include "solver/class_unmoves.hpp"

using namespace morris;

namespace {

// ---------------------------------------------------------------------------
// The naive implementation.

struct NaivePosition {
    std::string cells;  // one of 'W', 'B', '.' per point, canonical order
    char side = 'w';    // 'w' or 'b'
    int hand[2] = {0, 0};

    // docs/rules.md §6 notation, built by hand.
    std::string text() const {
        return cells + " " + side + " " + std::to_string(hand[0]) + " " + std::to_string(hand[1]);
    }
};

NaivePosition naive_from(const Variant& v, const Position& p) {
    NaivePosition n;
    for (int i = 0; i < v.board->points; ++i)
        n.cells += (p.stones[white] >> i & 1) ? 'W' : (p.stones[black] >> i & 1) ? 'B' : '.';
    n.side = p.side == white ? 'w' : 'b';
    n.hand[0] = p.in_hand[white];
    n.hand[1] = p.in_hand[black];
    return n;
}

Position position_from(const NaivePosition& n) {
    Position p;
    for (size_t i = 0; i < n.cells.size(); ++i) {
        if (n.cells[i] == 'W') p.stones[white] |= 1u << i;
        if (n.cells[i] == 'B') p.stones[black] |= 1u << i;
    }
    p.side = n.side == 'w' ? white : black;
    p.in_hand[white] = static_cast<uint8_t>(n.hand[0]);
    p.in_hand[black] = static_cast<uint8_t>(n.hand[1]);
    return p;
}

// Things seen by the naive generator, so the tests can show what they covered.
struct Coverage {
    long positions = 0;
    long turns = 0;
    long placements = 0;
    long steps = 0;            // moves to an adjacent point
    long flights = 0;          // moves to a non-adjacent point
    long moves_with_hand = 0;  // place-or-move: a move while stones are in hand
    long single_removals = 0;
    long double_removals = 0;
    long double_one_order_only = 0;  // a pair removable in only one order
    long double_cut_to_one = 0;      // two mills closed, but only one stone removable
    long mill_nothing_removed = 0;   // closed a mill, no opponent stone removable
    long removal_from_mill = 0;      // a removed stone stood in a mill
    long loss_few_stones = 0;
    long loss_blocked = 0;
    long draw_full_board = 0;
};

class NaiveRules {
  public:
    explicit NaiveRules(const Variant& v) : v_(v), n_(v.board->points) {
        for (Bitboard m : v.board->mills) {
            std::vector<int> line;
            for (int i = 0; i < n_; ++i)
                if (m >> i & 1) line.push_back(i);
            mills_.push_back(line);
        }
        adjacent_.assign(n_, std::vector<bool>(n_, false));
        for (int i = 0; i < n_; ++i)
            for (int j = 0; j < n_; ++j) adjacent_[i][j] = v.board->neighbours[i] >> j & 1;
    }

    Coverage* coverage = nullptr;

    NaivePosition start() const {
        NaivePosition p;
        p.cells = std::string(n_, '.');
        p.side = 'w';
        p.hand[0] = p.hand[1] = v_.stones;
        return p;
    }

    static char mover(const NaivePosition& p) { return p.side == 'w' ? 'W' : 'B'; }
    static char waiter(const NaivePosition& p) { return p.side == 'w' ? 'B' : 'W'; }
    static int hand_index(char colour) { return colour == 'W' ? 0 : 1; }
    static int count(const std::string& cells, char c) {
        return static_cast<int>(std::count(cells.begin(), cells.end(), c));
    }
    static int total(const NaivePosition& p, char colour) {
        return count(p.cells, colour) + p.hand[hand_index(colour)];
    }

    const std::string& name(int point) const { return v_.board->point_names[point]; }
    int index(const std::string& point_name) const {
        for (int i = 0; i < n_; ++i)
            if (v_.board->point_names[i] == point_name) return i;
        throw std::runtime_error("naive: unknown point " + point_name);
    }

    static bool line_has(const std::vector<int>& line, int point) {
        return std::find(line.begin(), line.end(), point) != line.end();
    }
    static bool line_full_of(const std::string& cells, const std::vector<int>& line, char c) {
        for (int q : line)
            if (cells[q] != c) return false;
        return true;
    }

    // Does the stone on `point` stand in a complete mill of its own colour?
    bool in_mill(const std::string& cells, int point) const {
        if (cells[point] == '.') return false;
        for (const auto& line : mills_)
            if (line_has(line, point) && line_full_of(cells, line, cells[point])) return true;
        return false;
    }

    int mills_closed_at(const std::string& cells, int point) const {
        int closed = 0;
        for (const auto& line : mills_)
            if (line_has(line, point) && line_full_of(cells, line, cells[point])) ++closed;
        return closed;
    }

    // docs/rules.md §3's removal option: which of `victim`'s stones may be taken.
    std::vector<int> removable(const std::string& cells, char victim) const {
        std::vector<int> all, unprotected;
        for (int i = 0; i < n_; ++i) {
            if (cells[i] != victim) continue;
            all.push_back(i);
            if (!in_mill(cells, i)) unprotected.push_back(i);
        }
        switch (v_.rules.removal) {
            case Removal::standard: return unprotected.empty() ? all : unprotected;
            case Removal::strict: return unprotected;
            case Removal::lenient: return all;
        }
        return {};
    }

    std::set<std::string> turns(const NaivePosition& p) const {
        std::set<std::string> out;
        const char me = mover(p), them = waiter(p);
        const int my_hand = p.hand[hand_index(me)];
        const int on_board = count(p.cells, me);
        if (on_board + my_hand < 3) return out;

        struct Step {
            int from, to;
        };
        std::vector<Step> steps;
        if (my_hand > 0)
            for (int to = 0; to < n_; ++to)
                if (p.cells[to] == '.') steps.push_back({-1, to});
        const bool may_move =
            my_hand == 0 || (v_.rules.placement == Placement::place_or_move && on_board > 0);
        if (may_move) {
            const bool flies = v_.rules.flying == Flying::at_three && on_board + my_hand == 3;
            for (int from = 0; from < n_; ++from) {
                if (p.cells[from] != me) continue;
                for (int to = 0; to < n_; ++to)
                    if (p.cells[to] == '.' && (flies || adjacent_[from][to]))
                        steps.push_back({from, to});
            }
        }

        for (const Step& s : steps) {
            std::string after = p.cells;
            if (s.from >= 0) after[s.from] = '.';
            after[s.to] = me;
            const std::string base = s.from < 0 ? name(s.to) : name(s.from) + "-" + name(s.to);
            if (coverage) {
                if (s.from < 0)
                    ++coverage->placements;
                else if (adjacent_[s.from][s.to])
                    ++coverage->steps;
                else
                    ++coverage->flights;
                if (s.from >= 0 && my_hand > 0) ++coverage->moves_with_hand;
            }
            const int closed = mills_closed_at(after, s.to);
            if (closed == 0) {
                out.insert(base);
                continue;
            }
            const int wanted = v_.rules.double_mill == DoubleMill::two && closed >= 2 ? 2 : 1;
            const std::vector<int> first = removable(after, them);
            if (first.empty()) {
                if (coverage) ++coverage->mill_nothing_removed;
                out.insert(base);
                continue;
            }
            for (int r1 : first) {
                if (coverage && in_mill(after, r1)) ++coverage->removal_from_mill;
                std::string after1 = after;
                after1[r1] = '.';
                if (wanted == 1) {
                    if (coverage) ++coverage->single_removals;
                    out.insert(base + "x" + name(r1));
                    continue;
                }
                const std::vector<int> second = removable(after1, them);
                if (second.empty()) {
                    if (coverage) ++coverage->double_cut_to_one;
                    out.insert(base + "x" + name(r1));
                    continue;
                }
                for (int r2 : second) {
                    // Is the other order, r2 then r1, legal as well?
                    std::string after2 = after;
                    after2[r2] = '.';
                    const bool r2_first_ok =
                        std::find(first.begin(), first.end(), r2) != first.end();
                    const std::vector<int> then_r1 = removable(after2, them);
                    const bool r1_second_ok =
                        std::find(then_r1.begin(), then_r1.end(), r1) != then_r1.end();
                    const bool both_orders = r2_first_ok && r1_second_ok;
                    if (both_orders && r2 < r1) continue;  // written lower index first
                    if (coverage) {
                        ++coverage->double_removals;
                        if (!both_orders) ++coverage->double_one_order_only;
                    }
                    out.insert(base + "x" + name(r1) + "x" + name(r2));
                }
            }
        }
        if (coverage) coverage->turns += static_cast<long>(out.size());
        return out;
    }

    NaivePosition apply(const NaivePosition& p, const std::string& turn) const {
        std::vector<std::string> parts;
        std::string part;
        for (char c : turn) {
            if (c == 'x') {
                parts.push_back(part);
                part.clear();
            } else {
                part += c;
            }
        }
        parts.push_back(part);
        NaivePosition q = p;
        const char me = mover(p);
        const auto dash = parts[0].find('-');
        if (dash == std::string::npos) {
            q.cells[index(parts[0])] = me;
            --q.hand[hand_index(me)];
        } else {
            q.cells[index(parts[0].substr(0, dash))] = '.';
            q.cells[index(parts[0].substr(dash + 1))] = me;
        }
        for (size_t k = 1; k < parts.size(); ++k) q.cells[index(parts[k])] = '.';
        q.side = p.side == 'w' ? 'b' : 'w';
        return q;
    }

    Status status(const NaivePosition& p) const {
        if (total(p, mover(p)) < 3) {
            if (coverage) ++coverage->loss_few_stones;
            return Status::loss;
        }
        if (!turns(p).empty()) return Status::playing;
        if (count(p.cells, '.') == 0 && v_.rules.full_board == FullBoard::draw) {
            if (coverage) ++coverage->draw_full_board;
            return Status::draw;
        }
        if (coverage) ++coverage->loss_blocked;
        return Status::loss;
    }

    uint64_t perft(const NaivePosition& p, int depth) const {
        if (depth == 0) return 1;
        const std::set<std::string> ts = turns(p);
        if (depth == 1) return ts.size();
        uint64_t sum = 0;
        for (const std::string& t : ts) sum += perft(apply(p, t), depth - 1);
        return sum;
    }

  private:
    const Variant& v_;
    int n_;
    std::vector<std::vector<int>> mills_;
    std::vector<std::vector<bool>> adjacent_;
};

// ---------------------------------------------------------------------------
// Helpers around the real implementation.

std::set<std::string> real_turn_strings(const Variant& v, const Position& p, size_t* count) {
    std::vector<Turn> turns;
    generate_turns(v, p, turns);
    std::set<std::string> out;
    for (const Turn& t : turns) out.insert(to_string(v, t));
    if (count) *count = turns.size();
    return out;
}

std::string describe_difference(const std::set<std::string>& real,
                                const std::set<std::string>& naive) {
    std::ostringstream out;
    out << "only in generate_turns:";
    for (const auto& t : real)
        if (!naive.count(t)) out << ' ' << t;
    out << "; only in naive:";
    for (const auto& t : naive)
        if (!real.count(t)) out << ' ' << t;
    return out.str();
}

const char* status_name(Status s) {
    switch (s) {
        case Status::playing: return "playing";
        case Status::loss: return "loss";
        case Status::draw: return "draw";
    }
    return "?";
}

Variant make_variant(std::string_view name, const std::vector<std::string>& overrides) {
    Variant v = find_variant(name);
    for (const auto& o : overrides) apply_rule(v, o);
    return v;
}

std::string label(const Variant& v, const std::vector<std::string>& overrides) {
    std::string text = v.name;
    for (const auto& o : overrides) text += " --rule " + o;
    return text;
}

// Rule sets every variant is checked under: its own rules and each override.
const std::vector<std::vector<std::string>> kRuleSets = {
    {},
    {"removal=strict"},
    {"removal=lenient"},
    {"double_mill=two"},
    {"double_mill=two", "removal=strict"},
    {"double_mill=two", "removal=lenient"},
    {"flying=none"},
    {"flying=3"},
    {"placement=place-or-move"},
    {"placement=place-or-move", "double_mill=two"},
    {"full_board=loss"},
    {"full_board=draw"},
};

// ---------------------------------------------------------------------------
// Random valid positions of every phase.

enum class Shape {
    placement,     // stones in hand, any number on board
    moving,        // hands empty
    flying,        // side to move has exactly 3 stones
    mills,         // several complete and nearly complete mills standing
    all_in_mills,  // every stone of the side not to move stands in a mill
    full_board,    // every point taken (or as many as the stones allow)
    near_full,     // one point empty
    few_stones,    // side to move has fewer than 3 stones
};
constexpr Shape kShapes[] = {Shape::placement, Shape::moving,       Shape::flying,
                             Shape::mills,     Shape::all_in_mills, Shape::full_board,
                             Shape::near_full, Shape::few_stones};

class RandomPositions {
  public:
    RandomPositions(const Variant& v, uint32_t seed) : v_(v), rng_(seed) {
        for (Bitboard m : v.board->mills) {
            std::vector<int> line;
            for (int i = 0; i < v.board->points; ++i)
                if (m >> i & 1) line.push_back(i);
            mills_.push_back(line);
        }
    }

    // A random valid position of the given shape (retrying until one is valid).
    Position next(Shape shape) {
        for (int attempt = 0; attempt < 1000; ++attempt)
            if (auto p = attempt_shape(shape)) return *p;
        // Some shapes are impossible in small variants; fall back to anything.
        for (;;)
            if (auto p = attempt_shape(Shape::placement)) return *p;
    }

    Position next() { return next(kShapes[uniform(0, std::size(kShapes) - 1)]); }

    std::mt19937& rng() { return rng_; }

  private:
    int uniform(int lo, int hi) {
        if (hi < lo) return lo;
        return std::uniform_int_distribution<int>(lo, hi)(rng_);
    }
    bool coin(double p = 0.5) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

    // Random hands fitting the turn order (place-only) or free (place-or-move).
    void random_hands(NaivePosition& p, bool allow_empty) {
        const int s = v_.stones;
        if (v_.rules.placement == Placement::place_only) {
            const int offset = p.side == 'b' ? 1 : 0;
            p.hand[0] = uniform(allow_empty ? 0 : 1 - offset, s - offset);
            p.hand[1] = p.hand[0] + offset;
            if (allow_empty && p.hand[0] == 0 && coin(0.5)) p.hand[1] = 0;
        } else {
            p.hand[0] = uniform(0, s);
            p.hand[1] = uniform(0, s);
        }
    }

    bool fill_line(std::string& cells, const std::vector<int>& line, char c, int& budget,
                   int stones_to_put) {
        int empties = 0;
        for (int q : line) {
            if (cells[q] != '.' && cells[q] != c) return false;
            empties += cells[q] == '.';
        }
        if (stones_to_put == 3) {
            if (empties > budget) return false;
            for (int q : line) cells[q] = c;
            budget -= empties;
            return true;
        }
        // Two of the line, the third left empty: a mill one turn from closing.
        std::vector<int> order = line;
        std::shuffle(order.begin(), order.end(), rng_);
        if (cells[order[2]] != '.') return false;
        int need = (cells[order[0]] == '.') + (cells[order[1]] == '.');
        if (need > budget) return false;
        cells[order[0]] = cells[order[1]] = c;
        budget -= need;
        return true;
    }

    void seed_lines(std::string& cells, char c, int& budget, int full, int open) {
        for (int k = 0; k < full; ++k)
            fill_line(cells, mills_[uniform(0, static_cast<int>(mills_.size()) - 1)], c, budget, 3);
        for (int k = 0; k < open; ++k)
            fill_line(cells, mills_[uniform(0, static_cast<int>(mills_.size()) - 1)], c, budget, 2);
    }

    bool scatter(std::string& cells, char c, int budget) {
        std::vector<int> empty;
        for (int i = 0; i < static_cast<int>(cells.size()); ++i)
            if (cells[i] == '.') empty.push_back(i);
        if (static_cast<int>(empty.size()) < budget) return false;
        std::shuffle(empty.begin(), empty.end(), rng_);
        for (int k = 0; k < budget; ++k) cells[empty[k]] = c;
        return true;
    }

    std::optional<Position> attempt_shape(Shape shape) {
        const int points = v_.board->points, s = v_.stones;
        NaivePosition p;
        p.cells = std::string(points, '.');
        p.side = coin() ? 'w' : 'b';
        const char me = p.side == 'w' ? 'W' : 'B', them = p.side == 'w' ? 'B' : 'W';
        const int mi = me == 'W' ? 0 : 1, ti = 1 - mi;
        int mine = 0, theirs = 0;  // stones to put on the board
        int full_mine = 0, open_mine = uniform(0, 1), full_theirs = uniform(0, 1),
            open_theirs = uniform(0, 1);
        switch (shape) {
            case Shape::placement:
                random_hands(p, false);
                mine = uniform(0, s - p.hand[mi]);
                theirs = uniform(0, s - p.hand[ti]);
                open_mine = uniform(0, 2);
                break;
            case Shape::moving:
                if (v_.rules.placement == Placement::place_or_move && coin(0.3))
                    random_hands(p, true);
                mine = uniform(3 - std::min(3, p.hand[mi]), s - p.hand[mi]);
                theirs = uniform(3 - std::min(3, p.hand[ti]), s - p.hand[ti]);
                break;
            case Shape::flying:
                if (v_.rules.placement == Placement::place_or_move && coin(0.3))
                    p.hand[mi] = uniform(0, 2);
                mine = 3 - p.hand[mi];
                theirs = coin(0.3) ? 3 : uniform(3, s);
                break;
            case Shape::mills:
                if (coin(0.4)) random_hands(p, true);
                mine = uniform(3, s - p.hand[mi]);
                theirs = uniform(3, s - p.hand[ti]);
                full_mine = uniform(0, 2);
                open_mine = uniform(1, 3);
                full_theirs = uniform(1, 3);
                open_theirs = uniform(0, 2);
                break;
            case Shape::all_in_mills: {
                if (coin(0.4)) random_hands(p, true);
                // The waiting side's stones are exactly one to three mills.
                int lines = uniform(1, 3);
                int budget = s - p.hand[ti];
                for (int k = 0; k < lines; ++k)
                    fill_line(p.cells, mills_[uniform(0, static_cast<int>(mills_.size()) - 1)],
                              them, budget, 3);
                mine = uniform(3, s - p.hand[mi]);
                int mine_budget = mine;
                seed_lines(p.cells, me, mine_budget, uniform(0, 1), uniform(1, 3));
                if (!scatter(p.cells, me, mine_budget)) return std::nullopt;
                return finish(p);
            }
            case Shape::full_board:
                mine = std::min(s, points - std::min(s, points / 2));
                theirs = std::min(s, points - mine);
                if (coin()) std::swap(mine, theirs);
                full_mine = uniform(0, 2);
                full_theirs = uniform(0, 2);
                break;
            case Shape::near_full:
                if (v_.rules.placement == Placement::place_only) {
                    if (coin()) {
                        p.hand[mi] = 1;  // the last stone of placement still to come
                        p.hand[ti] = p.side == 'w' ? 1 : 0;
                    }
                } else if (coin()) {
                    p.hand[mi] = uniform(1, 2);
                    p.hand[ti] = uniform(0, 2);
                }
                mine = std::min(s - p.hand[mi],
                                points - 1 - std::min(s - p.hand[ti], (points - 1) / 2));
                theirs = std::min(s - p.hand[ti], points - 1 - mine);
                if (coin() && theirs <= s - p.hand[mi] && mine <= s - p.hand[ti])
                    std::swap(mine, theirs);
                full_mine = uniform(0, 2);
                full_theirs = uniform(0, 2);
                break;
            case Shape::few_stones:
                if (coin(0.5)) random_hands(p, true);
                p.hand[mi] = std::min(p.hand[mi], 2);
                mine = uniform(0, 2 - p.hand[mi]);
                theirs = uniform(3, s - p.hand[ti]);
                break;
        }
        if (mine < 0 || theirs < 0 || mine + theirs > points) return std::nullopt;
        int mine_budget = mine, theirs_budget = theirs;
        seed_lines(p.cells, me, mine_budget, full_mine, open_mine);
        seed_lines(p.cells, them, theirs_budget, full_theirs, open_theirs);
        if (!scatter(p.cells, me, mine_budget) || !scatter(p.cells, them, theirs_budget))
            return std::nullopt;
        return finish(p);
    }

    std::optional<Position> finish(const NaivePosition& n) {
        Position p = position_from(n);
        if (!invalid_reason(v_, p).empty()) return std::nullopt;
        return p;
    }

    const Variant& v_;
    std::mt19937 rng_;
    std::vector<std::vector<int>> mills_;
};

// Compares turns, their results and the status of one position; returns false
// (after recording a failure) on any difference.
bool matches_naive(const Variant& v, const NaiveRules& naive, const Position& p,
                   const std::string& context) {
    const NaivePosition n = naive_from(v, p);
    size_t real_count = 0;
    const std::set<std::string> real = real_turn_strings(v, p, &real_count);
    const std::set<std::string> expected = naive.turns(n);
    bool ok = true;
    if (real_count != real.size()) {
        ADD_FAILURE() << context << ": generate_turns repeats turns in " << to_string(v, p);
        ok = false;
    }
    if (real != expected) {
        ADD_FAILURE() << context << ": turns differ in " << to_string(v, p) << ": "
                      << describe_difference(real, expected);
        ok = false;
    }
    const Status real_status = status(v, p), naive_status = naive.status(n);
    if (real_status != naive_status) {
        ADD_FAILURE() << context << ": status of " << to_string(v, p) << " is "
                      << status_name(real_status) << ", naive says " << status_name(naive_status);
        ok = false;
    }
    if (!ok) return false;
    std::vector<Turn> turns;
    generate_turns(v, p, turns);
    for (const Turn& t : turns) {
        const std::string after = to_string(v, apply_turn(v, p, t));
        const std::string naive_after = naive.apply(n, to_string(v, t)).text();
        if (after != naive_after) {
            ADD_FAILURE() << context << ": " << to_string(v, p) << " then " << to_string(v, t)
                          << " gives " << after << ", naive gives " << naive_after;
            return false;
        }
    }
    // The removable set the rules export must agree with the naive one too.
    const char them = NaiveRules::waiter(n);
    const std::vector<int> naive_removable = naive.removable(n.cells, them);
    Bitboard expected_removable = 0;
    for (int r : naive_removable) expected_removable |= 1u << r;
    const Bitboard real_removable = removable(v, p.stones[p.other()]);
    if (real_removable != expected_removable) {
        ADD_FAILURE() << context << ": removable() in " << to_string(v, p) << " is "
                      << real_removable << ", naive says " << expected_removable;
        return false;
    }
    const bool real_any = any_removable(v, p.stones[p.other()]);
    if (real_any != !naive_removable.empty()) {
        ADD_FAILURE() << context << ": any_removable() in " << to_string(v, p) << " is " << real_any
                      << ", naive finds " << naive_removable.size() << " stones";
        return false;
    }
    return true;
}

// A position from lists of point names.
Position make_position(const Variant& v, const std::vector<std::string>& whites,
                       const std::vector<std::string>& blacks, Colour side, int white_hand,
                       int black_hand) {
    Position p;
    for (const auto& w : whites) p.stones[white] |= 1u << *v.board->point(w);
    for (const auto& b : blacks) p.stones[black] |= 1u << *v.board->point(b);
    p.side = side;
    p.in_hand[white] = static_cast<uint8_t>(white_hand);
    p.in_hand[black] = static_cast<uint8_t>(black_hand);
    return p;
}

bool contains(const std::vector<Position>& positions, const Position& p) {
    return std::find(positions.begin(), positions.end(), p) != positions.end();
}

}  // namespace

// ---------------------------------------------------------------------------

TEST(Rules, NinePerftFromStartMatchesKnownCounts) {
    const Variant v = find_variant("nine");
    const Position start = start_position(v);
    EXPECT_EQ(perft(v, start, 1), 24u);
    EXPECT_EQ(perft(v, start, 2), 552u);
    EXPECT_EQ(perft(v, start, 3), 12144u);
    EXPECT_EQ(perft(v, start, 4), 255024u);
}

TEST(Rules, NaiveGeneratorReproducesNinePerftFromStart) {
    const Variant v = find_variant("nine");
    const NaiveRules naive(v);
    const uint64_t expected[] = {1, 24, 552, 12144, 255024};
    for (int depth = 0; depth <= 4; ++depth)
        EXPECT_EQ(naive.perft(naive.start(), depth), expected[depth]) << "depth " << depth;
}

TEST(Rules, PerftFromStartMatchesNaiveGeneratorForEveryVariant) {
    for (std::string_view name : variant_names()) {
        const Variant v = find_variant(name);
        const NaiveRules naive(v);
        ASSERT_EQ(to_string(v, start_position(v)), naive.start().text()) << name;
        for (int depth = 1; depth <= 4; ++depth)
            EXPECT_EQ(perft(v, start_position(v), depth), naive.perft(naive.start(), depth))
                << name << " depth " << depth;
    }
}

TEST(Rules, TurnsStatusAndResultsMatchNaiveGeneratorOnRandomPositions) {
    constexpr int kPositionsPerRuleSet = 1500;
    Coverage total;
    uint32_t seed = 20240601;
    for (std::string_view name : variant_names()) {
        long checked = 0;
        for (const auto& overrides : kRuleSets) {
            const Variant v = make_variant(name, overrides);
            const std::string context = label(v, overrides);
            NaiveRules naive(v);
            naive.coverage = &total;
            RandomPositions random(v, seed++);
            int failures = 0;
            for (int i = 0; i < kPositionsPerRuleSet && failures < 5; ++i) {
                const Position p = random.next(kShapes[i % std::size(kShapes)]);
                ++total.positions;
                ++checked;
                if (!matches_naive(v, naive, p, context)) ++failures;
            }
        }
        EXPECT_GE(checked, 10000) << name;
    }
    // The random positions must reach every corner of the rules.
    EXPECT_GT(total.placements, 0);
    EXPECT_GT(total.steps, 0);
    EXPECT_GT(total.flights, 0);
    EXPECT_GT(total.moves_with_hand, 0);
    EXPECT_GT(total.single_removals, 0);
    EXPECT_GT(total.double_removals, 0);
    EXPECT_GT(total.double_one_order_only, 0);
    EXPECT_GT(total.double_cut_to_one, 0);
    EXPECT_GT(total.mill_nothing_removed, 0);
    EXPECT_GT(total.removal_from_mill, 0);
    EXPECT_GT(total.loss_few_stones, 0);
    EXPECT_GT(total.loss_blocked, 0);
    EXPECT_GT(total.draw_full_board, 0);
    std::cout << "positions " << total.positions << ", turns " << total.turns << " (placements "
              << total.placements << ", steps " << total.steps << ", flights " << total.flights
              << ", moves with stones in hand " << total.moves_with_hand << "), removals: single "
              << total.single_removals << ", double " << total.double_removals
              << " (one order only " << total.double_one_order_only << ", cut to one "
              << total.double_cut_to_one << "), from a mill " << total.removal_from_mill
              << ", mill but nothing removable " << total.mill_nothing_removed << "; losses "
              << total.loss_few_stones << " few stones, " << total.loss_blocked
              << " blocked; full-board draws " << total.draw_full_board << "\n";
}

TEST(Rules, FullBoardAfterPlacementIsADrawOrALossAsTheRuleSays) {
    // Twelve Men's Morris: 24 stones placed, nobody can move.
    const std::string board = "WBWBWBWBWBWBBWBWBWBWBWBW";
    Variant v = find_variant("twelve");
    const Position p = parse_position(v, board + " w 0 0");
    EXPECT_EQ(status(v, p), Status::draw);
    apply_rule(v, "full_board=loss");
    EXPECT_EQ(status(v, p), Status::loss);
    const NaiveRules naive(v);
    EXPECT_EQ(naive.status(naive_from(v, p)), Status::loss);
}

TEST(Rules, PerftFromRandomPositionsMatchesNaiveGenerator) {
    uint32_t seed = 777;
    for (std::string_view name : variant_names()) {
        for (const auto& overrides : kRuleSets) {
            const Variant v = make_variant(name, overrides);
            const NaiveRules naive(v);
            RandomPositions random(v, seed++);
            for (int i = 0; i < 6; ++i) {
                const Position p = random.next();
                const int depth = i < 2 ? 3 : 2;
                ASSERT_EQ(perft(v, p, depth), naive.perft(naive_from(v, p), depth))
                    << label(v, overrides) << " from " << to_string(v, p) << " depth " << depth;
            }
        }
    }
}

TEST(Rules, UnturnsAreExactlyThePredecessorsByNonRemovingTurns) {
    constexpr int kPositionsPerRuleSet = 400;
    uint32_t seed = 4242;
    long forward_checked = 0, backward_checked = 0;
    for (std::string_view name : variant_names()) {
        for (const auto& overrides : kRuleSets) {
            const Variant v = make_variant(name, overrides);
            const std::string context = label(v, overrides);
            RandomPositions random(v, seed++);
            std::vector<Turn> turns, more_turns;
            std::vector<Position> predecessors;
            int failures = 0;
            for (int i = 0; i < kPositionsPerRuleSet && failures < 5; ++i) {
                const Position p = random.next(kShapes[i % std::size(kShapes)]);
                const std::string ptext = to_string(v, p);
                // Forward: P is an un-turn of every position a non-removing turn leads to.
                if (status(v, p) == Status::playing) {
                    generate_turns(v, p, turns);
                    for (const Turn& t : turns) {
                        if (t.removals() != 0) continue;
                        const Position q = apply_turn(v, p, t);
                        ++forward_checked;
                        EXPECT_EQ(invalid_reason(v, q), "")
                            << context << ": " << ptext << " then " << to_string(v, t);
                        generate_unturns(v, q, predecessors);
                        if (!contains(predecessors, p)) {
                            ADD_FAILURE()
                                << context << ": " << ptext << " then " << to_string(v, t)
                                << " gives " << to_string(v, q) << ", whose un-turns miss it";
                            ++failures;
                        }
                    }
                }
                // Backward: every un-turn is valid, playing and leads to P without removal.
                generate_unturns(v, p, predecessors);
                std::set<std::string> distinct;
                for (const Position& r : predecessors) {
                    ++backward_checked;
                    const std::string rtext = to_string(v, r);
                    distinct.insert(rtext);
                    EXPECT_EQ(invalid_reason(v, r), "")
                        << context << ": un-turn " << rtext << " of " << ptext;
                    EXPECT_EQ(status(v, r), Status::playing)
                        << context << ": un-turn " << rtext << " of " << ptext;
                    generate_turns(v, r, more_turns);
                    bool leads = false;
                    for (const Turn& t : more_turns)
                        if (t.removals() == 0 && apply_turn(v, r, t) == p) leads = true;
                    if (!leads) {
                        ADD_FAILURE() << context << ": un-turn " << rtext << " of " << ptext
                                      << " has no non-removing turn to it";
                        ++failures;
                    }
                }
                EXPECT_EQ(distinct.size(), predecessors.size())
                    << context << ": un-turns of " << ptext << " repeat";
            }
        }
    }
    EXPECT_GT(forward_checked, 10000);
    EXPECT_GT(backward_checked, 10000);
}

TEST(Rules, UnturnsOfMillClosingTurnsThatRemoveNothingAreFound) {
    // Black has no stone on the board: White's mill-closing d1 removes nothing.
    const Variant v = find_variant("nine");
    const Position before = parse_position(v, "W....................W.. w 7 7");
    std::vector<Turn> turns;
    generate_turns(v, before, turns);
    bool found = false;
    for (const Turn& t : turns) {
        if (to_string(v, t) != "d1") continue;
        found = true;
        EXPECT_EQ(t.removals(), 0);
        const Position after = apply_turn(v, before, t);
        std::vector<Position> predecessors;
        generate_unturns(v, after, predecessors);
        EXPECT_TRUE(contains(predecessors, before));
    }
    EXPECT_TRUE(found);
}

TEST(Rules, UnturnsOfAFlightFindTheFlyingPredecessor) {
    // White has exactly 3 stones and flies a1-e3; e3's neighbours are d3 and e4.
    const Variant v = find_variant("nine");
    const Position before =
        make_position(v, {"a1", "a7", "g7"}, {"b2", "b4", "d2", "f4"}, white, 0, 0);
    ASSERT_EQ(invalid_reason(v, before), "");
    const Position after =
        make_position(v, {"e3", "a7", "g7"}, {"b2", "b4", "d2", "f4"}, black, 0, 0);
    const NaiveRules naive(v);
    ASSERT_TRUE(naive.turns(naive_from(v, before)).count("a1-e3"));
    ASSERT_EQ(naive.apply(naive_from(v, before), "a1-e3").text(), to_string(v, after));
    std::vector<Position> predecessors;
    generate_unturns(v, after, predecessors);
    EXPECT_TRUE(contains(predecessors, before))
        << to_string(v, before) << " flies a1-e3 to " << to_string(v, after)
        << " but is not among its un-turns";
}

TEST(Rules, UnturnsDoNotLetAFourStoneSideFly) {
    // White has 4 stones, so it cannot have come to e3 from a1.
    const Variant v = find_variant("nine");
    const Position after =
        make_position(v, {"e3", "a7", "g7", "g1"}, {"b2", "b4", "d2", "f4"}, black, 0, 0);
    const Position not_before =
        make_position(v, {"a1", "a7", "g7", "g1"}, {"b2", "b4", "d2", "f4"}, white, 0, 0);
    ASSERT_EQ(invalid_reason(v, after), "");
    std::vector<Position> predecessors;
    generate_unturns(v, after, predecessors);
    EXPECT_FALSE(contains(predecessors, not_before))
        << to_string(v, not_before) << " is listed as an un-turn of " << to_string(v, after)
        << " though a1-e3 is no legal turn there";
}

TEST(Rules, UnturnsOfAPlaceOrMoveMoveByTheOnlyStoneOnTheBoardAreFound) {
    // Lasker: White holds 5 stones in hand, has one on a1 and moves it a1-a4.
    const Variant v = find_variant("lasker");
    const Position before = make_position(v, {"a1"}, {"b2"}, white, 5, 6);
    const Position after = make_position(v, {"a4"}, {"b2"}, black, 5, 6);
    ASSERT_EQ(invalid_reason(v, before), "");
    std::vector<Turn> turns;
    generate_turns(v, before, turns);
    bool legal = false;
    for (const Turn& t : turns)
        if (to_string(v, t) == "a1-a4") legal = apply_turn(v, before, t) == after;
    ASSERT_TRUE(legal);
    std::vector<Position> predecessors;
    generate_unturns(v, after, predecessors);
    EXPECT_TRUE(contains(predecessors, before))
        << to_string(v, before) << " moves a1-a4 to " << to_string(v, after)
        << " but is not among its un-turns";
}

TEST(Rules, ParsePositionOrTurnsPlaysATurnListFromTheStart) {
    const Variant v = find_variant("nine");
    const NaiveRules naive(v);
    const std::vector<std::string> list = {"a1", "b2", "d1", "d2", "g1xb2", "f2", "d3"};
    NaivePosition n = naive.start();
    std::string text;
    for (const auto& t : list) {
        ASSERT_TRUE(naive.turns(n).count(t)) << t << " in " << n.text();
        n = naive.apply(n, t);
        text += (text.empty() ? "" : " ") + t;
    }
    EXPECT_EQ(to_string(v, parse_position_or_turns(v, text)), n.text());
    // A position string is accepted too.
    EXPECT_EQ(parse_position_or_turns(v, n.text()), position_from(n));
    EXPECT_EQ(parse_position_or_turns(v, "  " + text + "  "), position_from(n));
}

TEST(Rules, ParsePositionOrTurnsRejectsIllegalTurnLists) {
    const Variant v = find_variant("nine");
    for (const char* bad : {
             "d2 d2",                         // point taken
             "a1-a4",                         // a move while placing
             "d2xg7",                         // removal without a mill
             "a1 b2 d1 d2 g1",                // mill closed, removal missing
             "a1 b2 d1 d2 g1xa1",             // removes own stone
             "d2 zz",                         // unknown point
             "d2 d6-",                        // bad syntax
             "........................ w 9",  // position with a missing field
         }) {
        EXPECT_THROW(parse_position_or_turns(v, bad), NotationError) << bad;
    }
}

// Calls check(variant, context, position, turns) with the legal turns of
// `count` random positions, of every shape in turn, in each variant under
// each rule set; stops at the first fatal failure.
template <class Check>
void for_each_random_position(uint32_t seed, int count, const Check& check) {
    std::vector<Turn> turns;
    for (std::string_view name : variant_names()) {
        for (const auto& overrides : kRuleSets) {
            const Variant v = make_variant(name, overrides);
            const std::string context = label(v, overrides);
            RandomPositions random(v, seed++);
            for (int i = 0; i < count; ++i) {
                const Position p = random.next(kShapes[i % std::size(kShapes)]);
                generate_turns(v, p, turns);
                check(v, context, p, turns);
                if (::testing::Test::HasFatalFailure()) return;
            }
        }
    }
}

// closing_points asks all mills at once, a lane for each of a mill's points:
// it must give what its definition says, mill by mill, on every board.
TEST(Rules, ClosingPointsAreTheEmptyPointsOfMillsHalfOwned) {
    std::mt19937 random(2026);
    int closing_seen = 0;
    for (const Board* board : all_boards()) {
        for (int trial = 0; trial < 2000; ++trial) {
            const Bitboard own = random() & board->all();
            const Bitboard empty = random() & board->all() & ~own;
            Bitboard expected = 0;
            for (Bitboard mill : board->mills)
                for (int point = 0; point < board->points; ++point)
                    if (mill >> point & 1 && empty >> point & 1 &&
                        (own & mill) == (mill & ~(1u << point)))
                        expected |= 1u << point;
            ASSERT_EQ(turn_generation::closing_points(*board, own, empty), expected)
                << board->name << " own " << own << " empty " << empty;
            closing_seen += std::popcount(expected);
        }
    }
    EXPECT_GT(closing_seen, 0);
}

// The solver counts quiet moves instead of visiting them: what it visits plus
// what it counts must be exactly the turn list, and only mill-less moves may
// go uncounted as turns.
TEST(Rules, LoudTurnsPlusQuietOnesAreExactlyTheTurns) {
    constexpr int kPositionsPerRuleSet = 300;
    int quiet_placements_seen = 0;
    for_each_random_position(
        777, kPositionsPerRuleSet,
        [&](const Variant& v, const std::string& context, const Position& p,
            const std::vector<Turn>& turns) {
            std::vector<Turn> loud;
            const QuietTurns quiet =
                for_each_loud_turn(v, p, [&](const Turn& t) { loud.push_back(t); });
            ASSERT_EQ(loud.size() + static_cast<size_t>(quiet.moves) +
                          static_cast<size_t>(std::popcount(quiet.placements)),
                      turns.size())
                << context << " " << to_string(v, p);
            int quiet_moves_in_list = 0;
            Bitboard quiet_placements_in_list = 0;
            for (const Turn& t : turns) {
                const bool visited = std::find(loud.begin(), loud.end(), t) != loud.end();
                if (visited) continue;
                ASSERT_EQ(t.removals(), 0) << to_string(v, p);
                const Bitboard lifted = t.is_placement() ? 0 : 1u << t.from;
                const Bitboard after = (p.stones[p.side] & ~lifted) | 1u << t.to;
                ASSERT_EQ(v.board->in_mills(after) >> t.to & 1, 0u) << to_string(v, p);
                if (t.is_placement())
                    quiet_placements_in_list |= 1u << t.to;
                else
                    ++quiet_moves_in_list;
            }
            ASSERT_EQ(quiet_moves_in_list, quiet.moves) << to_string(v, p);
            ASSERT_EQ(quiet_placements_in_list, quiet.placements) << to_string(v, p);
            quiet_placements_seen += std::popcount(quiet.placements);
        });
    EXPECT_GT(quiet_placements_seen, 0);
}

// The solver's pull propagation re-reads exactly the moves its first pass
// counted as staying in the unit: the legal moves that remove nothing.
TEST(Rules, QuietMovesAreExactlyTheMovesThatRemoveNothing) {
    constexpr int kPositionsPerRuleSet = 300;
    int closing_without_removal_seen = 0;
    for_each_random_position(
        4242, kPositionsPerRuleSet,
        [&](const Variant& v, const std::string& context, const Position& p,
            const std::vector<Turn>& turns) {
            std::vector<std::pair<int, int>> expected, quiet;
            for (const Turn& t : turns)
                if (!t.is_placement() && t.removals() == 0) {
                    expected.emplace_back(t.from, t.to);
                    const Bitboard after = (p.stones[p.side] & ~(1u << t.from)) | 1u << t.to;
                    closing_without_removal_seen += v.board->in_mills(after) >> t.to & 1;
                }
            for_each_quiet_move(v, p, [&](int from, int to) { quiet.emplace_back(from, to); });
            std::sort(expected.begin(), expected.end());
            std::sort(quiet.begin(), quiet.end());
            ASSERT_EQ(quiet, expected) << context << " " << to_string(v, p);
        });
    EXPECT_GT(closing_without_removal_seen, 0);  // the case of nothing removable was met
}

// Push lists un-moves once per class of the stones that did not move
// (ClassUnmoves): given those stones as they are (a class of their own), it
// must give exactly the un-moves of the generic generator.
TEST(Rules, PushUnmovesByClassAreExactlyTheUnmoves) {
    constexpr int kPositionsPerRuleSet = 300;
    uint32_t rank = 0;  // a new "class" per position: nothing cached is reused
    long compared = 0;
    for_each_random_position(
        31337, kPositionsPerRuleSet,
        [&](const Variant& v, const std::string& context, const Position& q,
            const std::vector<Turn>&) {
            std::vector<Position> unturns;
            generate_unturns(v, q, unturns, Unturns::moves_only);
            std::set<std::pair<Bitboard, Bitboard>> expected, listed;
            for (const Position& p : unturns)
                expected.insert({p.stones[p.side], p.stones[p.other()]});
            if (may_have_moved(v, q)) {
                // As push sees q: its opponent moved last, onto one of `theirs`.
                const Bitboard theirs = q.stones[q.other()], mine = q.stones[q.side];
                const bool flying = turn_generation::can_fly(v, q, q.other());
                ClassUnmoves unmoves(*v.board, symmetry_classes(*v.board), flying);
                const bool may_remove = removable(v, mine) != 0;
                const ClassUnmoves::List& list = unmoves.of(rank++, theirs);
                for (uint64_t kept = list.kept(mine, may_remove); kept; kept &= kept - 1) {
                    const ClassUnmoves::Unmove& u = list.unmoves()[std::countr_zero(kept)];
                    listed.insert({(theirs & ~(1u << u.to)) | 1u << u.from, mine});
                }
            }
            compared += static_cast<long>(expected.size());
            ASSERT_EQ(listed, expected) << context << " " << to_string(v, q);
        });
    EXPECT_GT(compared, 0);
}

// The rules of sectors agree with the rules of positions: a valid position's
// sector is valid and says whose turn it is, and every turn leads into one of
// its sector's successors (or leaves the opponent lost for want of stones).
TEST(Rules, SectorRulesAgreeWithThePositionsTurns) {
    constexpr int kPositionsPerRuleSet = 300;
    for_each_random_position(
        2718, kPositionsPerRuleSet,
        [&](const Variant& v, const std::string& context, const Position& p,
            const std::vector<Turn>& turns) {
            const SectorKey key = sector_of(p);
            if (p.total(p.side) < kFewestStones) {
                ASSERT_TRUE(is_lost_sector(key)) << context << " " << to_string(v, p);
                return;
            }
            ASSERT_TRUE(is_valid_sector(v, key)) << context << " " << to_string(v, p);
            if (v.rules.placement == Placement::place_only &&
                (p.in_hand[white] != 0 || p.in_hand[black] != 0)) {
                ASSERT_EQ(side_to_move(v, key), p.side) << context << " " << to_string(v, p);
            }
            EXPECT_EQ(mover_flies(v, key), turn_generation::can_fly(v, p, p.side)) << context;
            const std::vector<SectorKey> successors = successor_sectors(v, key);
            for (const Turn& t : turns) {
                const SectorKey after = sector_of(apply_turn(v, p, t));
                ASSERT_EQ(after, sector_after(key, t.is_placement(), t.removals()))
                    << context << " " << to_string(v, p) << " then " << to_string(v, t);
                ASSERT_TRUE(std::binary_search(successors.begin(), successors.end(), after))
                    << context << " " << to_string(v, p) << " then " << to_string(v, t)
                    << " leads into " << to_string(after) << ", not a successor of "
                    << to_string(key);
            }
        });
}
