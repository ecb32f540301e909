#include "game/variant.hpp"

#include <array>
#include <charconv>
#include <stdexcept>

namespace morris {
namespace {

struct VariantSpec {
    std::string_view name;
    std::string_view board;
    int stones;
    Rules rules;
};

// Other names for a variant: the same game, whose databases are the variant's.
struct Alias {
    std::string_view name;
    std::string_view variant;
};

constexpr Rules kNoFlying{.flying = Flying::none};
constexpr Rules kStandard{};
constexpr Rules kFullBoardDraw{.full_board = FullBoard::draw};
constexpr Rules kLasker{.placement = Placement::place_or_move};

constexpr std::array kVariants{
    VariantSpec{"five", "b16", 5, kNoFlying},
    VariantSpec{"six", "b16", 6, kNoFlying},
    VariantSpec{"seven", "b17", 7, kNoFlying},
    VariantSpec{"nine", "b24", 9, kStandard},
    VariantSpec{"nine-diagonal", "b24d", 9, kStandard},
    VariantSpec{"twelve", "b24d", 12, kFullBoardDraw},
    VariantSpec{"lasker", "b24", 10, kLasker},
};

// Twelve Men's Morris under these rules is Gévay and Danner's Morabaraba
// (docs/rules.md §2).
constexpr std::array kAliases{Alias{"morabaraba", "twelve"}};

constexpr auto kNames = [] {
    std::array<std::string_view, kVariants.size() + kAliases.size()> names{};
    for (size_t i = 0; i < kVariants.size(); ++i) names[i] = kVariants[i].name;
    for (size_t i = 0; i < kAliases.size(); ++i) names[kVariants.size() + i] = kAliases[i].name;
    return names;
}();

// One rule option: its name and the spelling of each enumerator, in order.
template <typename Enum, size_t N>
struct Option {
    std::string_view name;
    std::array<std::string_view, N> values;
    Enum Rules::*field;
};

constexpr Option<Flying, 2> kFlying{"flying", {"none", "3"}, &Rules::flying};
constexpr Option<Removal, 3> kRemoval{
    "removal", {"standard", "strict", "lenient"}, &Rules::removal};
constexpr Option<DoubleMill, 2> kDoubleMill{"double_mill", {"one", "two"}, &Rules::double_mill};
constexpr Option<Placement, 2> kPlacement{
    "placement", {"place-only", "place-or-move"}, &Rules::placement};
constexpr Option<FullBoard, 2> kFullBoard{"full_board", {"draw", "loss"}, &Rules::full_board};

template <typename Enum, size_t N>
bool try_assign(const Option<Enum, N>& option, Rules& rules, std::string_view name,
                std::string_view value) {
    if (name != option.name) return false;
    for (size_t i = 0; i < N; ++i) {
        if (option.values[i] == value) {
            rules.*option.field = static_cast<Enum>(i);
            return true;
        }
    }
    std::string expected;
    for (auto v : option.values) expected += (expected.empty() ? "" : ", ") + std::string(v);
    throw std::invalid_argument("unknown value '" + std::string(value) + "' for rule " +
                                std::string(name) + " (expected " + expected + ")");
}

template <typename Enum, size_t N>
std::string describe(const Option<Enum, N>& option, const Rules& rules) {
    return " " + std::string(option.name) + "=" +
           std::string(option.values[static_cast<size_t>(rules.*option.field)]);
}

// n_move=off or n_move=N, 1 <= N <= kMostNMovePlies.
bool try_assign_n_move(Rules& rules, std::string_view name, std::string_view value) {
    if (name != "n_move") return false;
    if (value == "off") {
        rules.n_move = kNMoveOff;
        return true;
    }
    int plies = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), plies);
    if (error != std::errc() || end != value.data() + value.size() || plies < 1 ||
        plies > kMostNMovePlies)
        throw std::invalid_argument("n_move '" + std::string(value) +
                                    "' is not off or a number of plies from 1 to " +
                                    std::to_string(kMostNMovePlies));
    rules.n_move = plies;
    return true;
}

}  // namespace

std::string Variant::rule_text() const {
    return board->name + " stones=" + std::to_string(stones) + describe(kFlying, rules) +
           describe(kRemoval, rules) + describe(kDoubleMill, rules) + describe(kPlacement, rules) +
           describe(kFullBoard, rules) +
           (rules.has_n_move() ? " n_move=" + std::to_string(rules.n_move) : "");
}

Variant find_variant(std::string_view name) {
    for (const auto& alias : kAliases)
        if (alias.name == name) name = alias.variant;
    for (const auto& spec : kVariants) {
        if (spec.name == name) {
            return Variant{std::string(spec.name), find_board(spec.board), spec.stones, spec.rules};
        }
    }
    std::string known;
    for (auto n : kNames) known += (known.empty() ? "" : ", ") + std::string(n);
    throw std::invalid_argument("unknown variant '" + std::string(name) + "' (known: " + known +
                                ")");
}

std::span<const std::string_view> variant_names() { return kNames; }

void apply_rule(Variant& variant, std::string_view assignment) {
    auto eq = assignment.find('=');
    if (eq == std::string_view::npos)
        throw std::invalid_argument("rule '" + std::string(assignment) +
                                    "' is not of the form option=value");
    auto name = assignment.substr(0, eq);
    auto value = assignment.substr(eq + 1);
    Rules& r = variant.rules;
    if (try_assign(kFlying, r, name, value) || try_assign(kRemoval, r, name, value) ||
        try_assign(kDoubleMill, r, name, value) || try_assign(kPlacement, r, name, value) ||
        try_assign(kFullBoard, r, name, value) || try_assign_n_move(r, name, value))
        return;
    throw std::invalid_argument(
        "unknown rule option '" + std::string(name) +
        "' (known: flying, removal, double_mill, placement, full_board, n_move)");
}

}  // namespace morris
