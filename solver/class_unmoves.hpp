// Push's un-moves (push.hpp), listed once per class of the stones that did
// not move: game/turns.hpp's for_each_unmove in the shape a layer sorted by
// opponent class wants. tests/rules_test.cpp compares the predecessors
// they give with generate_unturns on random positions.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>

#include "game/board.hpp"
#include "game/turns.hpp"
#include "indexing/bits.hpp"
#include "indexing/perfect_hash.hpp"

namespace morris {

// The un-moves of positions whose opponent's stones are one class's
// representative (seen under the symmetry that makes them so): the stone
// on a point `to` came from a point `from`, and the predecessor's mover is
// then of class `mover`. This is for_each_unmove with what depends on
// those stones alone worked out once for all the positions of a class,
// which a layer walked in the order of its opponent classes brings one
// after another.
class ClassUnmoves {
  public:
    // Three flying stones to 21 points, or twelve stones with five
    // neighbours each: a class's un-moves fit the bits of a word.
    static constexpr int kMost = 63;

    struct Unmove {
        int8_t to, from;
        SymmetryClasses::Class mover;
    };

    // One class's un-moves, ordered by `from`.
    class List {
      public:
        std::span<const Unmove> unmoves() const { return {unmoves_.data(), count_}; }
        // The un-moves a position of the class has, bit k for unmoves()[k]:
        // those whose `from` its mover's stones `mine` leave empty and, when
        // its mover has a stone to remove (`may_remove`), whose move closed
        // no mill (one that did removed a stone: that predecessor is in
        // another sector). One mask, not a test per un-move: on a crowded
        // board a test fails as often as not and mispredicts, and so does
        // the end of a loop over each `to`'s few froms.
        uint64_t kept(Bitboard mine, bool may_remove) const {
            // Bit j: the j-th from point is empty. The un-moves from it are
            // the run [start, end) of bits; depositing the flags on the
            // runs' ends and starts and subtracting fills the runs kept.
            const uint64_t empty_froms = extract_bits(~mine, froms_);
            const uint64_t runs =
                deposit_bits64(empty_froms, run_ends_) - deposit_bits64(empty_froms, run_starts_);
            return may_remove ? runs & ~closing_ : runs;
        }

      private:
        friend class ClassUnmoves;
        std::array<Unmove, kMost> unmoves_;
        size_t count_ = 0;
        Bitboard froms_ = 0;       // the points un-moves come from
        uint64_t run_starts_ = 0;  // bit k: unmoves_[k] is the first from its point
        uint64_t run_ends_ = 0;    // bit k: unmoves_[k - 1] is the last from its point
        uint64_t closing_ = 0;     // bit k: the move unmoves_[k] undoes closed a mill
    };

    // For one sector: whether its predecessors' movers fly.
    ClassUnmoves(const Board& board, const SymmetryClasses& classes, bool flying)
        : board_(&board), classes_(&classes), flying_(flying) {}

    // The un-moves of class `rank`, whose representative is `theirs`.
    const List& of(uint32_t rank, Bitboard theirs) {
        if (rank == rank_) return list_;
        rank_ = rank;
        List& list = list_;
        list.count_ = 0;
        list.froms_ = 0;
        list.run_starts_ = list.run_ends_ = list.closing_ = 0;
        const SymmetryClasses::SetImages images = classes_->images(theirs);
        for (int from = 0; from < board_->points; ++from) {
            if (theirs >> from & 1) continue;
            // Adjacency is symmetric: the stones that may have come from
            // `from` stand where a stone on `from` reaches.
            const Bitboard tos = theirs & turn_generation::reach(*board_, flying_, from);
            if (!tos) continue;
            list.froms_ |= Bitboard{1} << from;
            list.run_starts_ |= uint64_t{1} << list.count_;
            for (Bitboard t = tos; t; t &= t - 1) {
                const int to = std::countr_zero(t);
                if (list.count_ == kMost)
                    throw std::logic_error("a class has more un-moves than a word has bits");
                if (turn_generation::mills_closed(*board_, theirs, to) > 0)
                    list.closing_ |= uint64_t{1} << list.count_;
                list.unmoves_[list.count_++] = {static_cast<int8_t>(to), static_cast<int8_t>(from),
                                                classes_->class_of_moved(images, to, from)};
            }
            list.run_ends_ |= uint64_t{1} << list.count_;
        }
        return list;
    }

  private:
    const Board* board_;
    const SymmetryClasses* classes_;
    bool flying_;
    uint32_t rank_ = std::numeric_limits<uint32_t>::max();
    List list_;
};

}  // namespace morris
