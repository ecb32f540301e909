#include "game/sector.hpp"

#include <algorithm>
#include <bit>
#include <charconv>

namespace morris {

SectorKey sector_of(const Position& p) {
    return {static_cast<uint8_t>(p.on_board(p.side)), static_cast<uint8_t>(p.on_board(p.other())),
            p.in_hand[p.side], p.in_hand[p.other()]};
}

bool is_valid_sector(const Variant& v, const SectorKey& k) {
    const int mover = k.mover_on_board + k.mover_in_hand;
    const int opponent = k.opponent_on_board + k.opponent_in_hand;
    if (k.mover_on_board + k.opponent_on_board > v.board->points) return false;
    if (mover < kFewestStones || mover > v.stones) return false;
    if (opponent < kFewestStones || opponent > v.stones) return false;
    return hands_fit_turn_order(v.rules, white, k.mover_in_hand, k.opponent_in_hand) ||
           hands_fit_turn_order(v.rules, black, k.mover_in_hand, k.opponent_in_hand);
}

namespace {

// The fewest stones that make `mills` mills at once with the stone just
// played: 3 for one; for two, the smallest union of two mills through one
// point (5 on the 24-point boards, 4 on b17, whose lines of five hold
// overlapping mills).
int stones_for_mills(const Board& board, int mills) {
    if (mills <= 1) return mills * 3;
    int fewest = board.points + 1;
    for (int p = 0; p < board.points; ++p)
        for (int a = 0; a < board.mill_count[p]; ++a)
            for (int b = a + 1; b < board.mill_count[p]; ++b)
                fewest = std::min(
                    fewest, std::popcount(board.mills_through[p][a] | board.mills_through[p][b]));
    return fewest;
}

}  // namespace

std::vector<SectorKey> successor_sectors(const Variant& v, const SectorKey& k) {
    std::vector<SectorKey> result;
    if (k.mover_on_board + k.opponent_on_board >= v.board->points) return result;  // no empty point
    auto add_after = [&](bool placed) {
        const int mover_after = k.mover_on_board + (placed ? 1 : 0);
        for (int removed = 0; removed <= most_removals(v.rules); ++removed) {
            if (mover_after < stones_for_mills(*v.board, removed) || k.opponent_on_board < removed)
                break;
            result.push_back(sector_after(k, placed, removed));
        }
    };
    if (k.mover_in_hand > 0) add_after(true);
    if (mover_may_move(v, k) && k.mover_on_board > 0) add_after(false);
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

std::string to_string(const SectorKey& k) {
    return std::to_string(k.mover_on_board) + "-" + std::to_string(k.opponent_on_board) + "-" +
           std::to_string(k.mover_in_hand) + "-" + std::to_string(k.opponent_in_hand);
}

std::string to_string(const std::vector<SectorKey>& keys) {
    std::string joined;
    for (const SectorKey& k : keys) joined += (joined.empty() ? "" : "+") + to_string(k);
    return joined;
}

std::optional<SectorKey> parse_sector(std::string_view text) {
    uint8_t field[4];
    const char* at = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 4; ++i) {
        if (i > 0) {
            if (at == end || *at != '-') return std::nullopt;
            ++at;
        }
        int value = 0;
        auto [next, error] = std::from_chars(at, end, value);
        if (error != std::errc() || value < 0 || value > kMaxPoints) return std::nullopt;
        field[i] = static_cast<uint8_t>(value);
        at = next;
    }
    if (at != end) return std::nullopt;
    return SectorKey{field[0], field[1], field[2], field[3]};
}

}  // namespace morris
