#include "solver/sector_graph.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "indexing/position.hpp"

namespace morris {
namespace {

// Stones a turn that closes one or two mills can leave, as counts.
std::vector<SectorKey> successor_keys(const Variant& v, const SectorKey& k) {
    std::vector<SectorKey> result;
    const int points = v.board->points;
    const bool removes_two = v.rules.double_mill == DoubleMill::two;
    auto add_after = [&](int mover_board_after, int mover_hand_after) {
        if (k.mover_on_board + k.opponent_on_board >= points) return;  // no empty point
        auto next = [&](int opponent_board) {
            result.push_back({static_cast<uint8_t>(opponent_board),
                              static_cast<uint8_t>(mover_board_after), k.opponent_in_hand,
                              static_cast<uint8_t>(mover_hand_after)});
        };
        next(k.opponent_on_board);
        constexpr int kStonesForAMill = 3;
        constexpr int kStonesForTwoMills = 5;
        if (mover_board_after >= kStonesForAMill && k.opponent_on_board >= 1)
            next(k.opponent_on_board - 1);
        if (removes_two && mover_board_after >= kStonesForTwoMills && k.opponent_on_board >= 2)
            next(k.opponent_on_board - 2);
    };
    if (k.mover_in_hand > 0) add_after(k.mover_on_board + 1, k.mover_in_hand - 1);
    bool may_move = k.mover_in_hand == 0 ||
                    (v.rules.placement == Placement::place_or_move && k.mover_on_board > 0);
    if (may_move && k.mover_on_board > 0) add_after(k.mover_on_board, k.mover_in_hand);
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

// Tarjan's strongly connected components: each is emitted after every
// component it reaches, which is the order we solve in.
std::vector<std::vector<SectorKey>> units_in_order(const SectorGraph& g) {
    std::map<SectorKey, int> number, low;
    std::set<SectorKey> on_stack;
    std::vector<SectorKey> stack;
    std::vector<std::vector<SectorKey>> units;
    int counter = 0;
    std::function<void(const SectorKey&)> visit = [&](const SectorKey& k) {
        number[k] = low[k] = counter++;
        stack.push_back(k);
        on_stack.insert(k);
        for (const SectorKey& s : g.successors.at(k)) {
            if (!number.count(s)) {
                visit(s);
                low[k] = std::min(low[k], low[s]);
            } else if (on_stack.count(s)) {
                low[k] = std::min(low[k], number[s]);
            }
        }
        if (low[k] == number[k]) {
            std::vector<SectorKey> unit;
            SectorKey s;
            do {
                s = stack.back();
                stack.pop_back();
                on_stack.erase(s);
                unit.push_back(s);
            } while (!(s == k));
            std::sort(unit.begin(), unit.end());
            units.push_back(unit);
        }
    };
    for (const SectorKey& k : g.sectors)
        if (!number.count(k)) visit(k);
    return units;
}

}  // namespace

bool is_lost_sector(const SectorKey& k) {
    return k.mover_on_board + k.mover_in_hand < kFewestStones;
}

Colour side_to_move(const Variant& v, const SectorKey& k) {
    bool black =
        v.rules.placement == Placement::place_only && k.mover_in_hand == k.opponent_in_hand + 1;
    return black ? Colour::black : Colour::white;
}

bool is_valid_sector(const Variant& v, const SectorKey& k) {
    const int mover = k.mover_on_board + k.mover_in_hand;
    const int opponent = k.opponent_on_board + k.opponent_in_hand;
    if (k.mover_on_board + k.opponent_on_board > v.board->points) return false;
    if (mover < kFewestStones || mover > v.stones) return false;
    if (opponent < kFewestStones || opponent > v.stones) return false;
    // SPEC §5's turn order: white to move holds as many as black, black one more.
    return v.rules.placement == Placement::place_or_move || k.mover_in_hand == k.opponent_in_hand ||
           k.mover_in_hand == k.opponent_in_hand + 1;
}

SectorGraph sector_graph(const Variant& v) {
    SectorGraph g;
    const uint8_t stones = static_cast<uint8_t>(v.stones);
    // Every valid sector, reachable from the start or not: SPEC §5 lets any
    // valid position be queried.
    std::vector<SectorKey> pending;
    for (int mb = 0; mb <= v.board->points; ++mb)
        for (int ob = 0; mb + ob <= v.board->points; ++ob)
            for (int mh = 0; mh <= stones; ++mh)
                for (int oh = 0; oh <= stones; ++oh) {
                    const SectorKey k{static_cast<uint8_t>(mb), static_cast<uint8_t>(ob),
                                      static_cast<uint8_t>(mh), static_cast<uint8_t>(oh)};
                    if (is_valid_sector(v, k)) pending.push_back(k);
                }
    std::set<SectorKey> seen(pending.begin(), pending.end());
    while (!pending.empty()) {
        SectorKey k = pending.back();
        pending.pop_back();
        g.sectors.push_back(k);
        auto& next = g.successors[k];
        for (const SectorKey& s : successor_keys(v, k)) {
            if (is_lost_sector(s)) continue;
            next.push_back(s);
            if (seen.insert(s).second) pending.push_back(s);
        }
    }
    std::sort(g.sectors.begin(), g.sectors.end());
    g.units = units_in_order(g);
    return g;
}

std::vector<SectorKey> unit_children(const SectorGraph& g, const std::vector<SectorKey>& unit) {
    std::vector<SectorKey> children;
    for (const SectorKey& k : unit)
        for (const SectorKey& s : g.successors.at(k))
            if (std::find(unit.begin(), unit.end(), s) == unit.end() &&
                std::find(children.begin(), children.end(), s) == children.end())
                children.push_back(s);
    return children;
}

std::vector<SectorKey> dependencies(const SectorGraph& g, const std::vector<SectorKey>& targets,
                                    const std::function<bool(const SectorKey&)>& done) {
    std::set<SectorKey> seen;
    std::vector<SectorKey> pending;
    for (const SectorKey& t : targets)
        if (g.contains(t) && seen.insert(t).second) pending.push_back(t);
    while (!pending.empty()) {
        SectorKey k = pending.back();
        pending.pop_back();
        if (done(k)) continue;
        for (const SectorKey& s : g.successors.at(k))
            if (seen.insert(s).second) pending.push_back(s);
    }
    return {seen.begin(), seen.end()};
}

}  // namespace morris
