#include "solver/unit.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace morris {

void append_first(Layers& layers, int distance, uint64_t position) {
    std::vector<PositionList>& parts = layer_at(layers, distance).parts;
    if (parts.empty()) parts.emplace_back();
    parts.back().push_back(static_cast<UnitPosition>(position));
}

bool only_places(const Variant& v, const std::vector<SectorKey>& unit) {
    return std::none_of(unit.begin(), unit.end(),
                        [&](const SectorKey& k) { return mover_may_move(v, k); });
}

bool are_siblings(const Variant& v, const std::vector<SectorKey>& unit) {
    return unit.size() == 2 && only_places(v, unit);
}

Distances Distances::of(const Rules& rules) {
    if (!rules.has_n_move())
        return {.win_step = 1,
                .children = ChildView::stored,
                .lost_child = encode({Value::loss, 0}),  // our win in 1 ply
                .last_layer = State::kMostPlies};
    return {.win_step = 3,  // 2 * (plies + 1) + 1 from 2 * plies
            .children = ChildView::reset,
            .lost_child = kResetLost,  // our win in 1 ply: layer 3
            .last_layer = 2 * rules.n_move + 1};
}

Unit::Unit(const Variant& v, const std::vector<SectorKey>& keys, PagePool& pool)
    : variant(v), distances(Distances::of(v.rules)), classes(symmetry_classes(*v.board)) {
    only_placements = only_places(v, keys);
    // Siblings do not read each other: each one's states begin a huge
    // page, so that its solved entries can be kept for the units after on
    // their own (HugeArray::split).
    siblings = are_siblings(v, keys);
    constexpr uint64_t kStatesPerHugePage = kHugePage / sizeof(State);
    for (const SectorKey& k : keys) {
        const SectorIndex& index = sector_index(*v.board, k.mover_on_board, k.opponent_on_board);
        if (siblings)
            size = (size + kStatesPerHugePage - 1) / kStatesPerHugePage * kStatesPerHugePage;
        sectors.push_back({k, &index, side_to_move(v, k), size});
        size += index.size();
        positions += index.size();
    }
    for (UnitSector& s : sectors) {
        const SectorKey& k = s.key;
        const SectorKey swapped{k.opponent_on_board, k.mover_on_board, k.opponent_in_hand,
                                k.mover_in_hand};
        for (size_t i = 0; i < sectors.size(); ++i)
            if (sectors[i].key == swapped) s.swapped = static_cast<int>(i);
    }
    internal_turns.assign(sectors.size(), 0);
    undecided.assign(sectors.size(), 0);
    if (size > std::numeric_limits<UnitPosition>::max())
        throw std::runtime_error(label("") + "has too many positions for one unit");
    states = HugeArray<State>(size, kUninitialized, &pool);  // the first pass sets each
}

std::string Unit::label(const char* pass) const {
    std::vector<SectorKey> keys;
    for (const auto& s : sectors) keys.push_back(s.key);
    return variant.name + " " + to_string(keys) + " " + pass;
}

void Unit::conclude_layer(Layers& local, int into) {
    uint64_t count = 0;
    for (const auto& l : local) count += l.size();
#pragma omp critical
    {
        undecided[into] -= count;
        merge(decided, local);
    }
}

}  // namespace morris
