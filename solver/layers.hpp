// The layer loop: after the first pass (first_pass.hpp), positions are
// decided layer by layer in distance. A loss at d makes its predecessors
// wins at d + 1; a win at d takes one from each predecessor's count of turns
// not yet known to lead to the opponent's win, and at zero it is lost. Each
// layer reaches its predecessors by push (push.hpp) or pull (pull.hpp),
// whichever the cost model says is cheaper; both give the same states.
#pragma once

#include <cstddef>
#include <vector>

#include "solver/pull.hpp"
#include "solver/push.hpp"
#include "solver/solve.hpp"
#include "solver/unit.hpp"

namespace morris {

// What a layer costs pushed or pulled, in nanoseconds of one core. The
// constants were fitted to nine's units 3-8, 4-9 and 6-9 solved with
// --propagation push and pull (scripts/bench-units.sh); docs/performance.md
// says how, and how each changed.
struct PropagationCost {
    // Push: an un-turn costs an index and an update listed, then applied in cache.
    static constexpr double kPushPerUnturn = 30;
    // Pull reads every state of the sector in sequence...
    static constexpr double kPullPerPosition = 4;
    // ...and for each undecided position an index per turn...
    static constexpr double kPullPerTurn = 3;
    // ...and a cache miss per turn, unless its successors' block has fewer
    // lines than it has turns: then they share lines.
    static constexpr double kPullPerMiss = 25;
    // A flying mover's turn, counted from bitmaps (pull.hpp).
    static constexpr double kPullPerExchange = 2.5;

    // Whether reading the turns of sector `into`'s undecided positions costs
    // less than the un-turns of `decided` positions of the sector they lead
    // to. The turns between the two sectors were counted in the first pass;
    // `exchanges`: pull counts them with bitmaps.
    static bool pull_is_cheaper(const Unit& unit, size_t decided, int into, bool exchanges);
};

class LayerLoop {
  public:
    // Throws std::invalid_argument for push options out of range.
    LayerLoop(Unit& unit, const SolveOptions& options);
    // Decides what the first pass left undecided, as far as it can be:
    // what is left is drawn.
    void run();

  private:
    bool pulls(size_t decided, int into, int d) const;
    void decide_candidates(int d);
    std::vector<UnitPosition> take_sector(std::vector<UnitPosition>& layer, size_t s) const;

    Unit& unit_;
    Push push_;
    Pull pull_;
    Propagation propagation_;
    bool progress_;
};

}  // namespace morris
