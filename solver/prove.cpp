#include "solver/prove.hpp"

#include <algorithm>
#include <unordered_map>

#include "indexing/perfect_hash.hpp"
#include "solver/progress.hpp"
#include "solver/rules.hpp"

namespace morris {
namespace {

constexpr int kMaxExamples = 5;

int score(Value v) { return v == Value::win ? 1 : v == Value::loss ? -1 : 0; }

bool in_placement(const Position& p) { return p.in_hand[white] > 0 || p.in_hand[black] > 0; }

// Negamax alpha-beta over win (1), draw (0) and loss (-1), with a
// transposition table of bounds keyed by symmetry-canonical position.
class PlacementSearch {
  public:
    struct NodeLimitReached {};

    PlacementSearch(const Database& db, ProofReport& report, Progress& progress, uint64_t max_nodes)
        : db_(db),
          variant_(db.variant()),
          report_(report),
          progress_(progress),
          max_nodes_(max_nodes) {}

    int search(const Position& p, int alpha, int beta) {
        if (!in_placement(p)) return leaf(p);
        switch (status(variant_, p)) {
            case Status::loss: return -1;
            case Status::draw: return 0;
            case Status::playing: break;
        }
        if (report_.nodes == max_nodes_ && max_nodes_ > 0) throw NodeLimitReached{};
        ++report_.nodes;
        if (report_.nodes % 4096 == 0) progress_.advance(4096);
        const uint64_t key = canonical_key(p);
        Bounds& known = table_[key];
        if (known.lower >= beta) return known.lower;
        if (known.upper <= alpha) return known.upper;
        if (known.lower == known.upper) return known.lower;
        alpha = std::max(alpha, static_cast<int>(known.lower));
        beta = std::min(beta, static_cast<int>(known.upper));
        if (alpha >= beta) return alpha;  // the bounds already settle this window
        const int alpha_in = alpha;

        int best = -1;
        for (const Position& child : ordered_children(p)) {
            best = std::max(best, -search(child, -beta, -alpha));
            alpha = std::max(alpha, best);
            if (alpha >= beta) break;
        }
        Bounds& stored = table_[key];  // the recursion may have rehashed the table
        if (best <= alpha_in)
            stored.upper = static_cast<int8_t>(best);
        else if (best >= beta)
            stored.lower = static_cast<int8_t>(best);
        else
            stored.lower = stored.upper = static_cast<int8_t>(best);
        check(p, best, alpha_in, beta);
        return best;
    }

  private:
    struct Bounds {
        int8_t lower = -1, upper = 1;
    };

    // The positions after each turn, most promising first: those the
    // database rates lost for the opponent, then drawn or unrated, then
    // won; captures first among equals. The order only decides how much is
    // searched: every value still comes from the moving-phase leaves.
    std::vector<Position> ordered_children(const Position& p) {
        std::vector<Turn> turns;
        generate_turns(variant_, p, turns);
        std::vector<std::pair<int, Position>> rated;
        for (const Turn& t : turns) {
            const Position child = apply_turn(variant_, p, t);
            const ProbeResult r = db_.probe(child);
            const int promise = r.ok() ? 2 * -score(r.outcome.value) : 0;
            rated.emplace_back(promise + (t.removals() > 0), child);
        }
        std::stable_sort(rated.begin(), rated.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<Position> children;
        for (const auto& [promise, child] : rated) children.push_back(child);
        return children;
    }

    int leaf(const Position& p) {
        if (p.total(p.side) < 3) return -1;
        ++report_.leaf_probes;
        ProbeResult r = db_.probe(p);
        if (!r.ok()) throw DatabaseError(r.error);
        return score(r.outcome.value);
    }

    uint64_t canonical_key(const Position& p) const {
        const SectorKey k = sector_of(p);
        const uint64_t index = sector_index(*variant_.board, k.mover_on_board, k.opponent_on_board)
                                   .index(stones_of(p));
        return index << 32 | uint64_t{k.mover_on_board} << 24 |
               uint64_t{k.opponent_on_board} << 16 | uint64_t{k.mover_in_hand} << 8 |
               k.opponent_in_hand;
    }

    // The stored value must lie within what the search proved about it.
    void check(const Position& p, int best, int alpha_in, int beta) {
        ProbeResult r = db_.probe(p);
        if (!r.ok()) return;  // placement sectors are optional for the proof
        ++report_.checked;
        const int stored = score(r.outcome.value);
        const bool agrees = best <= alpha_in ? stored <= best
                            : best >= beta   ? stored >= best
                                             : stored == best;
        if (agrees) return;
        ++report_.disagreements;
        if (report_.examples.size() < kMaxExamples)
            report_.examples.push_back(to_string(variant_, p) + ": search " + std::to_string(best) +
                                       " in (" + std::to_string(alpha_in) + ", " +
                                       std::to_string(beta) + "), database " +
                                       to_string(r.outcome));
    }

    const Database& db_;
    const Variant& variant_;
    ProofReport& report_;
    Progress& progress_;
    uint64_t max_nodes_;
    std::unordered_map<uint64_t, Bounds> table_;
};

}  // namespace

ProofReport prove(const Database& db, bool progress_line, uint64_t max_nodes) {
    const Variant& v = db.variant();
    if (v.rules.placement != Placement::place_only)
        throw std::runtime_error(
            "prove needs a place-only variant: under place-or-move the "
            "placement phase has cycles that alpha-beta cannot settle");
    ProofReport report;
    Progress progress(v.name + " prove: placement positions", 0, progress_line);
    PlacementSearch search(db, report, progress, max_nodes);
    try {
        const int value = search.search(start_position(v), -1, 1);
        report.value = value > 0 ? Value::win : value < 0 ? Value::loss : Value::draw;
    } catch (const PlacementSearch::NodeLimitReached&) {
        report.complete = false;
    }
    return report;
}

}  // namespace morris
