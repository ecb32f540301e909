// Push: a layer of decided positions reaches its predecessors inside the
// unit by un-moves (class_unmoves.hpp). A loss at distance d makes each
// predecessor a win at d + 1; a win at d takes one from each predecessor's
// counter (state.hpp), and at zero the predecessor is lost. The layer loop
// (layers.hpp) chooses push where few positions are decided, pull
// (pull.hpp) where few are left.
//
// Updates are not applied where they land, scattered over the unit: they are
// listed by region of states and applied region by region, each region in
// one core's cache and on one thread, without atomics (propagation blocking:
// Beamer, Asanovic and Patterson, "Reducing PageRank communication via
// propagation blocking", IPDPS 2017).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solver/class_unmoves.hpp"
#include "solver/solve.hpp"
#include "solver/unit.hpp"

namespace morris {

class Push {
  public:
    // Throws std::invalid_argument if options.push_region_bits is out of range.
    Push(Unit& unit, const SolveOptions& options);

    // Pushes layer d's positions (all of the sector swapped from `into`) to
    // their predecessors in sector `into`.
    void run(const Layer& layer, int d, int into);
    // Frees the buffers, kept from layer to layer until then.
    void release();

    // The most bytes push's buffers take for a unit of `positions`
    // positions (`resets`: under the N-move rule): unit_memory adds this to
    // its estimate.
    static uint64_t memory_need(uint64_t positions, const SolveOptions& options, bool resets);

  private:
    // A decided position being pushed, seen under the symmetry that takes its
    // opponent's stones to their class's representative.
    struct Pushed {
        UnitPosition u;
        Bitboard mover;  // its mover's stones under that symmetry
        uint32_t opponent_class;
    };
    // A predecessor reached from a position some symmetry fixes: those
    // reached more than once count together.
    struct Repeat {
        uint64_t index;  // in its sector
        Bitboard mover;  // its mover's stones, not necessarily canonical
        bool operator<(const Repeat& other) const { return index < other.index; }
    };
    using Bins = std::vector<std::vector<uint32_t>>;  // by region: updates

    void push_chunk(std::span<const UnitPosition> positions, int d, int into, bool flying);
    Stones seen_stones(const Pushed& q, const UnitSector& sector) const;
    void order_by_opponent_class(std::span<const UnitPosition> positions, const UnitSector& sector);
    size_t chunk_size(int into) const;
    uint32_t update_of(uint64_t in_sector, int weight) const;
    void list_updates(const Pushed& q, const UnitSector& sector, bool won, ClassUnmoves& unmoves,
                      std::vector<Repeat>& repeats, Bins& bins) const;
    uint64_t apply_updates(uint32_t r, const UnitSector& target, int d, Layers& decided);

    Unit& unit_;
    int region_bits_;      // of push's regions
    uint64_t push_bytes_;  // for push's buffers
    // By thread, then region of states: updates listed (their capacity is
    // kept from layer to layer).
    std::vector<Bins> bins_;
    // Short pieces of a layer's lists gathered into one chunk, and a chunk
    // being pushed with its stones, then in order (their capacity is kept
    // too: pages the kernel gives anew cost it a clearing each).
    PositionList gathered_;
    std::vector<Pushed> unsorted_, pushed_;
};

}  // namespace morris
