// The sector graph of a variant: every sector of valid positions, its
// successor sectors, and the order in which to solve them.

#pragma once

#include <functional>
#include <map>
#include <vector>

#include "indexing/sector.hpp"
#include "indexing/variant.hpp"

namespace morris {

struct SectorGraph {
    // Every sector of valid positions (SPEC §5: reachable from the start or
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

// Every sector `targets` depend on, themselves included, except below the
// sectors for which `done` is true: those are kept but not looked through.
std::vector<SectorKey> dependencies(const SectorGraph& graph, const std::vector<SectorKey>& targets,
                                    const std::function<bool(const SectorKey&)>& done);

// The solved sectors a unit reads: its sectors' successors outside it, once each.
std::vector<SectorKey> unit_children(const SectorGraph& graph, const std::vector<SectorKey>& unit);

// Whether a sector's positions are valid (SPEC §5) and its side to move has
// not lost for want of stones.
bool is_valid_sector(const Variant& variant, const SectorKey& key);

// Whether the side to move of a sector is lost for want of stones.
bool is_lost_sector(const SectorKey& key);

// The colour to move in a sector's positions: black when the hands say the
// first player has placed one more (SPEC §5's turn order), else white.
Colour side_to_move(const Variant& variant, const SectorKey& key);

}  // namespace morris
