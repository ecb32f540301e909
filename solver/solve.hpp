// The retrograde solver: exact values and distances for every sector of a
// variant, unit by unit, each written to the database directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "game/sector.hpp"
#include "game/variant.hpp"
#include "solver/sector_graph.hpp"
#include "solver/stats.hpp"

namespace morris {

struct SectorReport {
    SectorKey key;
    uint64_t positions = 0;
    uint64_t wins = 0, draws = 0, losses = 0;
    double seconds = 0;  // for its whole unit
    uint64_t bytes_on_disk = 0;
    uint64_t peak_memory = 0;  // of the process so far, bytes
    bool skipped = false;      // already in the directory
    // What the unit cost by phase (stats.hpp): on a unit's last sector only.
    std::optional<UnitStats> stats = std::nullopt;
};

// How a layer of decided positions reaches the undecided positions whose
// turns lead to it. Both give the same values; they differ in cost.
enum class Propagation {
    automatic,  // whichever is estimated cheaper, layer by layer
    push,       // un-turns from each decided position: cheap when few are decided
    pull,       // the turns of each undecided position, read again: cheap when few are left
    alternate,  // two layers pushed, two pulled, and so on: tests every hand-over
};

// How the first pass walks a sector that only moves. Both give the same
// values; they differ in cost.
enum class MovingWalk {
    automatic,    // by opponent on a crowded board, in index order otherwise
    index_order,  // states written in sequence, mill-closing moves read at random
    by_opponent,  // mill-closing moves read a few blocks per group, states scattered
};

// How the first pass reads, a group of a placement sector at a time, the
// successors of placements that remove a stone. Both give the same values;
// they differ in cost.
enum class RemovalWalk {
    automatic,             // through views where the sector's sampled rate of mills says they pay
    through_index,         // each successor ranked through its sector's index
    through_views,         // each block the group's removals lead into copied in the group's terms
    through_folded_views,  // those views folded by rank, read once a placement
};

struct SolveOptions {
    std::filesystem::path directory;
    int threads = 0;                 // 0: OpenMP's default
    std::vector<SectorKey> targets;  // empty: every sector of the variant
    bool progress = true;            // a progress line on standard error
    // A unit whose estimated memory exceeds this is refused before it starts;
    // 0 means 80% of the machine's memory.
    uint64_t memory_limit = 0;
    Propagation propagation = Propagation::automatic;   // the same files either way
    MovingWalk moving_walk = MovingWalk::automatic;     // the same files either way
    RemovalWalk removal_walk = RemovalWalk::automatic;  // the same files either way
    // Sibling placement sectors solved as one unit (sibling_units): the
    // same files either way; together their first pass costs about 15%
    // less (docs/performance.md, "Siblings in one walk").
    bool sibling_walk = true;
    // Push lists a layer's updates by region of 2^push_region_bits states (at
    // most 26) before applying them region by region, a chunk of the layer
    // at a time, its buffers about push_bytes (twice that at worst, as they
    // grow). The same files whatever they are: tests make them small to
    // cover many regions and chunks.
    int push_region_bits = 20;
    uint64_t push_bytes = uint64_t{512} << 20;
    // The push-or-pull cost model's scales to start from (PropagationCost in
    // layers.hpp), which it then learns from the time its layers take on the
    // running host (a scale of 0 stays 0: that way is always chosen). The
    // same files whatever they are: tests skew them to drive the choice both
    // ways.
    double push_scale = 1, pull_scale = 1;
    // Called as each sector is solved (its file is on the disk once the
    // next unit's files are started, or when solve returns) or found
    // already written.
    std::function<void(const SectorReport&)> on_sector;
    // Called before each unit is solved, the last one's memory freed, with
    // the bytes of freed memory the unit may find kept without the run
    // needing more than its largest unit (the estimate the memory limit was
    // checked against), the unit's own buffers counted as taking theirs
    // from it: where a caller that has its allocator keep freed memory (as
    // the morris tool does, for the page faults it saves) hands it back if
    // it keeps more, so that one unit's leftovers do not raise the run's
    // peak above that, and returns the bytes it keeps. The solver's page
    // pool keeps the rest of the budget for the next unit's arrays, and
    // without a caller all of it.
    std::function<uint64_t(uint64_t may_keep)> before_unit;
};

// Bytes a unit needs while it is solved, an estimate above the peaks
// measured: 2 per position of the unit (value and turn counter), 2 more for
// its files' compressed blocks (at most the entries' size), and 2 per
// position of the solved sectors it reads; and, when its positions move, 4
// per position for the positions decided at distances not yet processed
// and push's buffers (twice options.push_bytes, or less for a small unit).
uint64_t unit_memory(const Variant& variant, const SectorGraph& graph,
                     const std::vector<SectorKey>& unit, const SolveOptions& options);
// The part of unit_memory the heap holds: the unit's buffers (its files'
// blocks, the first pass's held states, layers and push's buffers), as
// opposed to the page pool's arrays (its states and its children's entries).
uint64_t unit_heap_memory(const Variant& variant, const std::vector<SectorKey>& unit,
                          const SolveOptions& options);

// The units solve() solves, in its order: the sector graph's, or with
// options.sibling_walk sibling_units', a pair that would need more than
// `memory_limit` bytes split into its two sectors.
std::vector<std::vector<SectorKey>> solve_order(const Variant& variant, const SectorGraph& graph,
                                                const SolveOptions& options, uint64_t memory_limit);

// Solves what `options` asks for, skipping sectors already written, and
// returns a report per sector. Throws DatabaseError or std::runtime_error.
std::vector<SectorReport> solve(const Variant& variant, const SolveOptions& options);

// 80% of the machine's memory: what memory limits default to.
uint64_t default_memory_limit();

}  // namespace morris
