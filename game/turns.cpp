#include "game/turns.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

namespace morris {
namespace {

using namespace turn_generation;

bool has_turn(const Variant& v, const Position& p) {
    Bitboard empty = v.board->all() & ~p.occupied();
    if (!empty) return false;
    if (may_place(p)) return true;
    if (!may_move(v, p)) return false;
    for (Bitboard from = p.stones[p.side]; from; from &= from - 1)
        if (destinations(v, p, std::countr_zero(from))) return true;
    return false;
}

}  // namespace

Bitboard removable(const Variant& v, Bitboard opponent_stones) {
    Bitboard unprotected = opponent_stones & ~v.board->in_mills(opponent_stones);
    switch (v.rules.removal) {
        case Removal::standard: return unprotected ? unprotected : opponent_stones;
        case Removal::strict: return unprotected;
        case Removal::lenient: return opponent_stones;
    }
    return 0;
}

Status status(const Variant& v, const Position& p) {
    if (p.total(p.side) < kFewestStones) return Status::loss;
    if (has_turn(v, p)) return Status::playing;
    bool full = (p.occupied() | ~v.board->all()) == ~0u;
    return full && v.rules.full_board == FullBoard::draw ? Status::draw : Status::loss;
}

void generate_turns(const Variant& v, const Position& p, std::vector<Turn>& turns) {
    turns.clear();
    for_each_turn(v, p, [&](const Turn& t) { turns.push_back(t); });
}

void generate_unturns(const Variant& v, const Position& p, std::vector<Position>& predecessors,
                      Unturns kind) {
    predecessors.clear();
    const Colour mover = p.other();
    if (kind == Unturns::all && p.in_hand[mover] < v.stones) {
        // Un-place: a stone goes back into the hand.
        for (Bitboard tos = arrived_without_removal(v, p); tos; tos &= tos - 1) {
            const int to = std::countr_zero(tos);
            Position q = p;
            q.side = mover;
            q.stones[mover] &= ~(1u << to);
            ++q.in_hand[mover];
            if (q.total(mover) >= 3 && is_valid(v, q)) predecessors.push_back(q);
        }
    }
    for_each_unmove(v, p, [&](Bitboard before) {
        Position q = p;
        q.side = mover;
        q.stones[mover] = before;
        predecessors.push_back(q);
    });
}

}  // namespace morris
