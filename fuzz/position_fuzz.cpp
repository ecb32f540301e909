// Fuzzes the notation: arbitrary text as a position or a list of turns, for
// every variant, and as a single turn. Parsing may only fail with
// NotationError (a std::invalid_argument); what it accepts must be a valid
// position that prints back to text parsing to the same position.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "game/notation.hpp"
#include "game/position.hpp"
#include "game/turns.hpp"
#include "game/variant.hpp"

namespace {

using namespace morris;

const std::vector<Variant>& variants() {
    static const std::vector<Variant> all = [] {
        std::vector<Variant> v;
        for (std::string_view name : variant_names()) v.push_back(find_variant(name));
        return v;
    }();
    return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // A list of turns costs a turn generation per turn; very long inputs only
    // repeat what shorter ones test.
    if (size > 2048) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const Variant& v : variants()) {
        try {
            const Position p = parse_position_or_turns(v, text);
            if (!invalid_reason(v, p).empty()) __builtin_trap();
            if (parse_position(v, to_string(v, p)) != p) __builtin_trap();
        } catch (const std::invalid_argument&) {  // NotationError among them
        }
        try {
            const Turn t = parse_turn(v, text);
            if (parse_turn(v, to_string(v, t)) != t) __builtin_trap();
        } catch (const std::invalid_argument&) {
        }
    }
    return 0;
}
