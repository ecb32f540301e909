// docs/rules.md §6 notation and Sanmill's FEN (docs/fen.md): positions and turns
// print and parse back to themselves, and bad text throws NotationError with one
// line that names the problem.
#include "game/notation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "game/fen.hpp"
#include "game/position.hpp"
#include "game/turns.hpp"
#include "game/variant.hpp"

using namespace morris;

namespace {

// A random position valid under docs/rules.md §6 (hands fitting the turn order in
// place-only variants, at least 3 stones for the side not to move).
Position random_valid_position(const Variant& v, std::mt19937& rng) {
    auto below = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    for (;;) {
        Position p;
        p.side = below(2) ? black : white;
        if (v.rules.placement == Placement::place_only) {
            if (below(4) == 0) {
                // The movement phase: both hands empty, either side to move.
                p.in_hand[white] = p.in_hand[black] = 0;
            } else {
                int hand = below(v.stones + 1);
                p.in_hand[white] = static_cast<uint8_t>(hand);
                p.in_hand[black] = static_cast<uint8_t>(hand + (p.side == black ? 1 : 0));
            }
        } else {
            p.in_hand[white] = static_cast<uint8_t>(below(v.stones + 1));
            p.in_hand[black] = static_cast<uint8_t>(below(v.stones + 1));
        }
        if (p.in_hand[black] > v.stones) continue;
        // Scatter stones over distinct points, at most as many as allowed.
        std::vector<int> points(v.board->points);
        for (int i = 0; i < v.board->points; ++i) points[i] = i;
        std::shuffle(points.begin(), points.end(), rng);
        int whites = below(v.stones - p.in_hand[white] + 1);
        int blacks = below(v.stones - p.in_hand[black] + 1);
        if (whites + blacks > v.board->points) continue;
        for (int k = 0; k < whites; ++k) p.stones[white] |= 1u << points[k];
        for (int k = 0; k < blacks; ++k) p.stones[black] |= 1u << points[whites + k];
        if (invalid_reason(v, p).empty()) return p;
    }
}

// Runs `parse`, expecting a NotationError whose one-line message contains
// every one of `needles`.
void expect_notation_error(const std::function<void()>& parse,
                           const std::vector<std::string>& needles, const std::string& input) {
    try {
        parse();
        ADD_FAILURE() << "no NotationError for '" << input << "'";
    } catch (const NotationError& e) {
        std::string message = e.what();
        EXPECT_FALSE(message.empty()) << input;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
        for (const auto& needle : needles)
            EXPECT_NE(message.find(needle), std::string::npos)
                << "message for '" << input << "' is '" << message << "', lacks '" << needle << "'";
    } catch (const std::exception& e) {
        ADD_FAILURE() << "'" << input << "' threw a non-NotationError: " << e.what();
    }
}

void expect_bad_position(const Variant& v, const std::string& text,
                         const std::vector<std::string>& needles) {
    expect_notation_error([&] { parse_position(v, text); }, needles, text);
}

void expect_bad_turn(const Variant& v, const std::string& text,
                     const std::vector<std::string>& needles) {
    expect_notation_error([&] { parse_turn(v, text); }, needles, text);
}

std::string empty_board(const Variant& v) { return std::string(v.board->points, '.'); }

}  // namespace

// ---- positions --------------------------------------------------------------

TEST(PositionNotation, StartPositionOfEveryVariant) {
    for (auto name : variant_names()) {
        Variant v = find_variant(name);
        std::string hand = std::to_string(v.stones);
        std::string text = empty_board(v) + " w " + hand + " " + hand;
        EXPECT_EQ(to_string(v, start_position(v)), text) << name;
        EXPECT_EQ(parse_position(v, text), start_position(v)) << name;
    }
    EXPECT_EQ(to_string(find_variant("nine"), start_position(find_variant("nine"))),
              "........................ w 9 9");
}

TEST(PositionNotation, RandomValidPositionsRoundTripInEveryVariant) {
    std::mt19937 rng(20240611);
    for (auto name : variant_names()) {
        Variant v = find_variant(name);
        for (int i = 0; i < 500; ++i) {
            Position p = random_valid_position(v, rng);
            std::string text = to_string(v, p);
            ASSERT_EQ(static_cast<int>(text.find(' ')), v.board->points) << name << ": " << text;
            Position back;
            ASSERT_NO_THROW(back = parse_position(v, text)) << name << ": " << text;
            EXPECT_EQ(back, p) << name << ": " << text;
            EXPECT_EQ(to_string(v, back), text) << name;
        }
    }
}

TEST(PositionNotation, BoardCharactersFollowCanonicalPointOrder) {
    Variant v = find_variant("nine");
    // a1 is point 0, g7 the last; d2 comes after d1 and before d3.
    Position p = parse_position(v, "W........WB............B w 3 3");
    EXPECT_EQ(p.stones[white], (1u << 0) | (1u << 9));
    EXPECT_EQ(p.stones[black], (1u << 10) | (1u << 23));
    EXPECT_EQ(v.board->point_names[9], "d1");
    EXPECT_EQ(v.board->point_names[10], "d2");
}

TEST(PositionNotation, ExtraWhitespaceBetweenFieldsIsAccepted) {
    Variant v = find_variant("five");
    EXPECT_EQ(parse_position(v, "  ................\tw  5 5 "), start_position(v));
}

TEST(PositionNotation, HandsNeedNotFollowTurnOrderUnderPlaceOrMove) {
    Variant lasker = find_variant("lasker");
    EXPECT_NO_THROW(parse_position(lasker, "........................ w 10 9"));
    EXPECT_NO_THROW(parse_position(lasker, "........................ b 7 10"));
    Variant nine = find_variant("nine");
    apply_rule(nine, "placement=place-or-move");
    EXPECT_NO_THROW(parse_position(nine, "........................ w 9 8"));
}

TEST(PositionNotation, EitherSideMayMoveOnceBothHandsAreEmpty) {
    Variant v = find_variant("nine");
    EXPECT_NO_THROW(parse_position(v, "WWW.........BBB......... w 0 0"));
    EXPECT_NO_THROW(parse_position(v, "WWW.........BBB......... b 0 0"));
    // Black to move holding one more than White is the placement phase.
    EXPECT_NO_THROW(parse_position(v, "WWW.........BB.......... b 0 1"));
}

TEST(PositionNotation, SideToMoveWithFewerThanThreeStonesIsValidAndLost) {
    Variant v = find_variant("nine");
    Position p;
    ASSERT_NO_THROW(p = parse_position(v, "WW..........BBB......... w 0 0"));
    EXPECT_EQ(status(v, p), Status::loss);
}

TEST(PositionNotation, WrongLength) {
    Variant nine = find_variant("nine");
    expect_bad_position(nine, "......................... w 9 9", {"25 characters", "24 points"});
    expect_bad_position(nine, "....................... w 9 9", {"23 characters", "24 points"});
    expect_bad_position(nine, empty_board(find_variant("five")) + " w 9 9", {"16 characters"});
    // b17 has one point more than b16.
    expect_bad_position(find_variant("seven"), empty_board(find_variant("six")) + " w 7 7",
                        {"16 characters", "17 points"});
    // Too few or too many words.
    expect_bad_position(nine, "", {"0 words"});
    expect_bad_position(nine, "........................ w 9", {"3 words"});
    expect_bad_position(nine, "........................ w 9 9 9", {"5 words"});
}

TEST(PositionNotation, UnknownBoardCharacter) {
    Variant nine = find_variant("nine");
    expect_bad_position(nine, "X....................... w 9 9", {"'X'", "a1"});
    expect_bad_position(nine, "...........w............ w 9 9", {"'w'", "d3"});
    expect_bad_position(nine, ".......................0 w 9 9", {"'0'", "g7"});
    expect_bad_position(find_variant("five"), "....b........... w 5 5", {"'b'", "b3"});
}

TEST(PositionNotation, BadSide) {
    Variant nine = find_variant("nine");
    for (std::string side : {"x", "W", "B", "white", "ww", "1"})
        expect_bad_position(nine, "........................ " + side + " 9 9",
                            {"side to move", "'" + side + "'"});
}

TEST(PositionNotation, BadHandCounts) {
    Variant nine = find_variant("nine");
    const std::string board = empty_board(nine);
    expect_bad_position(nine, board + " w nine 9", {"white-in-hand", "'nine'", "number"});
    expect_bad_position(nine, board + " w 9 x", {"black-in-hand", "'x'", "number"});
    expect_bad_position(nine, board + " w 9a 9", {"white-in-hand", "'9a'"});
    expect_bad_position(nine, board + " w 9 +9", {"black-in-hand", "'+9'"});
    expect_bad_position(nine, board + " w 9 9.0", {"black-in-hand", "'9.0'"});
    expect_bad_position(nine, board + " w -1 9", {"white-in-hand", "'-1'"});
    expect_bad_position(nine, board + " w 9 -0x1", {"black-in-hand"});
    expect_bad_position(nine, board + " w 256 256", {"white-in-hand", "'256'"});
    expect_bad_position(nine, board + " w 9 99999999999999999999",
                        {"black-in-hand", "'99999999999999999999'"});
    // Numbers of a sane size but more than the variant allows.
    expect_bad_position(nine, board + " w 10 10", {"white", "10", "more than the 9"});
    expect_bad_position(nine, board + " w 99 99", {"white", "99", "more than the 9"});
}

TEST(PositionNotation, TooManyStones) {
    Variant nine = find_variant("nine");
    // Ten white stones on the board.
    expect_bad_position(nine, "WWWWWWWWWWBBB........... w 0 0", {"white", "10", "more than the 9"});
    // Four on the board and six in hand.
    expect_bad_position(nine, "WWWW....BBB............. b 5 7", {"black", "10", "more than the 9"});
    expect_bad_position(nine, "WWWW....BBB............. w 6 6", {"white", "10", "more than the 9"});
    Variant five = find_variant("five");
    expect_bad_position(five, "WWWWWWBBB....... b 0 0", {"white", "6", "more than the 5"});
}

TEST(PositionNotation, HandsMustFitTurnOrderInPlaceOnlyVariants) {
    for (auto name : variant_names()) {
        Variant v = find_variant(name);
        if (v.rules.placement != Placement::place_only) continue;
        const std::string board = empty_board(v);
        const std::string n = std::to_string(v.stones);
        const std::string m = std::to_string(v.stones - 1);
        const std::string l = std::to_string(v.stones - 2);
        // White to move: both hands equal.
        expect_bad_position(v, board + " w " + n + " " + m, {"white to move", "same number"});
        expect_bad_position(v, board + " w " + m + " " + n, {"white to move", "same number"});
        // Black to move: Black holds one more.
        expect_bad_position(v, board + " b " + n + " " + n, {"black to move", "one more"});
        expect_bad_position(v, board + " b " + n + " " + m, {"black to move", "one more"});
        expect_bad_position(v, board + " b " + l + " " + n, {"black to move", "one more"});
        // White with an empty hand while Black still holds stones.
        expect_bad_position(v, "WWWBBB" + board.substr(6) + " w 0 1", {"same number"});
    }
}

TEST(PositionNotation, SideNotToMoveNeedsThreeStones) {
    Variant nine = find_variant("nine");
    // Black, not to move, has 2 stones.
    expect_bad_position(nine, "WWW.........BB.......... w 0 0", {"black", "fewer than 3"});
    // White, not to move, has 2 stones.
    expect_bad_position(nine, "WW..........BBB......... b 0 0", {"white", "fewer than 3"});
    // Stones in hand count: 1 on board and 1 in hand is still 2.
    Variant lasker = find_variant("lasker");
    expect_bad_position(lasker, "W...........BBB......... b 1 0", {"white", "fewer than 3"});
}

// ---- turns ------------------------------------------------------------------

TEST(TurnNotation, ExamplesFromTheSpec) {
    Variant v = find_variant("nine");
    auto at = [&](const char* name) { return static_cast<int8_t>(*v.board->point(name)); };
    struct Case {
        const char* text;
        Turn turn;
    };
    const Case cases[] = {
        {"d2", Turn{.to = at("d2")}},
        {"a1-a4", Turn{.from = at("a1"), .to = at("a4")}},
        {"d2xg7", Turn{.to = at("d2"), .removed = {at("g7"), -1}}},
        {"a1-a4xg7", Turn{.from = at("a1"), .to = at("a4"), .removed = {at("g7"), -1}}},
        {"d2xg7xa1", Turn{.to = at("d2"), .removed = {at("g7"), at("a1")}}},
        {"a1-g7xb2xf6", Turn{.from = at("a1"), .to = at("g7"), .removed = {at("b2"), at("f6")}}},
    };
    for (const auto& c : cases) {
        Turn parsed;
        ASSERT_NO_THROW(parsed = parse_turn(v, c.text)) << c.text;
        EXPECT_EQ(parsed, c.turn) << c.text;
        EXPECT_EQ(to_string(v, c.turn), c.text);
    }
    EXPECT_TRUE(parse_turn(v, "d2").is_placement());
    EXPECT_FALSE(parse_turn(v, "a1-a4").is_placement());
    EXPECT_EQ(parse_turn(v, "d2xg7xa1").removals(), 2);
}

TEST(TurnNotation, EveryPointOfEveryBoardRoundTrips) {
    for (auto name : variant_names()) {
        Variant v = find_variant(name);
        for (int i = 0; i < v.board->points; ++i) {
            const std::string& point = v.board->point_names[i];
            Turn placement = parse_turn(v, point);
            EXPECT_EQ(placement, Turn{.to = static_cast<int8_t>(i)}) << name << " " << point;
            EXPECT_EQ(to_string(v, placement), point);
        }
    }
}

TEST(TurnNotation, GeneratedTurnsRoundTripInEveryVariant) {
    // Under double_mill=two as well, so that double removals show up.
    std::mt19937 rng(7);
    int kinds[4] = {0, 0, 0, 0};  // placement, move, one removal, two removals
    for (auto name : variant_names()) {
        for (bool two : {false, true}) {
            Variant v = find_variant(name);
            if (two) apply_rule(v, "double_mill=two");
            std::vector<Turn> turns;
            for (int i = 0; i < 300; ++i) {
                Position p = random_valid_position(v, rng);
                generate_turns(v, p, turns);
                for (const Turn& t : turns) {
                    std::string text = to_string(v, t);
                    Turn back;
                    ASSERT_NO_THROW(back = parse_turn(v, text)) << name << ": " << text;
                    EXPECT_EQ(back, t) << name << ": " << text;
                    ++kinds[t.is_placement() ? 0 : 1];
                    if (t.removals() > 0) ++kinds[1 + t.removals()];
                }
            }
        }
    }
    for (int k = 0; k < 4; ++k) EXPECT_GT(kinds[k], 0) << "no turns of kind " << k;
}

TEST(TurnNotation, UnknownPoint) {
    Variant nine = find_variant("nine");
    expect_bad_turn(nine, "h8", {"unknown point 'h8'", "b24"});
    expect_bad_turn(nine, "d4", {"unknown point 'd4'"});  // the centre is no point of b24
    expect_bad_turn(nine, "D2", {"unknown point 'D2'"});
    expect_bad_turn(nine, "a1-a9", {"unknown point 'a9'", "a1-a9"});
    expect_bad_turn(nine, "d2xz1", {"unknown point 'z1'", "d2xz1"});
    expect_bad_turn(nine, "d2xg7xq", {"unknown point 'q'"});
    // c3 exists on b17 but not on b16.
    expect_bad_turn(find_variant("five"), "c3", {"unknown point 'c3'", "b16"});
    EXPECT_NO_THROW(parse_turn(find_variant("seven"), "c3"));
}

TEST(TurnNotation, TrailingGarbage) {
    Variant nine = find_variant("nine");
    expect_bad_turn(nine, "a1-a4-a7", {"'a1-a4-a7'", "unexpected text '-a7'"});
    expect_bad_turn(nine, "d2xg7xa1xb2", {"unexpected text 'xb2'"});
    expect_bad_turn(nine, "d2xg7-a1", {"unexpected text '-a1'"});
    expect_bad_turn(nine, "d2-", {"missing a point"});
    expect_bad_turn(nine, "d2x", {"missing a point"});
    expect_bad_turn(nine, "a1-a4x", {"missing a point"});
    expect_bad_turn(nine, "d2!", {"unknown point 'd2!'"});
    expect_bad_turn(nine, "d2 ", {"'d2 '"});
}

TEST(TurnNotation, EmptyTurn) {
    Variant nine = find_variant("nine");
    expect_bad_turn(nine, "", {"missing a point"});
    expect_bad_turn(nine, "-a4", {"missing a point"});
    expect_bad_turn(nine, "xg7", {"missing a point"});
    expect_bad_turn(nine, "d2xxg7", {"missing a point"});
}

// ---- turn lists as positions ------------------------------------------------

TEST(TurnListNotation, TurnsFromTheStartArePositions) {
    Variant v = find_variant("nine");
    Position p = parse_position_or_turns(v, "d2 d6 a1");
    EXPECT_EQ(to_string(v, p), "W.........W..B.......... b 7 8");
    EXPECT_EQ(p.side, black);
    EXPECT_EQ(p.in_hand[white], 7);
    EXPECT_EQ(p.in_hand[black], 8);
    EXPECT_EQ(p.stones[white], (1u << *v.board->point("a1")) | (1u << *v.board->point("d2")));
    EXPECT_EQ(p.stones[black], 1u << *v.board->point("d6"));
    EXPECT_EQ(parse_position_or_turns(v, ""), start_position(v));
    EXPECT_EQ(parse_position_or_turns(v, "........................ w 9 9"), start_position(v));
}

// The counter counts only under the N-move rule: without it a turn list's
// moves leave it 0 (a counter there would be refused by every probe).
TEST(TurnListNotation, CounterCountsMovesOnlyUnderTheNMoveRule) {
    Variant v = find_variant("five");
    Variant rule = v;
    apply_rule(rule, "n_move=50");
    // A game of the last legal turn each ply, into the moving phase.
    Position p = start_position(v);
    std::string game;
    int quiet = 0;
    std::vector<Turn> turns;
    for (int ply = 0; ply < 16; ++ply) {
        generate_turns(v, p, turns);
        ASSERT_FALSE(turns.empty());
        const Turn t = turns.back();
        quiet = t.is_placement() || t.removals() > 0 ? 0 : quiet + 1;
        game += (game.empty() ? "" : " ") + to_string(v, t);
        p = apply_turn(v, p, t);
    }
    ASSERT_GT(quiet, 0) << game;
    EXPECT_EQ(parse_counted_position(v, game).counter, 0) << game;
    EXPECT_EQ(parse_counted_position(rule, game).counter, quiet) << game;
}

TEST(TurnListNotation, IllegalTurnIsANotationError) {
    Variant v = find_variant("nine");
    expect_notation_error([&] { parse_position_or_turns(v, "d2 d2"); },
                          {"illegal turn 'd2'", "ply 2"}, "d2 d2");
    expect_notation_error([&] { parse_position_or_turns(v, "a1-a4"); },
                          {"illegal turn 'a1-a4'", "ply 1"}, "a1-a4");
    expect_notation_error([&] { parse_position_or_turns(v, "d2 h9"); }, {"unknown point 'h9'"},
                          "d2 h9");
}

// ---- Sanmill's FEN (docs/fen.md) --------------------------------------------

namespace {

Bitboard points(const Variant& v, std::initializer_list<const char*> names) {
    Bitboard set = 0;
    for (const char* name : names) set |= Bitboard{1} << *v.board->point(name);
    return set;
}

void expect_bad_fen(const Variant& v, const std::string& text,
                    const std::vector<std::string>& needles) {
    expect_notation_error([&] { parse_fen(v, text); }, needles, text);
}

const std::string kNothingPending = " 0 0 0 0 0 0 0 0 1";  // remove counts to move number

}  // namespace

TEST(Fen, StartIsSanmillsStartFen) {
    // Sanmill's StartFEN9 (src/engine_commands.cpp) and its 12-stone form.
    EXPECT_EQ(to_fen(find_variant("nine"), start_position(find_variant("nine"))),
              "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1");
    EXPECT_EQ(to_fen(find_variant("twelve"), start_position(find_variant("twelve"))),
              "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1");
}

// Boards that Sanmill's own games and tests show after known turns: the
// rings inner, middle, outer, each from its top-middle point clockwise.
TEST(Fen, BoardFollowsSanmillsRings) {
    const Variant v = find_variant("nine");
    // After a7 b4 d1 (a trajectory of Sanmill's engine).
    EXPECT_EQ(parse_fen(v, "********/******@*/****O**O b p p 2 7 1 8" + kNothingPending).position,
              parse_position_or_turns(v, "a7 b4 d1"));
    // After d2 d6 f4 b4 f2 g4 f6 (a test of Sanmill's Rust rules), once the
    // pending removal is left out.
    const Position p =
        parse_fen(v, "********/@OOOO*@*/**@***** b p p 4 5 3 6" + kNothingPending).position;
    EXPECT_EQ(p.stones[white], points(v, {"d2", "f2", "f4", "f6"}));
    EXPECT_EQ(p.stones[black], points(v, {"d6", "b4", "g4"}));
    // Every ring's first point is its top middle, and each goes clockwise.
    const Position inner =
        parse_fen(v, "OO*****@/********/******** b p p 2 7 1 8" + kNothingPending).position;
    EXPECT_EQ(inner.stones[white], points(v, {"d5", "e5"}));
    EXPECT_EQ(inner.stones[black], points(v, {"c5"}));
}

TEST(Fen, RandomPositionsRoundTripWithTheirCounter) {
    std::mt19937 rng(20261202);
    for (const char* name : {"nine", "nine-diagonal", "twelve", "lasker"}) {
        Variant v = find_variant(name);
        apply_rule(v, "n_move=100");
        for (int i = 0; i < 500; ++i) {
            const Position p = random_valid_position(v, rng);
            const int counter = std::uniform_int_distribution<int>(0, 99)(rng);
            const std::string fen = to_fen(v, p, counter);
            CountedPosition back;
            ASSERT_NO_THROW(back = parse_fen(v, fen)) << name << ": " << fen;
            EXPECT_EQ(back.position, p) << name << ": " << fen;
            EXPECT_EQ(back.counter, counter) << name << ": " << fen;
            // Every reader of positions takes a FEN as well.
            EXPECT_EQ(parse_counted_position(v, fen).position, p) << fen;
        }
    }
}

TEST(Fen, Rule50IsTheCounterUnderTheNMoveRuleOnly) {
    const std::string fen = "O@O@O@**/********/******** w m s 3 0 3 0 0 0 0 0 0 0 0 37 60";
    Variant plain = find_variant("nine");
    EXPECT_EQ(parse_fen(plain, fen).counter, 0);
    Variant rule = plain;
    apply_rule(rule, "n_move=50");
    EXPECT_EQ(parse_fen(rule, fen).counter, 37);
    apply_rule(rule, "n_move=20");
    expect_bad_fen(rule, fen, {"rule50", "not below n_move=20"});
}

TEST(Fen, FieldsThatCannotChangeTheValueAreAccepted) {
    const Variant v = find_variant("nine");
    const Position expected = parse_position_or_turns(v, "a7 b4 d1");
    // Last mills, used mills, a move number, a preferred removal, node ids.
    for (const std::string fen : {
             "********/******@*/****O**O b p p 2 7 1 8 0 0 29 30 0 0 0 0 2",
             "********/******@*/****O**O b p p 2 7 1 8 0 0 0 0 0 0 72340169604259840 0 2",
             "********/******@*/****O**O b n ? 2 7 1 8 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
             "********/******@*/****O**O b p p 2 7 1 8 0 0 0 0 0 0 0 0 1 p:12",
         })
        EXPECT_EQ(parse_fen(v, fen).position, expected) << fen;
}

TEST(Fen, FieldsThatWouldChangeTheValueAreRefused) {
    const Variant v = find_variant("nine");
    const std::string board = "********/******@*/****O**O b p ";
    expect_bad_fen(v, "******@*/******@O/****O*@O b p r 3 6 3 6 0 1 0 0 0 0 0 0 1",
                   {"removal is pending"});
    expect_bad_fen(v, board + "p 2 7 1 8 0 1 0 0 0 0 0 0 1", {"to be removed"});
    expect_bad_fen(v, "******@*/******@O/****X*@O w p p 2 9 3 9" + kNothingPending,
                   {"marks point d1"});
    expect_bad_fen(v, board + "p 2 7 1 8" + kNothingPending + " c:w-0-|b-1-9", {"captures"});
    expect_bad_fen(v, board + "p 2 7 1 8" + kNothingPending + " s:1", {"stalemate"});
    expect_bad_fen(v, board + "p 3 7 1 8" + kNothingPending, {"white has 3 stones on board"});
}

TEST(Fen, MalformedFenIsANotationError) {
    const Variant v = find_variant("nine");
    expect_bad_fen(v, "********/********/******** w p p 0 9 0 9", {"17 fields", "got 8"});
    expect_bad_fen(v, "********/********/******* w p p 0 9 0 9" + kNothingPending, {"three rings"});
    expect_bad_fen(v, "*******./********/******** w p p 0 9 0 9" + kNothingPending,
                   {"character '.'", "c5"});
    expect_bad_fen(v, "********/********/******** x p p 0 9 0 9" + kNothingPending,
                   {"side to move 'x'"});
    expect_bad_fen(v, "********/********/******** w q p 0 9 0 9" + kNothingPending, {"phase 'q'"});
    expect_bad_fen(v, "********/********/******** w p p 0 nine 0 9" + kNothingPending, {"'nine'"});
    expect_bad_fen(v, "********/********/******** w p p 0 9 0 8" + kNothingPending,
                   {"invalid position for nine", "both hands"});
    expect_bad_fen(v, "********/********/******** w p p 0 9 0 9" + kNothingPending + " zz:1",
                   {"unknown FEN token 'zz:1'"});
    expect_bad_fen(find_variant("five"),
                   "********/********/******** w p p 0 5 0 5" + kNothingPending,
                   {"24-point board", "b16"});
}
