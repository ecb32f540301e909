// The morris command-line tool.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "db/sector_writer.hpp"
#include "game/notation.hpp"
#include "game/perft.hpp"
#include "game/turns.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/prove.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solve.hpp"
#include "solver/verify.hpp"
#include "tools/render.hpp"

namespace {

using namespace morris;

// --variant and --rule, shared by every subcommand.
struct VariantOptions {
    std::string name = "nine";
    std::vector<std::string> rules;

    void add_to(CLI::App* command) {
        command->add_option("--variant", name, "Variant (five, six, seven, nine, ...)");
        command->add_option("--rule", rules, "Override a rule option, e.g. flying=none")
            ->take_all();
    }
    Variant resolve() const {
        Variant variant = find_variant(name);
        for (const auto& rule : rules) apply_rule(variant, rule);
        return variant;
    }
};

std::vector<SectorKey> parse_sector_list(const std::string& list) {
    std::vector<SectorKey> keys;
    std::string item;
    for (size_t at = 0; at <= list.size(); ++at) {
        if (at == list.size() || list[at] == ',') {
            if (!item.empty()) {
                auto key = parse_sector(item);
                if (!key)
                    throw std::invalid_argument("'" + item + "' is not a sector like 3-3-0-0");
                keys.push_back(*key);
            }
            item.clear();
        } else {
            item += list[at];
        }
    }
    return keys;
}

int run_perft(const VariantOptions& options, int depth, const std::string& position_text) {
    Variant v = options.resolve();
    Position p =
        position_text.empty() ? start_position(v) : parse_position_or_turns(v, position_text);
    fmt::print("{}\n", perft(v, p, depth));
    return 0;
}

int run_turns(const VariantOptions& options, const std::string& position_text) {
    Variant v = options.resolve();
    Position p = parse_position_or_turns(v, position_text);
    std::vector<Turn> turns;
    generate_turns(v, p, turns);
    switch (status(v, p)) {
        case Status::loss: fmt::print("loss\n"); return 0;
        case Status::draw: fmt::print("draw\n"); return 0;
        case Status::playing: break;
    }
    for (const Turn& t : turns) fmt::print("{}\n", to_string(v, t));
    return 0;
}

int run_sectors(const VariantOptions& options) {
    Variant v = options.resolve();
    SectorGraph graph = sector_graph(v);
    fmt::print("{:<11} {:>13} {:>13} {:>7}  {}\n", "sector", "positions", "orbits", "excess",
               "successors");
    uint64_t total = 0;
    for (const SectorKey& key : graph.sectors) {
        const SectorIndex& index =
            sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
        uint64_t orbits = orbit_count(*v.board, key.mover_on_board, key.opponent_on_board);
        std::string next;
        for (const SectorKey& s : graph.successors.at(key))
            next += (next.empty() ? "" : " ") + to_string(s);
        fmt::print("{:<11} {:>13} {:>13} {:>6.2f}%  {}\n", to_string(key), index.size(), orbits,
                   100.0 * (static_cast<double>(index.size()) / orbits - 1), next);
        total += index.size();
    }
    fmt::print("{} sectors, {} positions, {} units to solve\n", graph.sectors.size(), total,
               graph.units.size());
    return 0;
}

// "24G", "512M", "1000000": a byte count with an optional binary suffix.
uint64_t parse_bytes(const std::string& text) {
    size_t end = 0;
    double number = 0;
    try {
        number = std::stod(text, &end);
    } catch (const std::exception&) {
        end = 0;
    }
    const std::string suffix = text.substr(end);
    const int shift = suffix == ""    ? 0
                      : suffix == "K" ? 10
                      : suffix == "M" ? 20
                      : suffix == "G" ? 30
                                      : -1;
    if (end == 0 || shift < 0 || number <= 0)
        throw std::invalid_argument("memory limit '" + text + "' is not a size like 20G or 512M");
    return static_cast<uint64_t>(number * static_cast<double>(uint64_t{1} << shift));
}

int run_solve(const VariantOptions& options, SolveOptions solve_options, const std::string& sectors,
              const std::string& memory_limit) {
    Variant v = options.resolve();
    solve_options.targets = parse_sector_list(sectors);
    if (!memory_limit.empty()) solve_options.memory_limit = parse_bytes(memory_limit);
    size_t skipped = 0;
    solve_options.on_sector = [&](const SectorReport& r) {
        if (r.skipped) {
            ++skipped;
            return;
        }
        fmt::print(
            "{:<11} {:>11} positions {:>11} wins {:>11} draws {:>11} losses {:>8.2f}s "
            "{:>7.2f} GiB peak {:>12} bytes\n",
            to_string(r.key), r.positions, r.wins, r.draws, r.losses, r.seconds,
            r.peak_memory / double(1 << 30), r.bytes_on_disk);
        std::fflush(stdout);
    };
    solve(v, solve_options);
    if (skipped) fmt::print("{} sectors were already solved\n", skipped);
    return 0;
}

int run_verify(const VariantOptions& options, const std::string& directory,
               const std::string& sectors) {
    Variant v = options.resolve();
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(directory + ": no such database directory");
    const VerifyReport report = verify(v, directory, parse_sector_list(sectors), true);
    // A few names, then how many more: a fresh directory lacks hundreds.
    auto list = [](const std::vector<SectorKey>& keys) {
        constexpr size_t kNamed = 8;
        std::string text;
        for (size_t i = 0; i < std::min(keys.size(), kNamed); ++i)
            text += (text.empty() ? "" : " ") + to_string(keys[i]);
        if (keys.size() > kNamed) text += fmt::format(" and {} more", keys.size() - kNamed);
        return text;
    };
    if (!report.missing.empty())
        fmt::print("{} sectors are not in {}: {}\n", report.missing.size(), directory,
                   list(report.missing));
    for (const auto& [key, successor] : report.without_successor)
        fmt::print("{} not verified: its successor {} is not in {}\n", to_string(key),
                   to_string(successor), directory);
    if (report.verified.empty())
        throw std::runtime_error("no sector of " + v.name + " in " + directory +
                                 " could be verified");
    fmt::print("{} inconsistent entries in {} sectors verified\n", report.inconsistent,
               report.verified.size());
    return report.inconsistent == 0 ? 0 : 1;
}

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

// A position answered: its outcome at its counter, and its turns ranked.
struct Answer {
    CountedPosition at;
    Outcome stored;   // at counter 0
    Outcome outcome;  // at the position's counter
    std::optional<Outcome> plain;
    RankedTurns ranked;
    std::vector<std::optional<Outcome>> plain_turns;  // by ranked turn: for the mover
};

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

std::string query_json(const Variant& v, const Answer& a) {
    std::string turns;
    for (size_t k = 0; k < a.ranked.turns.size(); ++k)
        turns += (turns.empty() ? "" : ", ") + turn_json(v, a.ranked.turns[k], a.plain_turns[k]);
    std::string extra;
    if (v.rules.has_n_move()) extra += fmt::format(", \"counter\": {}", a.at.counter);
    if (const std::string label = rule_label(a.stored, a.plain); !label.empty())
        extra += fmt::format(", \"label\": \"{}\"", label);
    return fmt::format(
        "{{\"variant\": {}, \"position\": {}, \"value\": \"{}\", \"plies\": {}{}, "
        "\"turns\": [{}]}}",
        json_string(v.name), json_string(to_string(v, a.at.position)), to_string(a.outcome.value),
        plies_json(a.outcome), extra, turns);
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

// The databases a query reads: the one asked, and the one without the
// N-move rule (--plain-db) that names cursed wins and blessed losses.
struct Databases {
    const Database& db;
    const Database* plain = nullptr;
};

// Answers one position; returns the error, or "" when it was answered.
std::string answer(const Databases& dbs, const std::string& text, bool json, bool one_line) {
    const Database& db = dbs.db;
    const Variant& v = db.variant();
    Answer a;
    try {
        a.at = parse_counted_position(v, text);
    } catch (const std::exception& e) {
        return e.what();
    }
    const Position& p = a.at.position;
    ProbeResult r = db.probe(p);
    if (!r.ok()) return r.error;
    a.stored = r.outcome;
    a.outcome = at_counter(v.rules, r.outcome, a.at.counter);
    a.ranked = rank_turns(db, p, a.at.counter);
    if (!a.ranked.ok()) return a.ranked.error;
    a.plain_turns.resize(a.ranked.turns.size());
    if (dbs.plain) {
        const ProbeResult plain = dbs.plain->probe(p);
        if (!plain.ok()) return plain.error;
        a.plain = plain.outcome;
        for (size_t k = 0; k < a.ranked.turns.size(); ++k) {
            const ProbeResult after = dbs.plain->probe(apply_turn(v, p, a.ranked.turns[k].turn));
            if (!after.ok()) return after.error;
            a.plain_turns[k] = for_the_mover(after.outcome);
        }
    }
    const bool drawn_by_rule = a.outcome.value == Value::draw && a.stored.value != Value::draw;
    if (json) {
        fmt::print("{}\n", query_json(v, a));
    } else if (one_line) {
        fmt::print("{} {} {}\n", to_string(v, p), to_string(a.outcome),
                   a.ranked.turns.empty() ? "-" : to_string(v, a.ranked.turns.front().turn));
    } else {
        const char* side = p.side == white ? "white" : "black";
        fmt::print("{}\n{}  ({}, {} to move, in hand W {} B {}", draw_board(v, p), to_string(v, p),
                   v.name, side, p.in_hand[white], p.in_hand[black]);
        if (v.rules.has_n_move())
            fmt::print(", counter {} of n_move={}", a.at.counter, v.rules.n_move);
        fmt::print(")\n\n{} to move: {}\n", side,
                   describe(a.outcome, drawn_by_rule, rule_label(a.stored, a.plain)));
        if (!a.ranked.turns.empty()) fmt::print("\n{:<14} {}\n", "turn", "result for the mover");
        for (size_t k = 0; k < a.ranked.turns.size(); ++k) {
            const RankedTurn& t = a.ranked.turns[k];
            fmt::print(
                "{:<14} {}\n", to_string(v, t.turn),
                describe(t.outcome, t.drawn_by_rule, rule_label(t.outcome, a.plain_turns[k])));
        }
    }
    return "";
}

// The variant without the N-move rule, for --plain-db.
Variant without_n_move(Variant v) {
    if (!v.rules.has_n_move())
        throw std::invalid_argument(
            "--plain-db compares with a database under n_move: add --rule n_move=N");
    v.rules.n_move = kNMoveOff;
    return v;
}

int run_query(const VariantOptions& options, const std::string& directory,
              const std::string& plain_directory, bool json, const std::string& position_text) {
    Variant v = options.resolve();
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(directory + ": no such database directory");
    Database db(directory, v);
    std::optional<Database> plain;
    if (!plain_directory.empty()) {
        if (!std::filesystem::is_directory(plain_directory))
            throw std::runtime_error(plain_directory + ": no such database directory");
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

int run_info(const VariantOptions& options, const std::string& directory,
             const std::string& plain_directory, bool json) {
    Variant v = options.resolve();
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(directory + ": no such database directory");
    std::optional<Variant> plain;
    if (!plain_directory.empty()) {
        if (!std::filesystem::is_directory(plain_directory))
            throw std::runtime_error(plain_directory + ": no such database directory");
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

int run_prove(const VariantOptions& options, const std::string& directory, uint64_t max_nodes,
              const std::string& memory_limit) {
    Variant v = options.resolve();
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(directory + ": no such database directory");
    Database db(directory, v);
    ProofReport r =
        prove(db, true, max_nodes, memory_limit.empty() ? 0 : parse_bytes(memory_limit));
    if (r.complete)
        fmt::print(
            "{}: the start is a {} for the first player (alpha-beta over {} placement positions, "
            "{} moving-phase leaves probed)\n",
            v.name, to_string(r.value), r.nodes, r.leaf_probes);
    else
        fmt::print(
            "{}: stopped after {} placement positions (--max-nodes): the start's value is not "
            "proved ({} moving-phase leaves probed)\n",
            v.name, r.nodes, r.leaf_probes);
    fmt::print("{} searched placement positions checked against the database, {} disagree\n",
               r.checked, r.disagreements);
    for (const auto& example : r.examples) fmt::print("  {}\n", example);
    return r.complete && r.disagreements == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"morris: perfect play for the Morris family of board games"};
    app.require_subcommand(1);

    VariantOptions perft_options;
    int depth = 1;
    std::string perft_position;
    auto* perft_command = app.add_subcommand("perft", "Count turn sequences of a given length");
    perft_options.add_to(perft_command);
    perft_command->add_option("--depth", depth, "Plies")->required()->check(CLI::Range(0, 64));
    perft_command->add_option("position", perft_position, "Position or turns (default: start)");

    VariantOptions turns_options;
    std::string turns_position;
    auto* turns_command = app.add_subcommand("turns", "List the legal turns of a position");
    turns_options.add_to(turns_command);
    turns_command->add_option("position", turns_position, "Position or turns")->required();

    VariantOptions sectors_options;
    auto* sectors_command = app.add_subcommand("sectors", "List a variant's sectors and sizes");
    sectors_options.add_to(sectors_command);

    VariantOptions solve_variant;
    SolveOptions solve_options;
    std::string solve_sectors, solve_memory;
    auto* solve_command = app.add_subcommand("solve", "Solve a variant into a database directory");
    solve_variant.add_to(solve_command);
    solve_command->add_option("--db", solve_options.directory, "Database directory")->required();
    solve_command->add_option("--threads", solve_options.threads, "Threads (default: all)");
    solve_command->add_option("--sectors", solve_sectors,
                              "Comma-separated sectors (with what they need); default all");
    solve_command->add_flag("!--no-progress", solve_options.progress, "No progress line");
    solve_command->add_option("--memory-limit", solve_memory,
                              "Refuse units needing more (e.g. 20G); default 80% of RAM");
    solve_command
        ->add_option("--propagation", solve_options.propagation,
                     "push, pull, alternate or auto (default): only the speed differs")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, Propagation>{{"auto", Propagation::automatic},
                                               {"push", Propagation::push},
                                               {"pull", Propagation::pull},
                                               {"alternate", Propagation::alternate}}));

    VariantOptions verify_variant;
    std::string verify_directory, verify_sectors;
    auto* verify_command = app.add_subcommand("verify", "Re-derive every stored value");
    verify_variant.add_to(verify_command);
    verify_command->add_option("--db", verify_directory, "Database directory")->required();
    verify_command->add_option("--sectors", verify_sectors, "Comma-separated sectors; default all");

    VariantOptions query_variant;
    std::string query_directory, query_position, query_moves, query_plain;
    bool query_json = false;
    auto* query_command = app.add_subcommand(
        "query", "A position's value and distance, and every legal turn's, best first");
    query_variant.add_to(query_command);
    query_command->add_option("--db", query_directory, "Database directory")->required();
    query_command->add_flag("--json", query_json, "One JSON object per position");
    query_command->add_option("--plain-db", query_plain,
                              "The database without n_move: names cursed wins and blessed losses");
    auto* query_moves_option =
        query_command->add_option("--moves", query_moves, "Turns from the start");
    query_command->add_option("position", query_position, "Position, or - to read one per line")
        ->excludes(query_moves_option);

    VariantOptions info_variant;
    std::string info_directory, info_plain;
    bool info_json = false;
    auto* info_command = app.add_subcommand("info", "Per sector statistics of a database");
    info_variant.add_to(info_command);
    info_command->add_option("--db", info_directory, "Database directory")->required();
    info_command->add_flag("--json", info_json, "JSON output");
    info_command->add_option("--plain-db", info_plain,
                             "The database without n_move: counts cursed wins and blessed losses");

    VariantOptions prove_variant;
    std::string prove_directory;
    auto* prove_command = app.add_subcommand(
        "prove", "Alpha-beta search of the placement phase over the moving-phase database");
    prove_variant.add_to(prove_command);
    prove_command->add_option("--db", prove_directory, "Database directory")->required();
    uint64_t prove_max_nodes = 0;
    prove_command->add_option("--max-nodes", prove_max_nodes,
                              "Stop after this many placement positions (0: no limit)");
    std::string prove_memory;
    prove_command->add_option("--memory-limit", prove_memory,
                              "Refuse to start if it needs more (e.g. 20G); default 80% of RAM");

    try {
        app.parse(argc, argv);
        if (*perft_command) return run_perft(perft_options, depth, perft_position);
        if (*turns_command) return run_turns(turns_options, turns_position);
        if (*sectors_command) return run_sectors(sectors_options);
        if (*solve_command)
            return run_solve(solve_variant, solve_options, solve_sectors, solve_memory);
        if (*verify_command) return run_verify(verify_variant, verify_directory, verify_sectors);
        if (*query_command) {
            if (query_moves_option->count())
                query_position = query_moves;
            else if (query_position.empty())
                throw std::invalid_argument("query needs a position, --moves or -");
            return run_query(query_variant, query_directory, query_plain, query_json,
                             query_position);
        }
        if (*info_command) return run_info(info_variant, info_directory, info_plain, info_json);
        if (*prove_command)
            return run_prove(prove_variant, prove_directory, prove_max_nodes, prove_memory);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "morris: error: {} (see morris --help)\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "morris: error: {}\n", e.what());
        return 1;
    }
    return 0;
}
