#include "game/fen.hpp"

#include <array>
#include <charconv>
#include <cstdint>

namespace morris {

namespace {

// The board field's order, Sanmill's squares 8..31: the inner, middle and
// outer ring, each from its top-middle point clockwise (docs/fen.md).
constexpr std::array<std::string_view, 24> kFenOrder = {
    "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",  // inner ring
    "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",  // middle ring
    "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",  // outer ring
};
constexpr size_t kRingPoints = 8;
constexpr size_t kBoardFieldLength = 3 * kRingPoints + 2;  // rings and two '/'

// The fields before the optional "key:value" tokens, in order.
enum Field : size_t {
    board,
    side,
    phase,
    action,
    white_on_board,
    white_in_hand,
    black_on_board,
    black_in_hand,
    white_to_remove,
    black_to_remove,
    white_last_mill_from,
    white_last_mill_to,
    black_last_mill_from,
    black_last_mill_to,
    used_mills,
    rule50,
    move_number,
    kFields,
};

constexpr char kWhite = 'O', kBlack = '@', kEmpty = '*', kMarked = 'X';

void require_24_points(const Variant& v) {
    if (!has_fen(v))
        throw NotationError("a FEN describes a 24-point board; " + v.name + " is played on " +
                            v.board->name);
}

int point_of(const Variant& v, size_t k) { return *v.board->point(kFenOrder[k]); }

template <typename Integer>
Integer parse_field(std::string_view word, const char* what) {
    Integer value{};
    auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size())
        throw NotationError(std::string("FEN ") + what + " '" + std::string(word) +
                            "' is not a number");
    return value;
}

const std::string kBetweenTurns =
    ": positions here stand between turns; give the position after the removal";

Position parse_board(std::string_view field) {
    if (field.size() != kBoardFieldLength || field[kRingPoints] != '/' ||
        field[2 * kRingPoints + 1] != '/')
        throw NotationError("FEN board '" + std::string(field) +
                            "' is not three rings of 8 points separated by '/'");
    Position p;
    size_t k = 0;
    for (size_t at = 0; at < field.size(); ++at) {
        const char c = field[at];
        if (at == kRingPoints || at == 2 * kRingPoints + 1) continue;  // checked above
        const Bitboard bit = Bitboard{1} << k;  // in FEN order; mapped by the caller
        if (c == kWhite)
            p.stones[white] |= bit;
        else if (c == kBlack)
            p.stones[black] |= bit;
        else if (c == kMarked)
            throw NotationError("FEN marks point " + std::string(kFenOrder[k]) +
                                " (X): marked points belong to games that delay removals, "
                                "not played here");
        else if (c != kEmpty)
            throw NotationError("FEN board character '" + std::string(1, c) + "' at point " +
                                std::string(kFenOrder[k]) + " is not O, @ or *");
        ++k;
    }
    return p;
}

// Sanmill's tokens after the fields: those that do not change the value are
// accepted, the others refused.
void check_token(std::string_view token) {
    const std::string_view key = token.substr(0, token.find(':'));
    if (key == "p" || token == "ids:nodes") return;  // a preferred removal; square numbering
    if (key == "c" || key == "i" || key == "l")
        throw NotationError("FEN token '" + std::string(token) +
                            "' lists captures of other games (custodian, intervention, leap), "
                            "not played here");
    if (key == "s")
        throw NotationError("FEN token '" + std::string(token) +
                            "' says a stalemate removal is pending" + kBetweenTurns);
    throw NotationError("unknown FEN token '" + std::string(token) + "'");
}

}  // namespace

bool has_fen(const Variant& v) { return v.board->points == static_cast<int>(kFenOrder.size()); }

bool looks_like_fen(std::string_view text) {
    const auto words = split_words(text);
    return !words.empty() && words[0].find('/') != std::string_view::npos;
}

std::string to_fen(const Variant& v, const Position& p, int counter) {
    require_24_points(v);
    std::string text;
    for (size_t k = 0; k < kFenOrder.size(); ++k) {
        if (k > 0 && k % kRingPoints == 0) text += '/';
        const Bitboard bit = Bitboard{1} << point_of(v, k);
        text += p.stones[white] & bit ? kWhite : p.stones[black] & bit ? kBlack : kEmpty;
    }
    // Sanmill derives phase and action from the mover's hand: placing, or
    // moving (selecting a stone to move).
    text += p.side == white ? " w" : " b";
    text += p.in_hand[p.side] > 0 ? " p p" : " m s";
    for (Colour c : {white, black})
        text += " " + std::to_string(p.on_board(c)) + " " + std::to_string(p.in_hand[c]);
    // Nothing to remove, no last mills, no used mills, then rule50 and the move number.
    text += " 0 0 0 0 0 0 0 " + std::to_string(counter) + " 1";
    return text;
}

CountedPosition parse_fen(const Variant& v, std::string_view text) {
    require_24_points(v);
    const auto words = split_words(text);
    if (words.size() < kFields)
        throw NotationError(
            "a FEN has 17 fields (board, side, phase, action, stone counts, ...), "
            "got " +
            std::to_string(words.size()));
    const Position in_fen_order = parse_board(words[board]);
    Position p;
    for (size_t k = 0; k < kFenOrder.size(); ++k)
        for (Colour c : {white, black})
            if (in_fen_order.stones[c] >> k & 1) p.stones[c] |= Bitboard{1} << point_of(v, k);

    if (words[side] != "w" && words[side] != "b")
        throw NotationError("FEN side to move '" + std::string(words[side]) + "' is not w or b");
    p.side = words[side] == "w" ? white : black;
    if (words[phase].size() != 1 ||
        std::string_view("rpmon").find(words[phase][0]) == std::string_view::npos)
        throw NotationError("FEN phase '" + std::string(words[phase]) + "' is not r, p, m, o or n");
    if (words[action] == "r")
        throw NotationError("FEN action 'r' says a removal is pending" + kBetweenTurns);
    if (words[action] != "p" && words[action] != "s" && words[action] != "?")
        throw NotationError("FEN action '" + std::string(words[action]) + "' is not p, s or ?");

    const Field on_board[2] = {white_on_board, black_on_board};
    const Field in_hand[2] = {white_in_hand, black_in_hand};
    const char* names[2] = {"white", "black"};
    for (Colour c : {white, black}) {
        const int stones = parse_stone_count(words[on_board[c]], "FEN stones on board");
        if (stones != p.on_board(c))
            throw NotationError("FEN says " + std::string(names[c]) + " has " +
                                std::to_string(stones) + " stones on board, its board shows " +
                                std::to_string(p.on_board(c)));
        p.in_hand[c] =
            static_cast<uint8_t>(parse_stone_count(words[in_hand[c]], "FEN stones in hand"));
    }
    for (Field f : {white_to_remove, black_to_remove})
        if (parse_field<int>(words[f], "stones to remove") != 0)
            throw NotationError("FEN says " + std::string(words[f]) + " stones are to be removed" +
                                kBetweenTurns);
    // Which mills were closed last or already used matters only under rules
    // of other games; checked to be numbers, then ignored.
    for (Field f :
         {white_last_mill_from, white_last_mill_to, black_last_mill_from, black_last_mill_to})
        parse_field<int>(words[f], "last-mill square");
    parse_field<uint64_t>(words[used_mills], "used-mills mask");
    const int plies = parse_field<int>(words[rule50], "rule50 counter");
    if (plies < 0)
        throw NotationError("FEN rule50 counter '" + std::string(words[rule50]) + "' is negative");
    parse_field<uint32_t>(words[move_number], "move number");
    for (size_t k = kFields; k < words.size(); ++k) check_token(words[k]);

    if (auto why = invalid_reason(v, p); !why.empty())
        throw InvalidPositionError("invalid position for " + v.name + ": " + why);
    // Without the N-move rule the counter cannot change the value.
    const int counter = v.rules.has_n_move() ? plies : 0;
    if (const std::string flaw = counter_flaw(v.rules, counter); !flaw.empty())
        throw InvalidPositionError("FEN rule50: " + flaw);
    return {p, counter};
}

}  // namespace morris
