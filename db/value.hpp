// Game values and their one-number encoding, shared by the solver and the files.
#pragma once

#include <cstdint>
#include <string>

namespace morris {

enum class Value : uint8_t {
    loss,  // the side to move loses against best play
    draw,  // neither side can force a win
    win,   // the side to move wins
};

const char* to_string(Value value);

// A value with its distance in plies (docs/rules.md §5); plies is -1 for a draw.
struct Outcome {
    Value value = Value::draw;
    int plies = -1;
    bool operator==(const Outcome&) const = default;
};

std::string to_string(const Outcome& outcome);  // "win 13", "draw", "loss 0"

// Stored entry: 0 for a draw, else plies + 1 (wins have odd plies, losses even).
using Entry = uint16_t;
inline constexpr Entry kDrawEntry = 0;
inline constexpr int kMaxPlies = 0xfffe;

inline Entry encode(const Outcome& o) {
    return o.value == Value::draw ? kDrawEntry : static_cast<Entry>(o.plies + 1);
}
inline Outcome decode(Entry e) {
    if (e == kDrawEntry) return {};
    int plies = e - 1;
    return {plies % 2 ? Value::win : Value::loss, plies};
}

}  // namespace morris
