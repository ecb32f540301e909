// The sector graph of a variant: every sector of valid positions, its
// successor sectors, and the order in which to solve them.

#pragma once

#include <functional>
#include <map>
#include <vector>

#include "game/sector.hpp"
#include "game/variant.hpp"

namespace morris {

struct SectorGraph {
    // Every sector of valid positions (docs/rules.md §6: reachable from the start or
    // not) whose side to move still has 3 stones; a successor where it has
    // fewer is a lost position and has no sector.
    std::vector<SectorKey> sectors;
    std::map<SectorKey, std::vector<SectorKey>> successors;
    // Sectors that reach each other (nine's moving 9-8 and 8-9) are one unit;
    // units come successors first, so each can be solved from the ones before.
    std::vector<std::vector<SectorKey>> units;

    bool contains(const SectorKey& key) const { return successors.count(key) != 0; }
};

SectorGraph sector_graph(const Variant& variant);

// The graph's units with sibling placement sectors paired (two sectors with
// the same stones on the board whose children are the same sectors' blocks):
// the first pass walks a pair once, ranking each position and each of its
// successors once for both (Unit::siblings). Pairs are chosen so
// that the units still come successors first.
std::vector<std::vector<SectorKey>> sibling_units(const Variant& variant, const SectorGraph& graph);

// Every sector `targets` depend on, themselves included, except below the
// sectors for which `done` is true: those are kept but not looked through.
std::vector<SectorKey> dependencies(const SectorGraph& graph, const std::vector<SectorKey>& targets,
                                    const std::function<bool(const SectorKey&)>& done);

// The solved sectors a unit reads: its sectors' successors outside it, once each.
std::vector<SectorKey> unit_children(const SectorGraph& graph, const std::vector<SectorKey>& unit);

}  // namespace morris
