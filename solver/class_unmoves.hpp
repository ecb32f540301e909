// Push's un-moves (push.hpp), listed once per class of the stones that did
// not move: game/turns.hpp's for_each_unmove in the shape a layer sorted by
// opponent class wants. tests/solver_test.cpp compares the predecessors
// they give with generate_unturns on random positions.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>

#include "game/board.hpp"
#include "game/turns.hpp"
#include "indexing/perfect_hash.hpp"

namespace morris {

// The un-moves of positions whose opponent's stones are one class's
// representative (seen under the symmetry that makes them so): the stone
// on a point `to` came from one of the points `froms`, and the
// predecessor's mover is then of class mover[from]. This is
// for_each_unmove with what depends on those stones alone worked out
// once for all the positions of a class, which a layer walked in the
// order of its opponent classes brings one after another. A position
// keeps the froms its own mover leaves empty: a mask, not a test per
// un-move, which on a crowded board fails as often as not and
// mispredicts.
class ClassUnmoves {
  public:
    struct Unmoves {
        int to;
        bool closed_mill;  // a move to `to` closed a mill
        Bitboard froms;
        std::array<SymmetryClasses::Class, kMaxPoints> mover;  // by from
    };
    // For one sector: whether its predecessors' movers fly.
    ClassUnmoves(const Board& board, const SymmetryClasses& classes, bool flying)
        : board_(&board), classes_(&classes), flying_(flying) {}
    std::span<const Unmoves> of(uint32_t rank, Bitboard theirs) {
        if (rank == rank_) return {unmoves_.data(), count_};
        rank_ = rank;
        count_ = 0;
        const SymmetryClasses::SetImages images = classes_->images(theirs);
        for (Bitboard tos = theirs; tos; tos &= tos - 1) {
            Unmoves& onto = unmoves_[count_++];
            onto.to = std::countr_zero(tos);
            onto.closed_mill = turn_generation::mills_closed(*board_, theirs, onto.to) > 0;
            onto.froms = turn_generation::reach(*board_, flying_, onto.to) & ~theirs;
            for (Bitboard f = onto.froms; f; f &= f - 1) {
                const int from = std::countr_zero(f);
                onto.mover[from] = classes_->class_of_moved(images, onto.to, from);
            }
        }
        return {unmoves_.data(), count_};
    }

  private:
    const Board* board_;
    const SymmetryClasses* classes_;
    bool flying_;
    uint32_t rank_ = std::numeric_limits<uint32_t>::max();
    std::array<Unmoves, kMaxPoints> unmoves_;  // by stone of theirs
    size_t count_ = 0;
};

}  // namespace morris
