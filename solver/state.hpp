// The 16-bit state a position of the unit being solved carries, and how it
// becomes the entry a file stores (db/value.hpp).
//
// A decided position holds its distance. An undecided one holds what its
// turns into solved sectors said: either that it cannot lose (some such
// successor is not a win for the opponent), or the least distance it can
// lose in (its floor), together with how many of its turns inside the unit
// are not yet known to lead to the opponent's win (its counter). One word
// for both means one cache line per predecessor when a win is pushed, not
// two.
//
//   bit 15      decided
//   decided:    bits 0-14 plies
//   undecided:  bits 6-14 floor, bits 0-5 counter (both all ones: cannot lose)
//
// The N-move rule (docs/rules.md §8) changes what the distance means (a
// layer, Distances in unit.hpp), not this layout.
#pragma once

#include <cstdint>

#include "db/value.hpp"

namespace morris {

class State {
  public:
    static constexpr uint16_t kDecidedBit = 0x8000;
    static constexpr int kCounterBits = 6;
    // Turns inside a unit are moves: at most 3 flying stones times 18 empty
    // points, or one per edge of the board; both well below this.
    static constexpr int kMaxCounter = (1 << kCounterBits) - 2;
    static constexpr int kMaxFloor = 0x7fff >> kCounterBits;
    static constexpr int kMostPlies = 0x7fff;

    State() = default;
    static constexpr State decided(int plies) {
        return State(static_cast<uint16_t>(kDecidedBit | plies));
    }
    static constexpr State undecided(int counter, int floor) {
        return State(static_cast<uint16_t>(floor << kCounterBits | counter));
    }
    // Counter and floor both past their maxima: no undecided position that can lose.
    static constexpr State cannot_lose() { return State(0x7fff); }

    constexpr bool is_decided() const { return word_ & kDecidedBit; }
    constexpr int plies() const { return word_ & ~kDecidedBit; }
    constexpr int counter() const { return word_ & kCounterMask; }
    constexpr int floor() const { return word_ >> kCounterBits; }
    // An undecided state with its counter `weight` lower (not to zero).
    constexpr State less(int weight) const { return State(static_cast<uint16_t>(word_ - weight)); }
    // What a file stores once the unit is solved: plies + 1 (layer + 1
    // under the N-move rule, see Distances in unit.hpp); undecided, or
    // decided past `last_layer`, is a draw.
    constexpr Entry entry(int last_layer = kMostPlies) const {
        return is_decided() && plies() <= last_layer ? static_cast<Entry>(plies() + 1) : kDrawEntry;
    }
    // The raw word, for code that compares many states at once.
    constexpr uint16_t word() const { return word_; }
    constexpr bool operator==(const State&) const = default;

  private:
    static constexpr uint16_t kCounterMask = (1 << kCounterBits) - 1;
    constexpr explicit State(uint16_t word) : word_(word) {}
    uint16_t word_;
};
static_assert(sizeof(State) == sizeof(Entry), "a unit's states become its entries in place");

}  // namespace morris
