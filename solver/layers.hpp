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

// What a layer costs pushed or pulled. A model says how the cost grows with
// the layer's counts, in nanoseconds of one core; its constants were fitted
// to nine's units 3-8, 4-9 and 6-9 on one host (scripts/bench-units.sh,
// docs/performance.md). Hosts differ most in what a cache miss costs, which
// weighs on the two ways differently, so each way's prediction is scaled by
// what its layers have measured on the running host: the time they took
// over the time the model predicted. One PropagationCost lives through a
// solve and learns from every unit.
class PropagationCost {
  public:
    // Scales to start from (1: the host of the fit); tests skew them to
    // drive the choice either way. Learning multiplies a scale: 0 stays 0.
    explicit PropagationCost(double push_scale = 1, double pull_scale = 1)
        : push_scale_(push_scale), pull_scale_(pull_scale) {}

    struct Estimate {
        double push_ns, pull_ns;  // unscaled, of one core
    };
    // Pushing `decided` positions of the sector swapped from `into`, or
    // reading the turns of `into`'s undecided positions (`exchanges`: pull
    // counts a flying mover's turns with bitmaps). The turns between the two
    // sectors were counted in the first pass.
    static Estimate estimate(const Unit& unit, size_t decided, int into, bool exchanges);
    bool pull_is_cheaper(const Estimate& e) const {
        return e.pull_ns * pull_scale_ < e.push_ns * push_scale_;
    }
    // A layer pushed (or pulled) took `core_seconds` (wall time times the
    // threads that ran it) where the model predicted `predicted_ns`.
    void record(bool pulled, double predicted_ns, double core_seconds);

    double push_scale() const { return push_scale_; }
    double pull_scale() const { return pull_scale_; }

  private:
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
    // Layers predicted shorter are not measured: their time is mostly
    // starting threads and the clock's own noise.
    static constexpr double kLeastMeasuredNs = 5e6;
    // How far one layer moves a scale (geometrically), and how far a scale
    // may go from the fit: one odd layer (a page fault storm, another
    // process) must not swing the choice for a whole unit.
    static constexpr double kLearningRate = 0.25;
    static constexpr double kWidestRatio = 8;

    double push_scale_, pull_scale_;
};

class LayerLoop {
  public:
    // Throws std::invalid_argument for push options out of range.
    LayerLoop(Unit& unit, const SolveOptions& options, PropagationCost& cost);
    // Decides what the first pass left undecided, as far as it can be:
    // what is left is drawn.
    void run();

  private:
    void propagate(const Layer& share, int into, int d);
    void decide_candidates(int d);
    Layer take_sector(Layer& layer, size_t s) const;

    Unit& unit_;
    Push push_;
    Pull pull_;
    PropagationCost& cost_;
    Propagation propagation_;
    bool progress_;
};

}  // namespace morris
