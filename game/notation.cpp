#include "game/notation.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "game/fen.hpp"
#include "game/turns.hpp"

namespace morris {

std::string to_string(const Variant& v, const Position& p) {
    std::string text;
    for (int i = 0; i < v.board->points; ++i)
        text += p.stones[white] >> i & 1 ? 'W' : p.stones[black] >> i & 1 ? 'B' : '.';
    text += p.side == white ? " w " : " b ";
    text += std::to_string(p.in_hand[white]) + " " + std::to_string(p.in_hand[black]);
    return text;
}

std::string to_string(const Variant& v, const Turn& t) {
    const auto& names = v.board->point_names;
    std::string text = t.is_placement() ? names[t.to] : names[t.from] + "-" + names[t.to];
    for (int8_t r : t.removed)
        if (r >= 0) text += "x" + names[r];
    return text;
}

std::vector<std::string_view> split_words(std::string_view text) {
    std::vector<std::string_view> result;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) result.push_back(text.substr(start, i - start));
    }
    return result;
}

namespace {

// A turn is at most "a1-a4xg7xa1" and never holds a '.', so anything else is
// meant as a board (and gets the board parser's precise complaint).
bool looks_like_board(std::string_view word) {
    constexpr size_t kLongestTurn = 11;
    return word.size() > kLongestTurn || word.find('.') != std::string_view::npos;
}

int parse_point(const Variant& v, std::string_view name, std::string_view turn) {
    auto p = v.board->point(name);
    if (!p)
        throw NotationError("unknown point '" + std::string(name) + "' in turn '" +
                            std::string(turn) + "' (board " + v.board->name + ")");
    return *p;
}

}  // namespace

int parse_stone_count(std::string_view word, const std::string& what) {
    constexpr int kMostStones = 99;
    int value = -1;
    auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size() || value < 0 ||
        value > kMostStones)
        throw NotationError(what + " '" + std::string(word) + "' is not a number of stones");
    return value;
}

Position parse_position(const Variant& v, std::string_view text) {
    auto w = split_words(text);
    if (w.size() != 4)
        throw NotationError("a position is '<board> <side> <white-in-hand> <black-in-hand>', got " +
                            std::to_string(w.size()) + " words");
    if (static_cast<int>(w[0].size()) != v.board->points)
        throw NotationError("board string has " + std::to_string(w[0].size()) +
                            " characters, board " + v.board->name + " has " +
                            std::to_string(v.board->points) + " points");
    Position p;
    for (int i = 0; i < v.board->points; ++i) {
        char c = w[0][i];
        if (c == 'W')
            p.stones[white] |= 1u << i;
        else if (c == 'B')
            p.stones[black] |= 1u << i;
        else if (c != '.')
            throw NotationError("board character '" + std::string(1, c) + "' at point " +
                                v.board->point_names[i] + " is not W, B or .");
    }
    if (w[1] != "w" && w[1] != "b")
        throw NotationError("side to move '" + std::string(w[1]) + "' is not w or b");
    p.side = w[1] == "w" ? white : black;
    p.in_hand[white] = static_cast<uint8_t>(parse_stone_count(w[2], "white-in-hand"));
    p.in_hand[black] = static_cast<uint8_t>(parse_stone_count(w[3], "black-in-hand"));
    if (auto why = invalid_reason(v, p); !why.empty())
        throw InvalidPositionError("invalid position for " + v.name + ": " + why);
    return p;
}

Turn parse_turn(const Variant& v, std::string_view text) {
    Turn t;
    auto rest = text;
    auto take_point = [&](std::string_view& s) {
        size_t n = 0;
        while (n < s.size() && s[n] != '-' && s[n] != 'x') ++n;
        if (n == 0) throw NotationError("turn '" + std::string(text) + "' is missing a point");
        int p = parse_point(v, s.substr(0, n), text);
        s.remove_prefix(n);
        return static_cast<int8_t>(p);
    };
    t.to = take_point(rest);
    if (!rest.empty() && rest[0] == '-') {
        rest.remove_prefix(1);
        t.from = t.to;
        t.to = take_point(rest);
    }
    for (int k = 0; k < 2 && !rest.empty() && rest[0] == 'x'; ++k) {
        rest.remove_prefix(1);
        t.removed[k] = take_point(rest);
    }
    if (!rest.empty())
        throw NotationError("turn '" + std::string(text) + "' has unexpected text '" +
                            std::string(rest) + "'");
    return t;
}

Turn parse_legal_turn(const Variant& v, const Position& p, std::string_view text, int ply) {
    const Turn wanted = parse_turn(v, text);
    std::vector<Turn> legal;
    generate_turns(v, p, legal);
    // The two removals of a double removal may be given in either order.
    auto sorted = [](const int8_t r[2]) {
        return std::pair(std::min(r[0], r[1]), std::max(r[0], r[1]));
    };
    auto it = std::find_if(legal.begin(), legal.end(), [&](const Turn& t) {
        return t.from == wanted.from && t.to == wanted.to &&
               sorted(t.removed) == sorted(wanted.removed);
    });
    if (it == legal.end())
        throw NotationError("illegal turn '" + std::string(text) + "'" +
                            (ply > 0 ? " at ply " + std::to_string(ply) : "") + " in position " +
                            to_string(v, p) + (legal.empty() ? " (the game is over)" : ""));
    return *it;
}

CountedPosition play_turn(const Variant& v, const CountedPosition& at, const Turn& turn) {
    CountedPosition after{apply_turn(v, at.position, turn), 0};
    if (!v.rules.has_n_move()) return after;
    after.counter = counter_after(turn, at.counter);
    if (drawn_by_n_move(v.rules, after.counter) && status(v, after.position) == Status::loss)
        after.counter = v.rules.n_move - 1;  // the loss ends the game first: no turn follows
    return after;
}

CountedPosition parse_counted_position(const Variant& v, std::string_view text) {
    if (looks_like_fen(text)) return parse_fen(v, text);
    auto words = split_words(text);
    const int n = v.rules.n_move;
    if (!words.empty() && looks_like_board(words[0])) {
        constexpr size_t kFieldsWithCounter = 5;
        if (words.size() != kFieldsWithCounter) return {parse_position(v, text), 0};
        const std::string_view word = words.back();
        int counter = -1;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), counter);
        if (error != std::errc() || end != word.data() + word.size() || counter < 0)
            throw NotationError("counter '" + std::string(word) +
                                "' is not a number of plies since the last placement or removal");
        // A counter written out is an error without the rule, even 0.
        if (!v.rules.has_n_move()) throw InvalidPositionError(counter_flaw(v.rules, 1));
        if (const std::string flaw = counter_flaw(v.rules, counter); !flaw.empty())
            throw InvalidPositionError(flaw);
        const std::string position(text.substr(0, static_cast<size_t>(word.data() - text.data())));
        return {parse_position(v, position), counter};
    }
    CountedPosition at{start_position(v), 0};
    int ply = 0;
    for (auto word : words) {
        ++ply;
        const Turn turn = parse_legal_turn(v, at.position, word, ply);
        if (drawn_by_n_move(v.rules, at.counter))
            throw NotationError("turn '" + std::string(word) + "' at ply " + std::to_string(ply) +
                                " comes after the game was drawn by n_move=" + std::to_string(n));
        at = play_turn(v, at, turn);
    }
    if (drawn_by_n_move(v.rules, at.counter))
        throw NotationError("the turns end in a game drawn by n_move=" + std::to_string(n) + " (" +
                            std::to_string(n) + " plies without a placement or removal)");
    return at;
}

Position parse_position_or_turns(const Variant& v, std::string_view text) {
    return parse_counted_position(v, text).position;
}

}  // namespace morris
