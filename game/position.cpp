#include "game/position.hpp"

#include <bit>

namespace morris {

Position start_position(const Variant& variant) {
    Position p;
    p.in_hand[white] = p.in_hand[black] = static_cast<uint8_t>(variant.stones);
    return p;
}

Flaw find_flaw(const Variant& v, const Position& p) {
    if (p.stones[white] & p.stones[black]) return Flaw::shared_point;
    if (p.occupied() & ~v.board->all()) return Flaw::off_board;
    if (p.total(white) > v.stones || p.total(black) > v.stones) return Flaw::too_many_stones;
    if (p.total(p.other()) < kFewestStones) return Flaw::opponent_has_lost;
    if (!hands_fit_turn_order(v.rules, p.side, p.in_hand[p.side], p.in_hand[p.other()]))
        return Flaw::hands_out_of_turn;
    return Flaw::none;
}

std::string invalid_reason(const Variant& v, const Position& p) {
    const char* names[] = {"white", "black"};
    switch (find_flaw(v, p)) {
        case Flaw::none: return "";
        case Flaw::shared_point: return "a point holds two stones";
        case Flaw::off_board: return "a stone stands off the board";
        case Flaw::too_many_stones: {
            const Colour c = p.total(white) > v.stones ? white : black;
            return std::string(names[c]) + " has " + std::to_string(p.total(c)) +
                   " stones on board and in hand, more than the " + std::to_string(v.stones) +
                   " of " + v.name;
        }
        case Flaw::opponent_has_lost:
            return std::string(names[p.other()]) +
                   ", not to move, has fewer than 3 stones: the game ended a turn earlier";
        case Flaw::hands_out_of_turn:
            return p.side == white
                       ? "with white to move both hands must hold the same number"
                       : "with black to move black must hold one more in hand than white";
    }
    return "";
}

std::string counter_flaw(const Rules& rules, int counter) {
    if (counter < 0) return "counter " + std::to_string(counter) + " is negative";
    if (counter == 0) return "";
    if (!rules.has_n_move())
        return "a counter is given but the rules have no n_move (add --rule n_move=N)";
    if (counter >= rules.n_move)
        return "counter " + std::to_string(counter) +
               " is not below n_move=" + std::to_string(rules.n_move) +
               ": the rule has drawn the game";
    return "";
}

}  // namespace morris
