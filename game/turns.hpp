// The rules of play (docs/rules.md §4): legal turns, their results, terminal
// positions and the predecessors by turns that remove nothing (un-turns).
//
// for_each_turn is the definition; the other generators are the same turns
// in the shapes the solver's hot loops want (loud turns one by one and quiet
// ones in bulk, quiet moves only, closing moves of a group, un-moves), built
// from the same primitives in turn_generation, and tests/rules_test.cpp
// compares each with for_each_turn on random positions of every variant and
// rule set.
#pragma once

#include <bit>
#include <string_view>
#include <vector>

#include "game/position.hpp"
#include "game/variant.hpp"

namespace morris {

// How a position stands before any turn is looked at.
enum class Status {
    playing,  // the side to move has a legal turn
    loss,     // fewer than 3 stones, or blocked (and the full-board rule says loss)
    draw,     // blocked on a full board under full_board=draw
};

// All legal turns, each removal choice its own turn. Cleared first.
void generate_turns(const Variant& variant, const Position& position, std::vector<Turn>& turns);

// Calls visit(turn) for each legal turn, in generate_turns' order, without
// collecting them: what the solver's hot loop uses.
template <typename Visit>
void for_each_turn(const Variant& variant, const Position& position, Visit&& visit);

// Turns that close no mill: the bulk of both phases.
struct QuietTurns {
    int moves = 0;            // how many moves close no mill
    Bitboard placements = 0;  // the points where a placement closes no mill
};

// The same turns as for_each_turn, except that quiet ones are not visited
// but returned in bulk: the solver counts quiet moves (they stay in the
// sector) and looks quiet placements up in one successor block.
template <typename Visit>
QuietTurns for_each_loud_turn(const Variant& variant, const Position& position, Visit&& visit);

// Calls visit(from, to) for each move that removes nothing: it closes no
// mill, or nothing of the opponent is removable. These are the turns that
// keep every count, so they stay inside a solver's unit.
template <typename Visit>
void for_each_quiet_move(const Variant& variant, const Position& position, Visit&& visit);

Status status(const Variant& variant, const Position& position);

// Whether a turn resets the N-move counter (docs/rules.md §8): it places or
// removes a stone. Every other turn leaves every count as it was.
inline bool resets_counter(const Turn& turn) { return turn.is_placement() || turn.removals() > 0; }

// The N-move counter a turn leaves, from `counter` before it.
inline int counter_after(const Turn& turn, int counter) {
    return resets_counter(turn) ? 0 : counter + 1;
}

// The position after a turn; the turn must be legal. Built whole from
// locals: stores into p.stones[side] followed by a load of the whole
// position stall store forwarding, and this is in the solver's hottest loop.
inline Position apply_turn(const Variant&, const Position& p, const Turn& t) {
    const bool white_moves = p.side == white;
    Bitboard mine = white_moves ? p.stones[white] : p.stones[black];
    Bitboard theirs = white_moves ? p.stones[black] : p.stones[white];
    uint8_t hand = white_moves ? p.in_hand[white] : p.in_hand[black];
    if (t.is_placement())
        --hand;
    else
        mine &= ~(1u << t.from);
    mine |= 1u << t.to;
    for (int8_t r : t.removed)
        if (r >= 0) theirs &= ~(1u << r);
    Position next;
    next.stones[white] = white_moves ? mine : theirs;
    next.stones[black] = white_moves ? theirs : mine;
    next.in_hand[white] = white_moves ? hand : p.in_hand[white];
    next.in_hand[black] = white_moves ? p.in_hand[black] : hand;
    next.side = p.other();
    return next;
}

enum class Unturns {
    all,         // un-placements and un-moves
    moves_only,  // un-moves only: the predecessors with the same hands
};

// Every position Q whose legal turns include one that removes nothing and
// leads to `position` (Q valid and not over). Cleared first; no duplicates.
void generate_unturns(const Variant& variant, const Position& position,
                      std::vector<Position>& predecessors, Unturns kind = Unturns::all);

// The opponent stones the side to move may remove from `position` after
// closing a mill, under the variant's removal rule.
Bitboard removable(const Variant& variant, Bitboard opponent_stones);
// Whether removable() is not empty, without finding the stones in mills
// where the rule does not need them: push asks it of every position it
// pushes (Board::in_mills was 2.4% of a moving unit's samples).
inline bool any_removable(const Variant& variant, Bitboard opponent_stones) {
    // Standard removal falls back to the stones in mills, lenient takes
    // any stone: only strict removal can leave none of several stones.
    if (variant.rules.removal != Removal::strict) return opponent_stones != 0;
    return removable(variant, opponent_stones) != 0;
}

// The un-moves of generate_unturns without building positions: calls
// visit(stones) with the stones of the side that just moved
// (position.other()) as they were before each move that removed nothing and
// led to `position`; the other side's stones are unchanged. The solver's
// propagation lists the same un-moves once per class of those stones
// (ClassUnmoves in solver/class_unmoves.hpp), after may_have_moved below.
template <typename Visit>
void for_each_unmove(const Variant& variant, const Position& position, Visit&& visit);

namespace turn_generation {

inline bool can_fly(const Variant& v, const Position& p, Colour c) {
    return flies(v.rules, p.total(c));
}

inline bool may_place(const Position& p) { return p.in_hand[p.side] > 0; }

inline bool may_move(const Variant& v, const Position& p) {
    return morris::may_move(v.rules, p.in_hand[p.side], p.on_board(p.side));
}

// The points a stone on `point` may move to, or have come from, on an empty
// board: any when it flies, its neighbours otherwise (adjacency is symmetric).
inline Bitboard reach(const Board& board, bool flies, int point) {
    return flies ? board.all() : board.neighbours[point];
}

// Destinations of a stone of the side to move standing on `from`.
inline Bitboard destinations(const Variant& v, const Position& p, int from) {
    return reach(*v.board, can_fly(v, p, p.side), from) & ~p.occupied();
}

inline int mills_closed(const Board& board, Bitboard own_after, int to) {
    int closed = 0;
    for (int m = 0; m < board.mill_count[to]; ++m) {
        const Bitboard mill = board.mills_through[to][m];
        closed += (own_after & mill) == mill;
    }
    return closed;
}

// Empty points that would complete a mill of `own` with two of its stones
// already there: only placements and moves to them can close one.
inline Bitboard closing_points(const Board& board, Bitboard own, Bitboard empty) {
    PointLanes closing{};
    for (const Board::MillRow& row : board.mill_rows) {
        PointLanes held = row.pair & ~own;  // zero where `own` holds the pair
        mask_zero_lanes(held);
        closing |= row.third & held;
    }
    fold_lanes(closing, [](PointLanes& a, const PointLanes& b) { a |= b; });
    return closing[0] & empty;
}

// The stones of the side that just moved (p.other()) which its last turn,
// having removed nothing, may have put where they stand: those closing no
// mill there, or any if nothing of the side to move was removable.
inline Bitboard arrived_without_removal(const Variant& v, const Position& p) {
    const Bitboard stones = p.stones[p.other()];
    if (removable(v, p.stones[p.side]) == 0) return stones;
    Bitboard arrived = 0;
    for (Bitboard tos = stones; tos; tos &= tos - 1)
        if (mills_closed(*v.board, stones, std::countr_zero(tos)) == 0) arrived |= tos & -tos;
    return arrived;
}

// The opponent's removable stones, worked out on first need only: most
// positions close no mill.
class LazyRemovable {
  public:
    LazyRemovable(const Variant& v, Bitboard theirs) : variant_(v), theirs_(theirs) {}
    Bitboard get() {
        if (!known_) choices_ = removable(variant_, theirs_), known_ = true;
        return choices_;
    }

  private:
    const Variant& variant_;
    Bitboard theirs_;
    Bitboard choices_ = 0;
    bool known_ = false;
};

// Visits `turn` once per removal choice its closed mills allow.
template <typename Visit>
void visit_with_removals(const Variant& v, const Position& p, Turn turn, int closed,
                         LazyRemovable& removable_now, Visit& visit) {
    const Bitboard theirs = p.stones[p.other()];
    const Bitboard first_choices = closed ? removable_now.get() : 0;
    if (!first_choices) {
        visit(turn);
        return;
    }
    const bool two = closed >= 2 && v.rules.double_mill == DoubleMill::two;
    for (Bitboard r1s = first_choices; r1s; r1s &= r1s - 1) {
        const int r1 = std::countr_zero(r1s);
        turn.removed[0] = static_cast<int8_t>(r1);
        turn.removed[1] = -1;
        const Bitboard second_choices = two ? removable(v, theirs & ~(1u << r1)) : 0;
        if (!second_choices) {
            visit(turn);
            continue;
        }
        for (Bitboard r2s = second_choices; r2s; r2s &= r2s - 1) {
            const int r2 = std::countr_zero(r2s);
            // The same two stones taken in the other order is the same turn;
            // keep the order with the lower point first when both are legal.
            if (r2 < r1 && (first_choices >> r2 & 1) &&
                (removable(v, theirs & ~(1u << r2)) >> r1 & 1))
                continue;
            turn.removed[1] = static_cast<int8_t>(r2);
            visit(turn);
        }
    }
}

// Visits every placement of the side to move (none when its hand is empty).
template <typename Visit>
void visit_placements(const Variant& v, const Position& p, LazyRemovable& removable_now,
                      Visit& visit) {
    if (!may_place(p)) return;
    const Bitboard own = p.stones[p.side];
    for (Bitboard to = v.board->all() & ~p.occupied(); to; to &= to - 1) {
        const int t = std::countr_zero(to);
        const Turn turn{.to = static_cast<int8_t>(t)};
        visit_with_removals(v, p, turn, mills_closed(*v.board, own | 1u << t, t), removable_now,
                            visit);
    }
}

// The moves of a side with stones `own` onto the points `empty` (any of
// them when it flies, neighbours otherwise): calls visit(from, to, closed)
// for each that closes `closed` > 0 mills, and returns how many close none.
// Only moves to `closing` points are looked at closer: closing_points(), or
// nothing when a closed mill would count as quiet anyway. A solver walking
// positions that share the opponent's stones works out `closing` and
// `flies` itself and builds no position.
template <typename Visit>
int for_each_closing_move(const Board& board, Bitboard own, Bitboard empty, bool flies,
                          Bitboard closing, Visit&& visit) {
    int quiet = 0;
    for (Bitboard from = own; from; from &= from - 1)
        quiet += std::popcount(reach(board, flies, std::countr_zero(from)) & empty);
    // Moves to closing points, found from those points (adjacency is
    // symmetric): they are few, and asking each stone whether it has one
    // was a branch that went either way and mispredicted.
    for (Bitboard to = closing & empty; to; to &= to - 1) {
        const int t = std::countr_zero(to);
        // A move closes a mill here unless the stone moved is one of the
        // two it needs, in every mill `own` would close: found first, as
        // a mask, rather than a branch per move that went either way.
        Bitboard needed = board.all();
        for (int m = 0; m < board.mill_count[t]; ++m) {
            const Bitboard pair = board.mills_through[t][m] & ~(1u << t);
            needed &= (own & pair) == pair ? pair : board.all();
        }
        for (Bitboard from = reach(board, flies, t) & own & ~needed; from; from &= from - 1) {
            const int f = std::countr_zero(from);
            --quiet;
            visit(f, t, mills_closed(board, (own & ~(1u << f)) | 1u << t, t));
        }
    }
    return quiet;
}

}  // namespace turn_generation

template <typename Visit>
void for_each_turn(const Variant& v, const Position& p, Visit&& visit) {
    using namespace turn_generation;
    if (p.total(p.side) < kFewestStones) return;  // lost already
    const Board& board = *v.board;
    const Bitboard own = p.stones[p.side];
    LazyRemovable removable_now(v, p.stones[p.other()]);
    visit_placements(v, p, removable_now, visit);
    if (may_move(v, p)) {
        for (Bitboard from = own; from; from &= from - 1) {
            const int f = std::countr_zero(from);
            for (Bitboard to = destinations(v, p, f); to; to &= to - 1) {
                const int t = std::countr_zero(to);
                const Turn turn{.from = static_cast<int8_t>(f), .to = static_cast<int8_t>(t)};
                const Bitboard after = (own & ~(1u << f)) | 1u << t;
                visit_with_removals(v, p, turn, mills_closed(board, after, t), removable_now,
                                    visit);
            }
        }
    }
}

template <typename Visit>
QuietTurns for_each_loud_turn(const Variant& v, const Position& p, Visit&& visit) {
    using namespace turn_generation;
    QuietTurns quiet;
    if (p.total(p.side) < kFewestStones) return quiet;  // lost already
    const Board& board = *v.board;
    const Bitboard own = p.stones[p.side];
    const Bitboard empty = board.all() & ~p.occupied();
    const Bitboard closing = closing_points(board, own, empty);
    LazyRemovable removable_now(v, p.stones[p.other()]);
    if (may_place(p)) {
        quiet.placements = empty & ~closing;
        for (Bitboard to = empty & closing; to; to &= to - 1) {
            const int t = std::countr_zero(to);
            const Turn turn{.to = static_cast<int8_t>(t)};
            visit_with_removals(v, p, turn, mills_closed(board, own | 1u << t, t), removable_now,
                                visit);
        }
    }
    if (!may_move(v, p)) return quiet;
    quiet.moves = for_each_closing_move(
        board, own, empty, can_fly(v, p, p.side), closing, [&](int from, int to, int closed) {
            const Turn turn{.from = static_cast<int8_t>(from), .to = static_cast<int8_t>(to)};
            visit_with_removals(v, p, turn, closed, removable_now, visit);
        });
    return quiet;
}

template <typename Visit>
void for_each_quiet_move(const Variant& v, const Position& p, Visit&& visit) {
    using namespace turn_generation;
    if (p.total(p.side) < kFewestStones || !may_move(v, p)) return;  // lost, or only placements
    const Board& board = *v.board;
    const Bitboard own = p.stones[p.side];
    // With something removable, moves to points where a mill could close
    // need a closer look; with nothing, every move removes nothing.
    const Bitboard closing = any_removable(v, p.stones[p.other()])
                                 ? closing_points(board, own, board.all() & ~p.occupied())
                                 : 0;
    for (Bitboard from = own; from; from &= from - 1) {
        const int f = std::countr_zero(from);
        for (Bitboard to = destinations(v, p, f); to; to &= to - 1) {
            const int t = std::countr_zero(to);
            if (closing >> t & 1 && mills_closed(board, (own & ~(1u << f)) | 1u << t, t) > 0)
                continue;
            visit(f, t);
        }
    }
}

// Whether the side that just moved in `p` (p.other()) may have reached it by
// a move: judged with the stone still on the board, that is from `p` with
// that side to move. Every un-move keeps the counts, hands and side, hence
// the validity: this depends on p's counts only.
inline bool may_have_moved(const Variant& v, const Position& p) {
    using namespace turn_generation;
    Position mover_to_move = p;
    mover_to_move.side = p.other();
    return may_move(v, mover_to_move) && mover_to_move.total(p.other()) >= kFewestStones &&
           is_valid(v, mover_to_move);
}

template <typename Visit>
void for_each_unmove(const Variant& v, const Position& p, Visit&& visit) {
    using namespace turn_generation;
    const Board& board = *v.board;
    const Colour mover = p.other();
    if (!may_have_moved(v, p)) return;
    const Bitboard empty = board.all() & ~p.occupied();
    const bool flying = can_fly(v, p, mover);
    const Bitboard stones = p.stones[mover];
    for (Bitboard tos = arrived_without_removal(v, p); tos; tos &= tos - 1) {
        const int to = std::countr_zero(tos);
        const Bitboard rest = stones & ~(1u << to);
        for (Bitboard froms = reach(board, flying, to) & empty; froms; froms &= froms - 1)
            visit(rest | (froms & -froms));
    }
}

}  // namespace morris
