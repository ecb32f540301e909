#include "game/board.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>

namespace morris {
namespace {

struct BoardSpec {
    const char* name;
    const char* points;  // canonical order, space separated
    // Lines of adjacent points, "a1-d1-g1 ..."; every consecutive pair is an edge.
    const char* edges;
    const char* mills;  // "a1 d1 g1, ..."
    int centre;         // grid coordinate of the centre, on both axes
    // Ring swap exchanges points at Chebyshev radius `outer` and `inner` by
    // scaling; 0 when the board has no such symmetry.
    int outer_radius;
    int inner_radius;
};

const char* const kB24Points =
    "a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7";
const char* const kB24Edges =
    "a1-d1-g1-g4-g7-d7-a7-a4-a1 b2-d2-f2-f4-f6-d6-b6-b4-b2 c3-d3-e3-e4-e5-d5-c5-c4-c3 "
    "a4-b4-c4 d1-d2-d3 g4-f4-e4 d7-d6-d5";
const char* const kB24Mills =
    "a1 d1 g1, b2 d2 f2, c3 d3 e3, a4 b4 c4, e4 f4 g4, c5 d5 e5, b6 d6 f6, a7 d7 g7, "
    "a1 a4 a7, b2 b4 b6, c3 c4 c5, d1 d2 d3, d5 d6 d7, e3 e4 e5, f2 f4 f6, g1 g4 g7";
const char* const kDiagonalEdges = " a1-b2-c3 g1-f2-e3 a7-b6-c5 g7-f6-e5";
const char* const kDiagonalMills = ", a1 b2 c3, g1 f2 e3, a7 b6 c5, g7 f6 e5";
const char* const kB16Points = "a1 a3 a5 b2 b3 b4 c1 c2 c4 c5 d2 d3 d4 e1 e3 e5";
const char* const kB16Edges =
    "a1-c1-e1-e3-e5-c5-a5-a3-a1 b2-c2-d2-d3-d4-c4-b4-b3-b2 c1-c2 e3-d3 c5-c4 a3-b3";
const char* const kB16Mills =
    "a1 c1 e1, e1 e3 e5, a5 c5 e5, a1 a3 a5, b2 c2 d2, d2 d3 d4, b4 c4 d4, b2 b3 b4";

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in{std::string(text)};
    while (std::getline(in, part, separator)) {
        part.erase(0, part.find_first_not_of(' '));
        part.erase(part.find_last_not_of(' ') + 1);
        if (!part.empty()) parts.push_back(part);
    }
    return parts;
}

int point_of(const Board& board, const std::string& name) {
    auto p = board.point(name);
    if (!p) throw std::logic_error("board table names unknown point " + name);
    return *p;
}

// The symmetries of the square about the centre, optionally followed by the
// ring swap; kept only if they map every edge and mill onto one.
std::vector<Permutation> symmetries_of(const Board& board, const BoardSpec& spec) {
    std::map<std::pair<int, int>, int> at;
    for (int i = 0; i < board.points; ++i)
        at[{board.point_names[i][0] - 'a', board.point_names[i][1] - '1'}] = i;

    std::vector<Permutation> result;
    for (int swap = 0; swap < (spec.outer_radius ? 2 : 1); ++swap) {
        for (int turn = 0; turn < 8; ++turn) {
            Permutation perm{};
            for (int i = 0; i < board.points; ++i) {
                int dx = board.point_names[i][0] - 'a' - spec.centre;
                int dy = board.point_names[i][1] - '1' - spec.centre;
                for (int r = 0; r < turn % 4; ++r) std::tie(dx, dy) = std::pair(-dy, dx);
                if (turn >= 4) dx = -dx;
                if (swap) {
                    int radius = std::max(std::abs(dx), std::abs(dy));
                    int ratio = spec.outer_radius / spec.inner_radius;
                    if (radius == spec.outer_radius)
                        dx /= ratio, dy /= ratio;
                    else if (radius == spec.inner_radius)
                        dx *= ratio, dy *= ratio;
                }
                perm[i] = static_cast<uint8_t>(at.at({dx + spec.centre, dy + spec.centre}));
            }
            result.push_back(perm);
        }
    }
    for (const auto& perm : result) {
        for (int i = 0; i < board.points; ++i)
            if (board.transform(board.neighbours[i], perm) != board.neighbours[perm[i]])
                throw std::logic_error("symmetry breaks an edge of " + board.name);
        for (Bitboard mill : board.mills)
            if (std::find(board.mills.begin(), board.mills.end(), board.transform(mill, perm)) ==
                board.mills.end())
                throw std::logic_error("symmetry breaks a mill of " + board.name);
    }
    return result;
}

Board make_board(const BoardSpec& spec) {
    Board board;
    board.name = spec.name;
    board.point_names = split(spec.points, ' ');
    std::sort(board.point_names.begin(), board.point_names.end());  // canonical order
    board.points = static_cast<int>(board.point_names.size());
    for (const auto& line : split(spec.edges, ' ')) {
        auto stops = split(line, '-');
        for (size_t i = 0; i + 1 < stops.size(); ++i) {
            int a = point_of(board, stops[i]), b = point_of(board, stops[i + 1]);
            board.neighbours[a] |= 1u << b;
            board.neighbours[b] |= 1u << a;
        }
    }
    for (const auto& mill : split(spec.mills, ',')) {
        Bitboard set = 0;
        for (const auto& name : split(mill, ' ')) set |= 1u << point_of(board, name);
        if (std::popcount(set) != 3)  // mill_rows splits each into a pair and a third point
            throw std::logic_error("a mill of " + board.name + " is not three points");
        board.mills.push_back(set);
        for (int p = 0; p < board.points; ++p)
            if (set >> p & 1) {
                if (board.mill_count[p] == Board::kMaxMillsPerPoint)
                    throw std::logic_error("too many mills through a point of " + board.name);
                board.mills_through[p][board.mill_count[p]++] = set;
            }
    }
    int lane = 0;
    for (Bitboard mill : board.mills)
        for (Bitboard point = mill; point; point &= point - 1, ++lane) {
            if (lane % kPointLanes == 0) board.mill_rows.emplace_back();
            board.mill_rows.back().pair[lane % kPointLanes] = mill & ~(point & -point);
            board.mill_rows.back().third[lane % kPointLanes] = point & -point;
        }
    board.symmetries = symmetries_of(board, spec);
    return board;
}

std::string concat(const char* a, const char* b) { return std::string(a) + b; }

const std::vector<Board>& boards() {
    static const std::vector<Board> table = [] {
        const std::string b24d_edges = concat(kB24Edges, kDiagonalEdges);
        const std::string b24d_mills = concat(kB24Mills, kDiagonalMills);
        const std::string b17_points = concat(kB16Points, " c3");
        const std::string b17_edges = concat(kB16Edges, " b3-c3-d3 c2-c3-c4");
        const std::string b17_mills =
            concat(kB16Mills, ", a3 b3 c3, b3 c3 d3, c3 d3 e3, c1 c2 c3, c2 c3 c4, c3 c4 c5");
        std::vector<Board> list;
        list.push_back(make_board({"b24", kB24Points, kB24Edges, kB24Mills, 3, 3, 1}));
        list.push_back(
            make_board({"b24d", kB24Points, b24d_edges.c_str(), b24d_mills.c_str(), 3, 3, 1}));
        list.push_back(make_board({"b16", kB16Points, kB16Edges, kB16Mills, 2, 2, 1}));
        list.push_back(
            make_board({"b17", b17_points.c_str(), b17_edges.c_str(), b17_mills.c_str(), 2, 0, 0}));
        return list;
    }();
    return table;
}

}  // namespace

int Board::edge_count() const {
    int twice = 0;
    for (int p = 0; p < points; ++p) twice += std::popcount(neighbours[p]);
    return twice / 2;
}

std::optional<int> Board::point(std::string_view name) const {
    for (int i = 0; i < points; ++i)
        if (point_names[i] == name) return i;
    return std::nullopt;
}

Bitboard Board::transform(Bitboard set, const Permutation& symmetry) const {
    Bitboard image = 0;
    for (; set; set &= set - 1) image |= 1u << symmetry[std::countr_zero(set)];
    return image;
}

Bitboard Board::in_mills(Bitboard stones) const {
    Bitboard result = 0;
    for (Bitboard mill : mills)
        if ((stones & mill) == mill) result |= mill;
    return result;
}

const Board* find_board(std::string_view name) {
    for (const Board& board : boards())
        if (board.name == name) return &board;
    return nullptr;
}

std::span<const Board* const> all_boards() {
    static const std::vector<const Board*> list = [] {
        std::vector<const Board*> pointers;
        for (const Board& board : boards()) pointers.push_back(&board);
        return pointers;
    }();
    return list;
}

}  // namespace morris
