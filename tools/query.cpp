// The commands that read a solved database (see query.hpp).
#include "tools/query.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <vector>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "db/sector_writer.hpp"
#include "game/fen.hpp"
#include "game/notation.hpp"
#include "game/turns.hpp"
#include "solver/sector_graph.hpp"
#include "tools/render.hpp"

namespace morris {

void require_database_directory(const std::string& directory) {
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(directory + ": no such database directory");
}

namespace {

std::string plies_json(const Outcome& o) {
    return o.value == Value::draw ? "null" : std::to_string(o.plies);
}

// What the N-move rule makes of a decisive outcome, against the database
// without it: "cursed win" (a win without the rule, a draw under it),
// "blessed loss", "" for anything else.
std::string rule_label(const Outcome& under_rule, const std::optional<Outcome>& plain) {
    if (!plain || under_rule.value != Value::draw) return "";
    if (plain->value == Value::win) return "cursed win";
    if (plain->value == Value::loss) return "blessed loss";
    return "";
}

std::string turn_json(const Variant& v, const RankedTurn& t, const std::optional<Outcome>& plain) {
    std::string extra;
    if (v.rules.has_n_move())
        extra += fmt::format(", \"draw_by_counter\": {}", t.drawn_by_rule ? "true" : "false");
    if (const std::string label = t.drawn_by_rule ? "" : rule_label(t.outcome, plain);
        !label.empty())
        extra += fmt::format(", \"label\": \"{}\"", label);
    return fmt::format("{{\"turn\": {}, \"value\": \"{}\", \"plies\": {}{}}}",
                       json_string(to_string(v, t.turn)), to_string(t.outcome.value),
                       plies_json(t.outcome), extra);
}

// "draw", "win 13", and under the N-move rule what made a draw of it: the
// counter (a win or loss at counter 0 with more plies than the counter
// leaves), or the rule itself (a cursed win or blessed loss: a draw at
// counter 0, decisive without the rule, known from --plain-db).
std::string describe(const Outcome& o, bool drawn_by_counter, const std::string& label) {
    std::string text = to_string(o);
    if (drawn_by_counter)
        text += " (by the N-move counter)";
    else if (!label.empty())
        text += " (" + label + ")";
    return text;
}

}  // namespace

std::string query_json(const Variant& v, const Answer& a) {
    std::string turns;
    for (size_t k = 0; k < a.ranked.turns.size(); ++k)
        turns += (turns.empty() ? "" : ", ") + turn_json(v, a.ranked.turns[k], a.plain_turns[k]);
    std::string extra;
    if (v.rules.has_n_move()) extra += fmt::format(", \"counter\": {}", a.at.counter);
    if (has_fen(v)) extra += ", \"fen\": " + json_string(to_fen(v, a.at.position, a.at.counter));
    if (const std::string label = rule_label(a.stored, a.plain); !label.empty())
        extra += fmt::format(", \"label\": \"{}\"", label);
    return fmt::format(
        "{{\"variant\": {}, \"position\": {}, \"value\": \"{}\", \"plies\": {}{}, "
        "\"turns\": [{}]}}",
        json_string(v.name), json_string(to_string(v, a.at.position)), to_string(a.outcome.value),
        plies_json(a.outcome), extra, turns);
}

Answer answer_position(const Databases& dbs, const std::string& text) {
    const Database& db = dbs.db;
    const Variant& v = db.variant();
    Answer a;
    a.at = parse_counted_position(v, text);  // throws NotationError
    const Position& p = a.at.position;
    const ProbeResult r = db.probe(p);
    if (r.needs_full_database) throw NeedsFullDatabase(r.error);
    if (!r.ok()) throw DatabaseError(r.error);
    a.stored = r.outcome;
    a.outcome = at_counter(v.rules, r.outcome, a.at.counter);
    a.ranked = rank_turns(db, p, a.at.counter);
    if (a.ranked.needs_full_database) throw NeedsFullDatabase(a.ranked.error);
    if (!a.ranked.ok()) throw DatabaseError(a.ranked.error);
    a.plain_turns.resize(a.ranked.turns.size());
    if (dbs.plain) {
        const ProbeResult plain = dbs.plain->probe(p);
        if (!plain.ok()) throw DatabaseError(plain.error);
        a.plain = plain.outcome;
        for (size_t k = 0; k < a.ranked.turns.size(); ++k) {
            const ProbeResult after = dbs.plain->probe(apply_turn(v, p, a.ranked.turns[k].turn));
            if (!after.ok()) throw DatabaseError(after.error);
            a.plain_turns[k] = for_the_mover(after.outcome);
        }
    }
    return a;
}

namespace {

void print_answer(const Variant& v, const Answer& a, bool one_line) {
    const Position& p = a.at.position;
    if (one_line) {
        fmt::print("{} {} {}\n", to_string(v, p), to_string(a.outcome),
                   a.ranked.turns.empty() ? "-" : to_string(v, a.ranked.turns.front().turn));
        return;
    }
    const bool drawn_by_rule = a.outcome.value == Value::draw && a.stored.value != Value::draw;
    const char* side = p.side == white ? "white" : "black";
    fmt::print("{}\n{}  ({}, {} to move, in hand W {} B {}", draw_board(v, p), to_string(v, p),
               v.name, side, p.in_hand[white], p.in_hand[black]);
    if (v.rules.has_n_move()) fmt::print(", counter {} of n_move={}", a.at.counter, v.rules.n_move);
    fmt::print(")\n");
    if (has_fen(v)) fmt::print("FEN {}\n", to_fen(v, p, a.at.counter));
    fmt::print("\n{} to move: {}\n", side,
               describe(a.outcome, drawn_by_rule, rule_label(a.stored, a.plain)));
    if (!a.ranked.turns.empty()) fmt::print("\n{:<14} {}\n", "turn", "result for the mover");
    for (size_t k = 0; k < a.ranked.turns.size(); ++k) {
        const RankedTurn& t = a.ranked.turns[k];
        fmt::print("{:<14} {}\n", to_string(v, t.turn),
                   describe(t.outcome, t.drawn_by_rule, rule_label(t.outcome, a.plain_turns[k])));
    }
}

// Answers one position; returns the error, or "" when it was answered.
std::string answer(const Databases& dbs, const std::string& text, bool json, bool one_line) {
    try {
        const Answer a = answer_position(dbs, text);
        if (json)
            fmt::print("{}\n", query_json(dbs.db.variant(), a));
        else
            print_answer(dbs.db.variant(), a, one_line);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

// The variant without the N-move rule, for --plain-db.
Variant without_n_move(Variant v) {
    if (!v.rules.has_n_move())
        throw std::invalid_argument(
            "--plain-db compares with a database under n_move: add --rule n_move=N");
    v.rules.n_move = kNMoveOff;
    return v;
}

}  // namespace

int run_query(const Variant& v, const std::string& directory, const std::string& plain_directory,
              bool json, const std::string& position_text) {
    require_database_directory(directory);
    Database db(directory, v);
    std::optional<Database> plain;
    if (!plain_directory.empty()) {
        require_database_directory(plain_directory);
        plain.emplace(plain_directory, without_n_move(v));
    }
    const Databases dbs{db, plain ? &*plain : nullptr};
    if (position_text != "-") {
        std::string error = answer(dbs, position_text, json, false);
        if (!error.empty()) throw std::runtime_error(error);
        return 0;
    }
    // One answer per input line, errors included, so thousands can be checked in one run.
    int failures = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::string error = answer(dbs, line, json, true);
        if (error.empty()) continue;
        ++failures;
        if (json)
            fmt::print("{{\"position\": {}, \"error\": {}}}\n", json_string(line),
                       json_string(error));
        else
            fmt::print("error: {}\n", error);
    }
    return failures == 0 ? 0 : 1;
}

namespace {

struct InfoTotals {
    uint64_t positions = 0, wins = 0, draws = 0, losses = 0, bytes = 0;
    int longest_win = -1, longest_loss = -1;
    // Against the database without the N-move rule (--plain-db), at counter 0.
    std::optional<uint64_t> cursed_wins, blessed_losses;

    void add(const SectorFileInfo& i) {
        positions += i.entries;
        wins += i.wins;
        draws += i.draws;
        losses += i.losses;
        bytes += i.file_bytes;
        longest_win = std::max(longest_win, i.longest_win);
        longest_loss = std::max(longest_loss, i.longest_loss);
    }
    void add(const InfoTotals& t) {
        positions += t.positions, wins += t.wins, draws += t.draws, losses += t.losses;
        bytes += t.bytes;
        longest_win = std::max(longest_win, t.longest_win);
        longest_loss = std::max(longest_loss, t.longest_loss);
        if (t.cursed_wins) {
            cursed_wins = cursed_wins.value_or(0) + *t.cursed_wins;
            blessed_losses = blessed_losses.value_or(0) + *t.blessed_losses;
        }
    }
};

// Counts a sector's cursed wins and blessed losses: wins (losses) in its
// file without the N-move rule that are draws in its file under the rule.
void count_cursed(const SectorFile& rule_file, const SectorFile& plain_file, InfoTotals& t) {
    if (plain_file.info().entries != rule_file.info().entries)
        throw std::runtime_error(plain_file.path().string() + ": holds " +
                                 std::to_string(plain_file.info().entries) + " entries, " +
                                 rule_file.path().string() + " " +
                                 std::to_string(rule_file.info().entries));
    std::vector<Entry> rule(rule_file.info().entries), plain(plain_file.info().entries);
    read_whole_sector(rule_file, rule);
    read_whole_sector(plain_file, plain);
    uint64_t cursed = 0, blessed = 0;
    for (size_t i = 0; i < rule.size(); ++i) {
        const bool drawn = rule[i] == kDrawEntry;
        const Value before = decode(plain[i], plain_file.info().code).value;
        cursed += drawn && before == Value::win;
        blessed += drawn && before == Value::loss;
    }
    t.cursed_wins = cursed;
    t.blessed_losses = blessed;
}

std::string info_row(const std::string& name, const InfoTotals& t, bool json) {
    double bits = t.positions ? 8.0 * static_cast<double>(t.bytes) / t.positions : 0;
    if (json)
        return fmt::format(
            "{{\"sector\": \"{}\", \"positions\": {}, \"wins\": {}, \"draws\": {}, "
            "\"losses\": {}, \"longest_win\": {}, \"longest_loss\": {}, \"bytes\": {}, "
            "\"bits_per_position\": {:.4f}{}}}",
            name, t.positions, t.wins, t.draws, t.losses, t.longest_win, t.longest_loss, t.bytes,
            bits,
            t.cursed_wins ? fmt::format(", \"cursed_wins\": {}, \"blessed_losses\": {}",
                                        *t.cursed_wins, *t.blessed_losses)
                          : "");
    return fmt::format(
        "{:<11} {:>12} {:>12} {:>12} {:>12} {:>6} {:>6} {:>12} {:>8.3f}{}", name, t.positions,
        t.wins, t.draws, t.losses, t.longest_win, t.longest_loss, t.bytes, bits,
        t.cursed_wins ? fmt::format(" {:>12} {:>12}", *t.cursed_wins, *t.blessed_losses) : "");
}

}  // namespace

int run_info(const Variant& v, const std::string& directory, const std::string& plain_directory,
             bool json) {
    require_database_directory(directory);
    std::optional<Variant> plain;
    if (!plain_directory.empty()) {
        require_database_directory(plain_directory);
        plain = without_n_move(v);
    }
    SectorGraph graph = sector_graph(v);
    // By phase: sectors with stones in hand (placement) and without (moving).
    InfoTotals totals, placement, moving;
    std::vector<std::string> rows;
    size_t missing = 0, missing_plain = 0;
    for (const SectorKey& key : graph.sectors) {
        auto path = std::filesystem::path(directory) / sector_file_name(v.name, key);
        if (!std::filesystem::exists(path)) {
            ++missing;
            continue;
        }
        const auto file = SectorFile::open(path, v.name, rule_hash(v), key);
        InfoTotals sector;
        sector.add(file->info());
        if (plain) {
            const auto plain_path =
                std::filesystem::path(plain_directory) / sector_file_name(v.name, key);
            if (std::filesystem::exists(plain_path))
                count_cursed(*file, *SectorFile::open(plain_path, v.name, rule_hash(*plain), key),
                             sector);
            else
                ++missing_plain;
        }
        rows.push_back(info_row(to_string(key), sector, json));
        totals.add(sector);
        (key.mover_in_hand + key.opponent_in_hand > 0 ? placement : moving).add(sector);
    }
    if (json) {
        std::string list;
        for (const auto& row : rows) list += (list.empty() ? "" : ", ") + row;
        fmt::print(
            "{{\"variant\": {}, \"sectors\": [{}], \"missing_sectors\": {}, \"placement\": {}, "
            "\"moving\": {}, \"total\": {}}}\n",
            json_string(v.name), list, missing, info_row("placement", placement, true),
            info_row("moving", moving, true), info_row("total", totals, true));
        return 0;
    }
    fmt::print("{:<11} {:>12} {:>12} {:>12} {:>12} {:>6} {:>6} {:>12} {:>8}{}\n", "sector",
               "positions", "wins", "draws", "losses", "win", "loss", "bytes", "bits/pos",
               plain ? fmt::format(" {:>12} {:>12}", "cursed wins", "blessed loss") : "");
    for (const auto& row : rows) fmt::print("{}\n", row);
    fmt::print("{}\n{}\n", info_row("placement", placement, false),
               info_row("moving", moving, false));
    fmt::print("{}\n", info_row("total", totals, false));
    if (missing_plain)
        fmt::print("{} of its sectors are not in {}: not counted as cursed or blessed\n",
                   missing_plain, plain_directory);
    if (missing)
        fmt::print("{} of the variant's {} sectors are not in {}\n", missing, graph.sectors.size(),
                   directory);
    return 0;
}

}  // namespace morris
