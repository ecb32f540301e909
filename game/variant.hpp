// Variants as data: a board, a stone count and the rule options of docs/rules.md §2.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "game/board.hpp"

namespace morris {

enum class Flying : uint8_t { none, at_three };
enum class Removal : uint8_t {
    standard,  // mill stones are protected unless all of them stand in mills
    strict,    // mill stones are never removed
    lenient,   // any stone may be removed
};
enum class DoubleMill : uint8_t { one, two };
enum class Placement : uint8_t { place_only, place_or_move };
enum class FullBoard : uint8_t { draw, loss };

// The N-move rule (docs/rules.md §8): a game is drawn when N plies pass
// without a placement or a removal. Off (0) unless set.
inline constexpr int kNMoveOff = 0;
// The largest N: a decided position's plies and value share 15 bits.
inline constexpr int kMostNMovePlies = 16383;

struct Rules {
    Flying flying = Flying::at_three;
    Removal removal = Removal::standard;
    DoubleMill double_mill = DoubleMill::one;
    Placement placement = Placement::place_only;
    FullBoard full_board = FullBoard::loss;
    int n_move = kNMoveOff;  // N plies, or kNMoveOff

    bool has_n_move() const { return n_move != kNMoveOff; }

    bool operator==(const Rules&) const = default;
};

struct Variant {
    std::string name;
    const Board* board = nullptr;
    int stones = 0;  // per side
    Rules rules;

    // "b24 stones=9 flying=3 removal=standard ..." with every option spelled
    // out (n_move only when on, so that the text of every rule set without it
    // is what it was before the rule existed); databases store its hash and
    // refuse to answer for another.
    std::string rule_text() const;
};

// The variants of docs/rules.md §2 by name; throws std::invalid_argument if
// unknown. Another name for a variant ("morabaraba") gives the variant itself
// ("twelve"), name included: one database answers under either.
Variant find_variant(std::string_view name);
std::span<const std::string_view> variant_names();  // other names last

// Applies one "option=value" override; throws std::invalid_argument naming the
// option or value when either is unknown.
void apply_rule(Variant& variant, std::string_view assignment);

}  // namespace morris
