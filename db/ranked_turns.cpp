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

}  // namespace

Outcome for_the_mover(const Outcome& after) {
    switch (after.value) {
        case Value::loss: return {Value::win, after.plies + 1};
        case Value::win: return {Value::loss, after.plies + 1};
        case Value::draw: return {};
    }
    return {};
}

Outcome at_counter(const Rules& rules, const Outcome& stored, int counter) {
    if (!rules.has_n_move() || stored.value == Value::draw) return stored;
    return stored.plies <= rules.n_move - counter ? stored : Outcome{};
}

Outcome after_turn(const Rules& rules, const Turn& turn, const Outcome& stored, int counter) {
    if (!rules.has_n_move()) return stored;
    if (resets_counter(turn))
        return stored.value == Value::draw ? stored : Outcome{stored.value, 0};
    return at_counter(rules, stored, counter + 1);
}

bool better(const Outcome& a, const Outcome& b) { return preference(a) > preference(b); }

RankedTurns rank_turns(const Database& db, const Position& p, int counter) {
    const Rules& rules = db.variant().rules;
    RankedTurns result;
    std::vector<Turn> turns;
    generate_turns(db.variant(), p, turns);
    for (const Turn& t : turns) {
        ProbeResult r = db.probe(apply_turn(db.variant(), p, t));
        if (!r.ok()) return {{}, r.error, r.needs_full_database};
        const Outcome after = after_turn(rules, t, r.outcome, counter);
        result.turns.push_back({t, for_the_mover(after),
                                after.value == Value::draw && r.outcome.value != Value::draw});
    }
    std::stable_sort(
        result.turns.begin(), result.turns.end(),
        [](const RankedTurn& a, const RankedTurn& b) { return better(a.outcome, b.outcome); });
    return result;
}

PickedTurn pick_turn(const Database& db, const Position& p, int counter) {
    const RankedTurns ranked = rank_turns(db, p, counter);
    if (!ranked.ok()) return {std::nullopt, ranked.error, ranked.needs_full_database};
    if (ranked.turns.empty()) return {};
    const RankedTurn& best = ranked.turns.front();
    if (best.outcome.value != Value::draw) return {best, ""};
    // Among the drawing turns, the most losing replies for the opponent.
    const RankedTurn* chosen = &best;
    int most_mistakes = -1;
    const Rules& rules = db.variant().rules;
    for (const RankedTurn& t : ranked.turns) {
        if (t.outcome.value != Value::draw) break;  // ranked: draws come before losses
        const int after = counter_after(t.turn, counter);
        if (rules.has_n_move() && after >= rules.n_move) continue;  // the rule ends the game
        const RankedTurns replies = rank_turns(db, apply_turn(db.variant(), p, t.turn), after);
        if (!replies.ok()) return {std::nullopt, replies.error, replies.needs_full_database};
        const int mistakes = static_cast<int>(
            std::count_if(replies.turns.begin(), replies.turns.end(),
                          [](const RankedTurn& r) { return r.outcome.value == Value::loss; }));
        if (mistakes > most_mistakes) most_mistakes = mistakes, chosen = &t;
    }
    return {*chosen, ""};
}

}  // namespace morris
