// Game values and their one-number encoding, shared by the solver and the files.
#pragma once

#include <cstdint>
#include <string>

namespace morris {

// In this order: values compare worst first, for the side to move.
enum class Value : uint8_t {
    loss,  // the side to move loses against best play
    draw,  // neither side can force a win
    win,   // the side to move wins
};

// The value for the other side: a win for one is a loss for the other.
constexpr Value opposite(Value v) {
    return v == Value::win ? Value::loss : v == Value::loss ? Value::win : Value::draw;
}

const char* to_string(Value value);

// A value with its distance in plies (docs/rules.md §5); plies is -1 for a draw.
struct Outcome {
    Value value = Value::draw;
    int plies = -1;
    bool operator==(const Outcome&) const = default;
};

std::string to_string(const Outcome& outcome);  // "win 13", "draw", "loss 0"

// A stored entry: one outcome in 16 bits, 0 for a draw. How the others are
// read is the file's EntryCode.
using Entry = uint16_t;
inline constexpr Entry kDrawEntry = 0;
inline constexpr int kMaxPlies = 0xfffe;

// How an entry holds an outcome. In both codes an odd entry is a loss and a
// nonzero even one a win, and entries of one value grow with their plies: the
// solver compares entries without decoding them.
enum class EntryCode : uint8_t {
    // plies + 1, the value following from the plies' parity (docs/rules.md §5).
    parity,
    // 2 * plies + (1 for a win) + 1: under the N-move rule parity does not
    // hold (a side whose every turn resets into its opponent's win is at
    // loss 1), so the value is a bit of its own (docs/rules.md §8).
    explicit_value,
    // Win, draw or loss only (files written by `morris compact`): 0 a draw,
    // 1 a loss, 2 a win; no plies (decoded as -1).
    wdl,
    // The same, except that a position whose value one of its turns that
    // remove a stone reaches may hold a smaller value (solver/compact.hpp):
    // its value is the better of the stored one and those turns'.
    wdl_at_most,
};

constexpr bool is_wdl(EntryCode code) {
    return code == EntryCode::wdl || code == EntryCode::wdl_at_most;
}

inline constexpr Entry kWdlLoss = 1, kWdlWin = 2;

constexpr Entry encode(const Outcome& o, EntryCode code = EntryCode::parity) {
    if (o.value == Value::draw) return kDrawEntry;
    if (is_wdl(code)) return o.value == Value::win ? kWdlWin : kWdlLoss;
    if (code == EntryCode::parity) return static_cast<Entry>(o.plies + 1);
    return static_cast<Entry>(2 * o.plies + (o.value == Value::win ? 1 : 0) + 1);
}
constexpr Outcome decode(Entry e, EntryCode code = EntryCode::parity) {
    if (e == kDrawEntry) return {};
    const Value value = e % 2 ? Value::loss : Value::win;
    if (is_wdl(code)) return {value, -1};
    return {value, code == EntryCode::parity ? e - 1 : (e - 1) / 2};
}

}  // namespace morris
