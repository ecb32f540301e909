#include "indexing/sector.hpp"

#include <charconv>

namespace morris {

SectorKey sector_of(const Position& p) {
    return {static_cast<uint8_t>(p.on_board(p.side)), static_cast<uint8_t>(p.on_board(p.other())),
            p.in_hand[p.side], p.in_hand[p.other()]};
}

std::string to_string(const SectorKey& k) {
    return std::to_string(k.mover_on_board) + "-" + std::to_string(k.opponent_on_board) + "-" +
           std::to_string(k.mover_in_hand) + "-" + std::to_string(k.opponent_in_hand);
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
