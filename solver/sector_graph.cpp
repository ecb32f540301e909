#include "solver/sector_graph.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace morris {
namespace {

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
