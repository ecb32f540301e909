#include "solver/sector_graph.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>

#include "game/counts.hpp"

namespace morris {
namespace {

// Tarjan's strongly connected components of the graph whose nodes are
// groups of sectors, each group named by its leader (`leader_of`): each
// component is emitted after every component it reaches, which is the
// order we solve in, as the sorted sectors of its groups.
std::vector<std::vector<SectorKey>> units_in_order(
    const SectorGraph& g, const std::map<SectorKey, std::vector<SectorKey>>& groups,
    const std::function<SectorKey(const SectorKey&)>& leader_of) {
    std::map<SectorKey, int> number, low;
    std::set<SectorKey> on_stack;
    std::vector<SectorKey> stack;
    std::vector<std::vector<SectorKey>> units;
    int counter = 0;
    std::function<void(const SectorKey&)> visit = [&](const SectorKey& k) {
        number[k] = low[k] = counter++;
        stack.push_back(k);
        on_stack.insert(k);
        for (const SectorKey& member : groups.at(k))
            for (const SectorKey& successor : g.successors.at(member)) {
                const SectorKey s = leader_of(successor);
                if (s == k) continue;
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
            int popped = 0;
            bool grouped = false;
            do {
                s = stack.back();
                stack.pop_back();
                on_stack.erase(s);
                const std::vector<SectorKey>& group = groups.at(s);
                unit.insert(unit.end(), group.begin(), group.end());
                ++popped;
                grouped |= group.size() > 1;
            } while (!(s == k));
            if (popped > 1 && grouped)
                throw std::logic_error("sectors paired in " + to_string(unit) +
                                       " reach each other through another");
            std::sort(unit.begin(), unit.end());
            units.push_back(unit);
        }
    };
    for (const SectorKey& k : g.sectors)
        if (leader_of(k) == k && !number.count(k)) visit(k);
    return units;
}

// Every sector a group of its own.
std::vector<std::vector<SectorKey>> units_in_order(const SectorGraph& g) {
    std::map<SectorKey, std::vector<SectorKey>> groups;
    for (const SectorKey& k : g.sectors) groups[k] = {k};
    return units_in_order(g, groups, [](const SectorKey& k) { return k; });
}

// The sibling a placement sector is solved with in one walk (see
// sibling_units), if it has one: the sector with the same stones on the
// board, a stone fewer in hand on one side, whose positions' children all
// have the same board counts. Pairs are chosen so that no two reach each
// other through a third: {m-o-k-k, m-o-k-(k-1)} where the mover has as many
// stones on the board as the opponent or more, {m-o-(l+1)-l, m-o-l-l} where
// it has two fewer or more; none where it has one fewer, whose sectors
// reach each other's sibling in one ply.
std::optional<SectorKey> sibling_of(const Variant& v, const SectorGraph& g, const SectorKey& k) {
    auto walks_by_group = [&](const SectorKey& s) {
        return g.contains(s) && !mover_may_move(v, s) && s.mover_in_hand > 0 &&
               s.mover_on_board + s.mover_in_hand >= kFewestStones;
    };
    // Under place_or_move hands need not shrink every ply: a pair could
    // reach itself (lasker's 0-3-4-3 places into 3-1-3-3, which moves,
    // closes a mill and leaves 0-3-3-3).
    if (v.rules.placement != Placement::place_only || most_removals(v.rules) != 1 ||
        !walks_by_group(k))
        return std::nullopt;
    const int m = k.mover_on_board, o = k.opponent_on_board;
    const int hand = k.mover_in_hand, their_hand = k.opponent_in_hand;
    auto key = [&](int mine, int theirs) {
        return SectorKey{k.mover_on_board, k.opponent_on_board, static_cast<uint8_t>(mine),
                         static_cast<uint8_t>(theirs)};
    };
    std::optional<SectorKey> sibling;
    if (m >= o && hand == their_hand) sibling = key(hand, hand - 1);
    if (m >= o && hand == their_hand + 1) sibling = key(hand, hand);
    if (o >= m + 2 && hand == their_hand + 1) sibling = key(their_hand, their_hand);
    if (o >= m + 2 && hand == their_hand) sibling = key(hand + 1, hand);
    if (sibling && sibling->mover_in_hand > 0 && walks_by_group(*sibling)) return sibling;
    return std::nullopt;
}

}  // namespace

SectorGraph sector_graph(const Variant& v) {
    SectorGraph g;
    const uint8_t stones = static_cast<uint8_t>(v.stones);
    // Every valid sector, reachable from the start or not: docs/rules.md §6 lets any
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
        for (const SectorKey& s : successor_sectors(v, k)) {
            if (is_lost_sector(s)) continue;
            next.push_back(s);
            if (seen.insert(s).second) pending.push_back(s);
        }
    }
    std::sort(g.sectors.begin(), g.sectors.end());
    g.units = units_in_order(g);
    return g;
}

std::vector<std::vector<SectorKey>> sibling_units(const Variant& v, const SectorGraph& g) {
    std::map<SectorKey, std::vector<SectorKey>> groups;
    std::map<SectorKey, SectorKey> leader;
    for (const SectorKey& k : g.sectors) {
        const std::optional<SectorKey> sibling = sibling_of(v, g, k);
        // The lesser key leads; its sibling joins its group.
        if (sibling && *sibling < k) continue;
        groups[k] = {k};
        leader.emplace(k, k);
        if (sibling) groups[k].push_back(*sibling), leader.emplace(*sibling, k);
    }
    return units_in_order(g, groups, [&](const SectorKey& k) { return leader.at(k); });
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
