// A unit being solved: its sectors (one, or two that reach each other, such
// as nine's 9-8 and 8-9), the state of each of its positions, the layers of
// positions decided at each distance, and its counts. The first pass
// (first_pass.hpp) fills it, the layer loop (layers.hpp) with push
// (push.hpp) and pull (pull.hpp) finishes it, the driver (solve.cpp) writes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "game/sector.hpp"
#include "game/variant.hpp"
#include "indexing/huge_array.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/solved_sectors.hpp"
#include "solver/state.hpp"
#include "solver/stats.hpp"

namespace morris {

// Less work than this runs on one thread: starting and joining a team costs
// more than it saves (seven has hundreds of small sectors and layers).
inline constexpr uint64_t kParallelWork = 1 << 14;
inline constexpr size_t kCacheLine = 64;  // bytes

struct UnitSector {
    SectorKey key;
    const SectorIndex* index;
    Colour side;
    uint64_t offset;  // of its first position in the unit's arrays
    // The unit's sector (its number) of the positions one quiet move away,
    // before or after, which have the colours swapped; -1 if none.
    int swapped = -1;
};

// Positions (by their place in the unit, which has fewer than 2^32) decided
// at each distance, and win candidates waiting for theirs.
using UnitPosition = uint32_t;
using PositionList = std::vector<UnitPosition>;

// The positions at one distance, in the lists of the threads that found
// them: the threads' lists are moved in, not copied. Copied into one list,
// a large unit's were grown, faulted in and copied by one thread while the
// others waited (docs/performance.md, "Layers").
struct Layer {
    std::vector<PositionList> parts;

    uint64_t size() const {
        uint64_t n = 0;
        for (const PositionList& part : parts) n += part.size();
        return n;
    }
    bool empty() const { return size() == 0; }
    // Takes a thread's list (an empty one is dropped, its capacity freed).
    void add(PositionList&& part) {
        if (!part.empty()) parts.push_back(std::move(part));
        part = {};
    }
};
using Layers = std::vector<Layer>;

// The layer at `distance`, grown into existence if need be.
inline Layer& layer_at(Layers& layers, int distance) {
    if (layers.size() <= static_cast<size_t>(distance)) layers.resize(distance + 1);
    return layers[distance];
}

// Appends a position to the layer at `distance`, in the list a thread
// appends to there. A layer's first position takes the way out of line
// that makes the list; every later one is a vector append, inlined where
// push and pull decide positions (a call each was 1% of a moving unit).
void append_first(Layers& layers, int distance, uint64_t position);
inline void append(Layers& layers, int distance, uint64_t position) {
    if (static_cast<size_t>(distance) < layers.size() && !layers[distance].parts.empty()) [[likely]]
        layers[distance].parts.back().push_back(static_cast<UnitPosition>(position));
    else
        append_first(layers, distance, position);
}

// Moves every list of `from` into `into`, and leaves `from` empty.
inline void merge(Layers& into, Layers& from) {
    for (size_t d = 0; d < from.size(); ++d)
        for (PositionList& part : from[d].parts)
            layer_at(into, static_cast<int>(d)).add(std::move(part));
    from.clear();
}

// Whether every position of a unit only places (place-only variants'
// sectors with stones in the mover's hand): then every turn leaves the unit,
// and one pass settles all, without layers or push.
bool only_places(const Variant& variant, const std::vector<SectorKey>& unit);

// Whether a unit is two sibling placement sectors: units of more than one
// sector that only place come only from sibling_units.
bool are_siblings(const Variant& variant, const std::vector<SectorKey>& unit);

// How layers' distances grow. Without the N-move rule a layer is a distance
// in plies, odd for wins. Under it (docs/rules.md §8) plies count to the
// next resetting turn, and a win and a loss may have the same plies: layer
// L = 2 * plies + (1 for a win) keeps wins in odd layers, so that the state
// word, push and pull work unchanged, and a file's entry is L + 1 either way
// (EntryCode::parity, EntryCode::explicit_value). Only these differ.
struct Distances {
    // A loss in layer L makes its undecided predecessors wins in L + win_step.
    int win_step;
    // How SolvedSectors holds the children. Under the rule every turn into
    // a solved sector resets the counter, so the first pass sees each child
    // as lost (our win in 1 ply: layer 3) or won (our loss in 1: layer 2),
    // its plies beyond the turn not counting (ChildView::reset).
    ChildView children;
    // The entry of a successor lost for want of stones, as children are held.
    Entry lost_child;
    // Positions in later layers are draws: the rule's N plies.
    int last_layer;

    // The first layer a win can have, a turn into a lost child's: the first
    // pass decides it at once.
    int fastest_win() const { return lost_child; }

    static Distances of(const Rules& rules);
};

struct Unit {
    // The unit's states take their memory from `pool`, at once.
    Unit(const Variant& variant, const std::vector<SectorKey>& keys, PagePool& pool);

    const Variant& variant;
    const Distances distances;
    const SymmetryClasses& classes;  // looked up once: the lookup takes a lock
    std::vector<UnitSector> sectors;
    uint64_t size = 0;       // of the states: the sectors' positions, spaced as `sectors` says
    uint64_t positions = 0;  // the sectors'
    HugeArray<State> states;
    // Every position places a stone and cannot move: one pass decides all,
    // without counters or layers.
    bool only_placements = false;
    // Two sibling placement sectors (sibling_units): the first pass walks
    // them together, and each one's states begin a huge page.
    bool siblings = false;
    std::atomic<bool> has_internal_turns{false};
    Layers decided, candidates;
    // By sector: quiet moves counted in the first pass (those of its
    // positions, into the swapped sector), and positions not yet decided.
    std::vector<uint64_t> internal_turns, undecided;
    UnitStats stats;

    // "nine 9-8-0-0+8-9-0-0 <pass>", for progress lines and errors.
    std::string label(const char* pass) const;
    const UnitSector& sector_holding(uint64_t u) const {
        size_t s = sectors.size() - 1;
        while (sectors[s].offset > u) --s;
        return sectors[s];
    }
    // Merges what a thread decided in sector `into` while a layer was processed.
    void conclude_layer(Layers& local, int into);
};

}  // namespace morris
