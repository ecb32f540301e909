// Boards of the Morris family as data: points, adjacency, mills, symmetries.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace morris {

// A set of points, bit i standing for the board's point i in canonical order.
using Bitboard = uint32_t;

inline constexpr int kMaxPoints = 24;

// Sixteen point sets side by side, for asking one thing of many mills at
// once (a GCC/Clang vector: an operation on it works on every lane).
inline constexpr int kPointLanes = 16;
using PointLanes = Bitboard __attribute__((vector_size(kPointLanes * sizeof(Bitboard))));

// Turns each lane of `lanes` that is zero into all ones, the others into
// zero: the top bit of (x - 1) & ~x is set for x = 0 only. Arithmetic, not
// `lanes == 0`: GCC splits a compare of vectors wider than the target's
// registers (sixteen lanes on AVX2) into a scalar compare a lane, and
// arithmetic into register-wide halves. By reference, as vectors passed by
// value have an ABI that depends on the target's vector extensions.
inline void mask_zero_lanes(PointLanes& lanes) { lanes = -(((lanes - 1) & ~lanes) >> 31); }

// Folds the lanes into every lane with `combine(a, b)`, which folds b into
// a (an OR, a minimum): halves, quarters, pairs, then neighbours.
template <typename Combine>
void fold_lanes(PointLanes& lanes, Combine&& combine) {
    combine(lanes, __builtin_shufflevector(lanes, lanes, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3,
                                           4, 5, 6, 7));
    combine(lanes, __builtin_shufflevector(lanes, lanes, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8,
                                           9, 10, 11));
    combine(lanes, __builtin_shufflevector(lanes, lanes, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
                                           15, 12, 13));
    combine(lanes, __builtin_shufflevector(lanes, lanes, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13,
                                           12, 15, 14));
}

// A permutation of a board's points; image[i] is where point i goes.
using Permutation = std::array<uint8_t, kMaxPoints>;

struct Board {
    std::string name;
    int points = 0;
    std::vector<std::string> point_names;  // canonical order
    std::array<Bitboard, kMaxPoints> neighbours{};
    std::vector<Bitboard> mills;  // each a 3-point set
    // The mills through each point, in fixed arrays (the turn generator's
    // innermost loop reads them); a point lies on at most six mills (b17's centre).
    static constexpr int kMaxMillsPerPoint = 6;
    std::array<std::array<Bitboard, kMaxMillsPerPoint>, kMaxPoints> mills_through{};
    std::array<uint8_t, kMaxPoints> mill_count{};
    // Each mill once for each of its points, sixteen to a row: that point
    // (`third`) and the mill's two others (`pair`). Whoever holds a pair
    // closes the mill on its third point, so closing_points() asks every
    // row at once rather than looping over the mills. Lanes past the last
    // mill are empty and ask nothing.
    struct MillRow {
        PointLanes pair{}, third{};
    };
    std::vector<MillRow> mill_rows;
    std::vector<Permutation> symmetries;  // the identity first

    Bitboard all() const { return points == 32 ? ~0u : (1u << points) - 1; }
    int edge_count() const;
    std::optional<int> point(std::string_view name) const;
    // The image of a set of points under a symmetry.
    Bitboard transform(Bitboard set, const Permutation& symmetry) const;
    // Points of `stones` that stand in at least one complete mill of `stones`.
    Bitboard in_mills(Bitboard stones) const;
};

// The four boards of docs/rules.md §1, by name (b24, b24d, b16, b17); nullptr if unknown.
const Board* find_board(std::string_view name);
std::span<const Board* const> all_boards();

}  // namespace morris
