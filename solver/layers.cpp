// The layer loop (see layers.hpp) and its cost model.
#include "solver/layers.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "solver/progress.hpp"

namespace morris {

PropagationCost::Estimate PropagationCost::estimate(const Unit& unit, size_t decided, int into,
                                                    bool exchanges) {
    const UnitSector& target = unit.sectors[into];
    const SectorIndex& next = *unit.sectors[target.swapped].index;
    const auto target_size = static_cast<double>(target.index->size());
    const auto internal_turns = static_cast<double>(unit.internal_turns[into]);
    const double turns = internal_turns / target_size;
    const double unturns = internal_turns / static_cast<double>(next.size());
    const double block_lines =
        static_cast<double>(
            binomial[unit.variant.board->points - next.mover_stones()][next.opponent_stones()] *
            sizeof(State)) /
        kCacheLine;
    // The share of a position's turns that miss the cache; squared, as the
    // fit to nine's 3-8 (39 flights into blocks of 17.5 lines: 6 ns a turn)
    // and 4-9 (a block far larger than the turns: 18 ns) asks.
    const double shared = std::min(1.0, block_lines / std::max(turns, 1.0));
    const double push = static_cast<double>(decided) * unturns * kPushPerUnturn;
    const double per_turn =
        exchanges ? kPullPerExchange : kPullPerTurn + kPullPerMiss * shared * shared;
    const double pull = target_size * kPullPerPosition +
                        static_cast<double>(unit.undecided[into]) * turns * per_turn;
    return {.push_ns = push, .pull_ns = pull};
}

void PropagationCost::record(bool pulled, double predicted_ns, double core_seconds) {
    if (predicted_ns < kLeastMeasuredNs) return;
    constexpr double kNanosecondsPerSecond = 1e9;
    const double ratio = std::clamp(core_seconds * kNanosecondsPerSecond / predicted_ns,
                                    1 / kWidestRatio, kWidestRatio);
    double& scale = pulled ? pull_scale_ : push_scale_;
    scale = std::pow(scale, 1 - kLearningRate) * std::pow(ratio, kLearningRate);
}

LayerLoop::LayerLoop(Unit& unit, const SolveOptions& options, PropagationCost& cost)
    : unit_(unit),
      push_(unit, options),
      pull_(unit),
      cost_(cost),
      propagation_(options.propagation),
      progress_(options.progress) {}

// Takes layer d's share `share` (positions of the sector swapped from
// `into`) to its predecessors in `into`, pushed or pulled as the
// propagation option or the cost model says, and times it for both.
void LayerLoop::propagate(const Layer& share, int into, int d) {
    const PropagationCost::Estimate estimate =
        PropagationCost::estimate(unit_, share.size(), into, pull_.counts_exchanges(into));
    bool pulls = false;
    switch (propagation_) {
        case Propagation::push: break;
        case Propagation::pull: pulls = true; break;
        case Propagation::alternate: pulls = d % 4 >= 2; break;
        case Propagation::automatic: pulls = cost_.pull_is_cheaper(estimate); break;
    }
    const auto started = std::chrono::steady_clock::now();
    uint64_t work = 0;  // positions the way walks: a team starts above kParallelWork
    if (pulls) {
        pull_.run(d, into);
        work = unit_.sectors[into].index->size();
    } else {
        push_.run(share, d, into);
        work = share.size();
    }
    const double seconds = seconds_since(started);
    const int threads = work >= kParallelWork ? omp_get_max_threads() : 1;
    cost_.record(pulls, pulls ? estimate.pull_ns : estimate.push_ns, seconds * threads);
    PhaseStats& phase = pulls ? unit_.stats.pull : unit_.stats.push;
    phase.seconds += seconds;
    ++phase.layers;
}

// Layer by layer in distance: a loss at d makes its predecessors wins at
// d + 1; a win at d takes one from each predecessor's count of turns not
// yet known to lead to the opponent's win, and at zero it is lost.
void LayerLoop::run() {
    Progress progress(unit_.label("propagation"), 0, progress_);
    const auto started = std::chrono::steady_clock::now();
    // Layers grow as they are processed; those past the last are draws.
    const auto last = static_cast<size_t>(unit_.distances.last_layer);
    for (size_t d = 0; d <= last && d < std::max(unit_.decided.size(), unit_.candidates.size());
         ++d) {
        const int distance = static_cast<int>(d);
        if (d < unit_.candidates.size()) decide_candidates(distance);
        // Without a turn inside the unit (placement sectors of place-only
        // variants) there is nothing to push to: only the win
        // candidates above still had to be settled.
        if (d >= unit_.decided.size() || !unit_.has_internal_turns) continue;
        Layer layer = std::move(unit_.decided[d]);
        unit_.decided[d] = {};
        // A sector's predecessors are all in one sector, its colours
        // swapped: each sector's share of the layer goes there by the
        // cheaper way.
        for (size_t s = 0; s < unit_.sectors.size(); ++s) {
            const int into = unit_.sectors[s].swapped;
            Layer share = take_sector(layer, s);
            if (share.empty() || into < 0) continue;
            propagate(share, into, distance);
            progress.advance(share.size());
        }
    }
    push_.release();  // its buffers are not needed for writing the files
    // The candidates' share of the time: what push and pull did not take.
    unit_.stats.candidates.seconds =
        seconds_since(started) - unit_.stats.push.seconds - unit_.stats.pull.seconds;
    unit_.stats.push_scale = cost_.push_scale();
    unit_.stats.pull_scale = cost_.pull_scale();
}

// Win candidates at distance d not decided sooner win at d. Their states
// lie scattered over the unit: each is loaded well before it is read. The
// threads share the candidates out: the first pass lists a position as a
// candidate once at most (FirstPass::concluded), so no state is written by
// two threads, and nothing else runs meanwhile.
void LayerLoop::decide_candidates(int d) {
    constexpr size_t kAhead = 16;
    const Layer& candidates = unit_.candidates[d];
    const uint64_t count = candidates.size();
#pragma omp parallel if (count >= kParallelWork)
    {
        PositionList won;
        std::vector<uint64_t> decided_by_sector(unit_.sectors.size(), 0);
        for (const PositionList& part : candidates.parts) {
#pragma omp for schedule(static) nowait
            for (size_t k = 0; k < part.size(); ++k) {
                if (k + kAhead < part.size())
                    __builtin_prefetch(&unit_.states[part[k + kAhead]], 1);
                const UnitPosition u = part[k];
                if (unit_.states[u].is_decided()) continue;
                unit_.states[u] = State::decided(d);
                won.push_back(u);
                ++decided_by_sector[&unit_.sector_holding(u) - unit_.sectors.data()];
            }
        }
#pragma omp critical
        {
            layer_at(unit_.decided, d).add(std::move(won));
            for (size_t s = 0; s < decided_by_sector.size(); ++s)
                unit_.undecided[s] -= decided_by_sector[s];
        }
    }
    unit_.stats.candidates.far_writes += count;
    unit_.candidates[d] = {};
}

// The positions of sector s in a layer; the layer keeps the others. Taken
// sector by sector in order, the last sector's are all that is left.
Layer LayerLoop::take_sector(Layer& layer, size_t s) const {
    if (s + 1 == unit_.sectors.size()) return std::move(layer);
    const uint64_t first = unit_.sectors[s].offset, last = first + unit_.sectors[s].index->size();
    Layer share;
    for (PositionList& part : layer.parts) {
        const auto others = std::partition(part.begin(), part.end(),
                                           [&](UnitPosition u) { return u < first || u >= last; });
        share.add(PositionList(others, part.end()));
        part.erase(others, part.end());
    }
    return share;
}

}  // namespace morris
