#include "db/ranked_turns.hpp"

#include <algorithm>

#include "game/turns.hpp"

namespace morris {

namespace {

// A total order on outcomes by how good they are for the side choosing.
int preference(const Outcome& o) {
    constexpr int kBase = kMaxPlies + 2;
    switch (o.value) {
        case Value::win: return 2 * kBase - o.plies;
        case Value::draw: return kBase;
        case Value::loss: return o.plies;
    }
    return 0;
}

Outcome for_the_mover(const Outcome& after) {
    switch (after.value) {
        case Value::loss: return {Value::win, after.plies + 1};
        case Value::win: return {Value::loss, after.plies + 1};
        case Value::draw: return {};
    }
    return {};
}

}  // namespace

bool better(const Outcome& a, const Outcome& b) { return preference(a) > preference(b); }

RankedTurns rank_turns(const Database& db, const Position& p) {
    RankedTurns result;
    std::vector<Turn> turns;
    generate_turns(db.variant(), p, turns);
    for (const Turn& t : turns) {
        ProbeResult r = db.probe(apply_turn(db.variant(), p, t));
        if (!r.ok()) return {{}, r.error};
        result.turns.push_back({t, for_the_mover(r.outcome)});
    }
    std::stable_sort(
        result.turns.begin(), result.turns.end(),
        [](const RankedTurn& a, const RankedTurn& b) { return better(a.outcome, b.outcome); });
    return result;
}

}  // namespace morris
