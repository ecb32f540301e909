#include "tools/render.hpp"

#include <bit>
#include <cstdlib>
#include <vector>

namespace morris {

namespace {
constexpr int kColumnsPerFile = 4;  // wide enough to read as a square
constexpr int kRowsPerRank = 2;
}  // namespace

std::string draw_board(const Variant& v, const Position& p) {
    const Board& board = *v.board;
    int files = 0, ranks = 0;
    for (const auto& name : board.point_names) {
        files = std::max(files, name[0] - 'a' + 1);
        ranks = std::max(ranks, name[1] - '1' + 1);
    }
    const int width = (files - 1) * kColumnsPerFile + 1;
    const int height = (ranks - 1) * kRowsPerRank + 1;
    std::vector<std::string> canvas(height, std::string(width, ' '));
    auto x_of = [&](int point) { return (board.point_names[point][0] - 'a') * kColumnsPerFile; };
    auto y_of = [&](int point) {
        return (ranks - 1 - (board.point_names[point][1] - '1')) * kRowsPerRank;
    };

    for (int a = 0; a < board.points; ++a) {
        for (Bitboard n = board.neighbours[a]; n; n &= n - 1) {
            int b = std::countr_zero(n);
            if (b < a) continue;
            int x0 = x_of(a), y0 = y_of(a), x1 = x_of(b), y1 = y_of(b);
            if (y0 == y1) {
                for (int x = std::min(x0, x1) + 1; x < std::max(x0, x1); ++x) canvas[y0][x] = '-';
            } else if (x0 == x1) {
                for (int y = std::min(y0, y1) + 1; y < std::max(y0, y1); ++y) canvas[y][x0] = '|';
            } else {  // a diagonal: one mark halfway
                bool rising = (x1 - x0) * (y1 - y0) < 0;
                canvas[(y0 + y1) / 2][(x0 + x1) / 2] = rising ? '/' : '\\';
            }
        }
    }
    for (int point = 0; point < board.points; ++point) {
        char c = p.stones[white] >> point & 1 ? 'W' : p.stones[black] >> point & 1 ? 'B' : '.';
        canvas[y_of(point)][x_of(point)] = c;
    }
    std::string text;
    for (int y = 0; y < height; ++y) {
        text += y % kRowsPerRank == 0 ? std::to_string(ranks - y / kRowsPerRank) + " " : "  ";
        text += canvas[y] + "\n";
    }
    text += "  ";
    for (int f = 0; f < files; ++f) {
        text += static_cast<char>('a' + f);
        if (f + 1 < files) text += std::string(kColumnsPerFile - 1, ' ');
    }
    return text + "\n";
}

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    constexpr char kHex[] = "0123456789abcdef";
                    out += "\\u00";
                    out += kHex[(c >> 4) & 0xf];
                    out += kHex[c & 0xf];
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

}  // namespace morris
