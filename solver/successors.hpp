// What a position's successors say together, as the first pass folds them
// from the entries of solved sectors (first_pass.hpp): one at a time, a
// position's gathered and folded at once, or views of blocks folded by rank.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "db/value.hpp"
#include "game/board.hpp"

namespace morris {

// The rule by which a position's successor entries fold into what they say
// together, written once for one entry and for a vector of them (GCC's
// vector extensions compare and select lane by lane with the operators
// that compare and select entries). An entry is read as what SolvedSectors
// holds: 0 for a draw and otherwise our distance (the layer of our win or
// loss, see Distances in unit.hpp), odd for the successor's loss. A fold
// keeps the shortest successor lost (our win's layer), the longest won (our
// loss's) and whether some successor is a draw (1 in an entry, all ones in
// a vector's lane). Min, max and or do not mind the order or grouping, so a
// fold of folds is the fold of their entries.
template <typename T>  // Entry, or a vector of entries
struct EntryFold {
    // Above every entry the solver writes (its distances fit in 15 bits):
    // least_loss where no successor is lost, and padding that changes no
    // fold.
    static constexpr Entry kNoLoss = std::numeric_limits<Entry>::max();

    T least_loss = splat(kNoLoss);
    T longest_win{};
    T draw{};

    void add(T after) {
        const auto lost = (after & 1) != 0;
        least_loss = smaller(least_loss, lost ? after : splat(kNoLoss));
        longest_win = larger(longest_win, lost ? T{} : after);
        draw |= (T)(after == kDrawEntry);  // a C cast: a vector's mask is not T
    }
    void add(const EntryFold& more) {
        least_loss = smaller(least_loss, more.least_loss);
        longest_win = larger(longest_win, more.longest_win);
        draw |= more.draw;
    }

  private:
    static T splat(Entry e) { return static_cast<T>(T{} + e); }
    static T smaller(T a, T b) { return a < b ? a : b; }
    static T larger(T a, T b) { return a > b ? a : b; }
};

// What one position's turns into solved sectors say, folded one entry at a
// time. Outside a loop it vectorises, GCC compiles the fold's choices for
// one entry to a branch on its parity, which the group walk avoids by
// gathering a position's entries first (GatheredEntries).
struct Successors : EntryFold<Entry> {
    int best_win() const { return least_loss == kNoLoss ? -1 : least_loss; }
    int floor() const { return longest_win; }
};

// One position's successor entries, gathered as they are read and then
// folded together: a few vector instructions for every kLanes entries,
// with no branch. Added one at a time, each branched on its parity, which no
// walk predicts well: those adds held a quarter of a placement pair's
// samples (docs/performance.md, "Successors gathered, then folded").
class GatheredEntries {
  public:
    static constexpr int kLanes = 8;  // a vector of 16 bytes, on every x86-64
    // Above the most a position reads: a placement reads one entry a quiet
    // point and a rank's run (one entry a removable stone) a closing one,
    // a move (m stones to e empty points, o removable) at most
    // m * e * o <= 8 * 8 * 8 through the index, below the 576 slots of
    // its reads (PositionReads in settle_group.cpp).
    static constexpr int kCapacity = kMaxPoints * kMaxPoints + kMaxPoints;

    void add(Entry e) {
        assert(count_ < kCapacity);
        entries_[count_++] = e;
    }
    // The entries of `view` at `ranks[0..n)`. One loop for them all, its
    // count in a register: added one at a time, the count went through
    // memory from each entry to the next (docs/performance.md).
    void add_at(const Entry* view, const uint32_t* ranks, int n) {
        assert(count_ + n <= kCapacity);
        Entry* out = &entries_[count_];
        for (int i = 0; i < n; ++i) out[i] = view[ranks[i]];
        count_ += n;
    }
    // `n` entries in a row, copied a vector at a time: e must have up to
    // kLanes - 1 more entries readable after them, which are copied too
    // and then forgotten (whatever they hold: the next entries added write
    // over them, and fold() reads past the count only its own padding).
    void add_run(const Entry* e, int n) {
        assert(count_ + n <= kCapacity);
        for (int i = 0; i < n; i += kLanes) std::copy_n(e + i, kLanes, &entries_[count_ + i]);
        count_ += n;
    }
    Successors fold() {
        // Lanes past the last entry hold one that changes nothing.
        std::fill_n(&entries_[count_], kLanes, Successors::kNoLoss);
        EntryFold<Lanes> lanes;
        for (int i = 0; i < count_; i += kLanes) {
            Lanes e;
            std::memcpy(&e, &entries_[i], sizeof e);
            lanes.add(e);
        }
        // Halves folded onto each other: lane 0 ends with the fold of all.
        for (int half = kLanes / 2; half > 0; half /= 2)
            lanes.add(EntryFold<Lanes>{shift_down(lanes.least_loss, half),
                                       shift_down(lanes.longest_win, half),
                                       shift_down(lanes.draw, half)});
        return {{lanes.least_loss[0], lanes.longest_win[0], Entry(lanes.draw[0] & 1)}};
    }

  private:
    using Lanes = Entry __attribute__((vector_size(kLanes * sizeof(Entry))));
    // Lane i + by in lane i (lanes past the end: whatever).
    static_assert(kLanes == 8, "shift_down's shuffles are for 8 lanes");
    static Lanes shift_down(Lanes v, int by) {
        switch (by) {
            case 4: return __builtin_shufflevector(v, v, 4, 5, 6, 7, 4, 5, 6, 7);
            case 2: return __builtin_shufflevector(v, v, 2, 3, 2, 3, 2, 3, 2, 3);
            default: return __builtin_shufflevector(v, v, 1, 1, 1, 1, 1, 1, 1, 1);
        }
    }

    int count_ = 0;
    alignas(64) std::array<Entry, kCapacity + kLanes> entries_;
};

// Views of blocks folded by rank: what the entries of rank r of every
// view say together. Three arrays rather than Successors by rank, so
// that folding a view in is a few vector instructions per 32 entries
// and costs next to nothing beside filling the view.
class FoldedViews {
  public:
    // Sized, not cleared: the first view added sets every rank (clearing
    // three arrays a group took 3-4% of a placement pair's samples).
    void reset(size_t size) {
        least_loss_.resize(size);
        longest_win_.resize(size);
        draw_.resize(size);
        empty_ = true;
    }
    // A view of as many entries as reset gave.
    void add(const Entry* __restrict view) {
        if (empty_)
            fold_in</*kFirst=*/true>(view);
        else
            fold_in</*kFirst=*/false>(view);
        empty_ = false;
    }
    Successors at(uint64_t r) const {
        if (empty_) return {};
        return {{least_loss_[r], longest_win_[r], draw_[r]}};
    }

  private:
    template <bool kFirst>
    void fold_in(const Entry* __restrict view) {
        Entry* __restrict least_loss = least_loss_.data();
        Entry* __restrict longest_win = longest_win_.data();
        Entry* __restrict draw = draw_.data();
        for (size_t r = 0; r < least_loss_.size(); ++r) {
            EntryFold<Entry> rank;
            if constexpr (!kFirst) rank = {least_loss[r], longest_win[r], draw[r]};
            rank.add(view[r]);
            least_loss[r] = rank.least_loss;
            longest_win[r] = rank.longest_win;
            draw[r] = rank.draw;
        }
    }

    std::vector<Entry> least_loss_, longest_win_, draw_;
    bool empty_ = true;  // no view added since reset
};

}  // namespace morris
