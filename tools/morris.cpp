// The morris command-line tool.
#include <fmt/core.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.hpp"
#include "game/fen.hpp"
#include "game/notation.hpp"
#include "game/perft.hpp"
#include "game/turns.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/compact.hpp"
#include "solver/progress.hpp"
#include "solver/prove.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solve.hpp"
#include "solver/verify.hpp"
#include "tools/play.hpp"
#include "tools/query.hpp"
#include "tools/serve.hpp"
#include "tools/solve_memory.hpp"

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
    // Units by their place in the order `morris solve` takes, from 1:
    // sectors of one unit are solved together.
    const std::vector<std::vector<SectorKey>> units =
        solve_order(v, graph, SolveOptions{}, default_memory_limit());
    std::map<SectorKey, size_t> unit_of;
    for (size_t u = 0; u < units.size(); ++u)
        for (const SectorKey& key : units[u]) unit_of[key] = u + 1;
    fmt::print("{:<11} {:>13} {:>5}  {}\n", "sector", "positions", "unit", "successors");
    uint64_t total = 0;
    for (const SectorKey& key : graph.sectors) {
        const uint64_t positions = orbit_count(*v.board, key.mover_on_board, key.opponent_on_board);
        std::string next;
        for (const SectorKey& s : graph.successors.at(key))
            next += (next.empty() ? "" : " ") + to_string(s);
        fmt::print("{:<11} {:>13} {:>5}  {}\n", to_string(key), positions, unit_of.at(key), next);
        total += positions;
    }
    fmt::print("{} sectors, {} positions, {} units to solve\n", graph.sectors.size(), total,
               units.size());
    // What a machine needs to solve the whole variant: its hungriest unit.
    uint64_t most = 0;
    std::string hungriest;
    for (const auto& unit : units)
        if (const uint64_t need = unit_memory(v, graph, unit, SolveOptions{}); need > most) {
            most = need;
            hungriest = to_string(unit);
        }
    fmt::print("largest unit: {}, about {:.0f} MiB while it is solved\n", hungriest,
               most / double(1 << 20));
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

// A unit's cost by phase (solver/stats.hpp): seconds, and far accesses a
// position of the unit. One line, under the unit's last sector's, for
// scripts/solve-report.sh to sum by phase of the game.
void print_unit_stats(const SectorReport& r) {
    const UnitStats& s = *r.stats;
    const auto n = static_cast<double>(std::max<uint64_t>(s.positions, 1));
    auto per = [&](uint64_t count) { return static_cast<double>(count) / n; };
    fmt::print(
        "stats {} {} positions  first-pass {:.2f} s {:.3f} reads {:.3f} writes  push {} layers "
        "{:.2f} s {:.3f} writes  pull {} layers {:.2f} s {:.3f} reads  candidates {:.2f} s {:.3f} "
        "writes  write {:.2f} s  scales push {:.2f} pull {:.2f}\n",
        to_string(r.key), s.positions, s.first_pass.seconds, per(s.first_pass.far_reads),
        per(s.first_pass.far_writes), s.push.layers, s.push.seconds, per(s.push.far_writes),
        s.pull.layers, s.pull.seconds, per(s.pull.far_reads), s.candidates.seconds,
        per(s.candidates.far_writes), s.write.seconds, s.push_scale, s.pull_scale);
}

int run_solve(const VariantOptions& options, SolveOptions solve_options, const std::string& sectors,
              const std::string& memory_limit, bool stats) {
    keep_freed_memory();
    Variant v = options.resolve();
    solve_options.targets = parse_sector_list(sectors);
    if (!memory_limit.empty()) solve_options.memory_limit = parse_bytes(memory_limit);
    solve_options.before_unit = hand_back_freed_memory;
    if (stats) fmt::print("heap {}\n", heap_description());
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
        if (stats && r.stats) print_unit_stats(r);
        std::fflush(stdout);
    };
    solve(v, solve_options);
    if (skipped) fmt::print("{} sectors were already solved\n", skipped);
    return 0;
}

int run_verify(const VariantOptions& options, const std::string& directory,
               const std::string& sectors) {
    Variant v = options.resolve();
    require_database_directory(directory);
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

// Compares the values of a database's sector files with another's (a
// re-solve by another build or host): the bytes may differ where the values
// do not. Every sector in --sectors, or every file of the variant in `dir`.
// Each file is checked against its name, and the two against each other's
// rule set, so databases solved under any --rule compare without one.
int run_diff(const VariantOptions& options, const std::string& dir, const std::string& against,
             const std::string& sectors, bool progress) {
    const std::string variant = options.resolve().name;
    require_database_directory(dir);
    require_database_directory(against);
    std::vector<SectorKey> keys = parse_sector_list(sectors);
    if (keys.empty()) keys = sectors_in(dir, variant);
    if (keys.empty()) throw std::runtime_error("no sector of " + variant + " in " + dir);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    auto open = [&](const std::filesystem::path& path, const SectorKey& key) {
        auto file = SectorFile::open_any(path);
        if (file->info().variant != variant || file->info().key != key)
            throw DatabaseError(path.string() + ": holds " + file->info().variant + "'s sector " +
                                to_string(file->info().key) + ", not its name's");
        return file;
    };
    // Every file is opened and checked (header and index) before any is
    // compared, then closed: a database has more files than a process may
    // keep open. The threads open a pair each.
    struct Pair {
        SectorKey key;
        std::filesystem::path a, b;
        uint64_t entries;
    };
    std::vector<Pair> pairs;
    uint64_t alone = 0, positions = 0;
    for (const SectorKey& key : keys) {
        const std::string name = sector_file_name(variant, key);
        const std::filesystem::path here = std::filesystem::path(dir) / name,
                                    there = std::filesystem::path(against) / name;
        const bool in_dir = std::filesystem::exists(here),
                   in_against = std::filesystem::exists(there);
        if (!in_dir && !in_against)
            throw std::invalid_argument("sector " + to_string(key) + " is in neither " + dir +
                                        " nor " + against);
        if (!in_dir || !in_against) {
            fmt::print("{}: not in {}\n", to_string(key), in_dir ? against : dir);
            ++alone;
            continue;
        }
        const uint64_t entries = open(here, key)->info().entries;
        open(there, key);
        pairs.push_back({key, here, there, entries});
        positions += entries;
    }
    std::fflush(stdout);                             // before the progress line on a terminal
    std::vector<std::string> differs(pairs.size());  // how, or empty
    std::vector<std::exception_ptr> errors(pairs.size());
    std::atomic<bool> failed{false};
    {
        // On a terminal only: an error must be the one line a script reads.
        Progress bar(variant + " diff", positions, progress && isatty(STDERR_FILENO));
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t i = 0; i < static_cast<int64_t>(pairs.size()); ++i) {
            if (failed) continue;
            try {
                const auto a = open(pairs[i].a, pairs[i].key), b = open(pairs[i].b, pairs[i].key);
                if (a->info().rule_hash != b->info().rule_hash)
                    differs[i] = "solved under other rules";
                else if (const auto at = first_difference(*a, *b))
                    differs[i] = fmt::format("differs from position {} on", *at);
                bar.advance(pairs[i].entries);
            } catch (...) {
                errors[i] = std::current_exception();
                failed = true;
            }
        }
    }
    for (const auto& error : errors)
        if (error) std::rethrow_exception(error);
    uint64_t different = 0;
    for (size_t i = 0; i < pairs.size(); ++i)
        if (!differs[i].empty())
            fmt::print("{}: {}\n", to_string(pairs[i].key), differs[i]), ++different;
    fmt::print("{} sectors hold the same values, {} differ, {} are in one database only\n",
               pairs.size() - different, different, alone);
    return different == 0 && alone == 0 ? 0 : 1;
}

int run_compact(const VariantOptions& options, const CompactOptions& compact_options) {
    const Variant v = options.resolve();
    require_database_directory(compact_options.from.string());
    const CompactReport r = compact(v, compact_options);
    fmt::print("{} sectors written ({} of them store less), {} already there, {} not in {}\n",
               r.sectors_written, r.sectors_storing_less, r.sectors_skipped, r.sectors_missing,
               compact_options.from.string());
    if (r.positions > 0)
        fmt::print("{} positions, {:.1f}% stored exactly, {} bytes, {:.3f} bits per position\n",
                   r.positions, 100.0 * static_cast<double>(r.stored_exactly) / r.positions,
                   r.bytes, 8.0 * static_cast<double>(r.bytes) / r.positions);
    return 0;
}

int run_prove(const VariantOptions& options, const std::string& directory, uint64_t max_nodes,
              const std::string& memory_limit) {
    Variant v = options.resolve();
    require_database_directory(directory);
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
    fmt::print("values read: {:.1f} MiB of moving-phase leaves, {:.1f} MiB of placement hints",
               r.leaf_bytes / double(1 << 20), r.hint_bytes / double(1 << 20));
    if (r.hints_refused > 0)
        fmt::print(" ({} look-ups found no room under the memory limit)", r.hints_refused);
    fmt::print("\n");
    for (const auto& example : r.examples) fmt::print("  {}\n", example);
    return r.complete && r.disagreements == 0 ? 0 : 1;
}

// A database is a file per sector, and verify and prove keep every file
// they read open: twelve has 1,315 sectors, more than the 1,024 open files
// many systems allow a process by default. The hard limit is usually far
// higher, and raising the soft one to it needs no privilege.
void raise_open_file_limit() {
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "solve") run_again_with_huge_page_heap(argv);
    raise_open_file_limit();
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
    bool solve_stats = false;
    auto* solve_command = app.add_subcommand("solve", "Solve a variant into a database directory");
    solve_variant.add_to(solve_command);
    solve_command->add_option("--db", solve_options.directory, "Database directory")->required();
    solve_command->add_option("--threads", solve_options.threads, "Threads (default: all)");
    solve_command->add_option("--sectors", solve_sectors,
                              "Comma-separated sectors (with what they need); default all");
    solve_command->add_flag("!--no-progress", solve_options.progress, "No progress line");
    solve_command->add_flag("--stats", solve_stats,
                            "Per unit: seconds and far memory accesses a position, by phase");
    solve_command->add_flag("--sibling-walk,!--no-sibling-walk", solve_options.sibling_walk,
                            "Walk sibling placement sectors together (default), or one at a "
                            "time: the same files");
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

    VariantOptions diff_variant;
    std::string diff_directory, diff_against, diff_sectors;
    auto* diff_command =
        app.add_subcommand("diff", "Compare a database's values with another's, sector by sector");
    diff_variant.add_to(diff_command);
    diff_command->add_option("--db", diff_directory, "Database directory")->required();
    diff_command->add_option("--against", diff_against, "The database to compare with")->required();
    diff_command->add_option("--sectors", diff_sectors, "Comma-separated sectors; default all");
    bool diff_progress = true;
    diff_command->add_flag("!--no-progress", diff_progress,
                           "No progress line (there is one only on a terminal)");

    VariantOptions query_variant;
    std::string query_directory, query_position, query_moves, query_fen, query_plain;
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
    auto* query_fen_option = query_command->add_option(
        "--fen", query_fen, "A position in Sanmill's FEN (24-point boards; docs/fen.md)");
    query_command->add_option("position", query_position, "Position, or - to read one per line")
        ->excludes(query_moves_option)
        ->excludes(query_fen_option);
    query_moves_option->excludes(query_fen_option);

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

    VariantOptions compact_variant;
    CompactOptions compact_options;
    auto* compact_command = app.add_subcommand(
        "compact", "Write a database's win/draw/loss-only copy, small enough to ship");
    compact_variant.add_to(compact_command);
    compact_command->add_option("--db", compact_options.from, "The full database")->required();
    compact_command->add_option("--out", compact_options.to, "Directory for the WDL files")
        ->required();
    compact_command->add_option("--threads", compact_options.threads, "Threads (default: all)");
    compact_command
        ->add_option("--block-entries", compact_options.block_entries,
                     "Positions a compressed block (default 16384): smaller is faster cold")
        ->check(CLI::Range(1u << 10, 1u << 20));
    compact_command->add_flag("!--no-progress", compact_options.progress, "No progress line");

    VariantOptions serve_variant;
    ServeOptions serve_options;
    auto* serve_command =
        app.add_subcommand("serve", "A web page to look at positions and play, and its JSON API");
    serve_variant.add_to(serve_command);
    serve_command->add_option("--db", serve_options.directory, "Database directory")->required();
    serve_command->add_option("--port", serve_options.port, "Port (0: any free one)")
        ->check(CLI::Range(0, 65535));
    serve_command->add_option("--address", serve_options.address,
                              "Address to listen on (default 127.0.0.1: this machine only)");

    VariantOptions play_variant;
    std::string play_directory, play_position;
    Colour play_as = white;
    auto* play_command = app.add_subcommand("play", "Play against perfect play in the terminal");
    play_variant.add_to(play_command);
    play_command->add_option("--db", play_directory, "Database directory")->required();
    play_command->add_option("--as", play_as, "The side you play: white (default) or black")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, Colour>{{"white", white}, {"black", black}}));
    play_command->add_option("--position", play_position, "Where to start (default: the start)");

    try {
        app.parse(argc, argv);
        if (*perft_command) return run_perft(perft_options, depth, perft_position);
        if (*turns_command) return run_turns(turns_options, turns_position);
        if (*sectors_command) return run_sectors(sectors_options);
        if (*solve_command)
            return run_solve(solve_variant, solve_options, solve_sectors, solve_memory,
                             solve_stats);
        if (*verify_command) return run_verify(verify_variant, verify_directory, verify_sectors);
        if (*diff_command)
            return run_diff(diff_variant, diff_directory, diff_against, diff_sectors,
                            diff_progress);
        if (*query_command) {
            if (query_moves_option->count())
                query_position = query_moves;
            else if (query_fen_option->count()) {
                if (!looks_like_fen(query_fen))
                    throw std::invalid_argument("--fen '" + query_fen +
                                                "' is not a FEN (its board is three rings of 8 "
                                                "points separated by '/')");
                query_position = query_fen;
            } else if (query_position.empty())
                throw std::invalid_argument("query needs a position, --moves, --fen or -");
            return run_query(query_variant.resolve(), query_directory, query_plain, query_json,
                             query_position);
        }
        if (*info_command)
            return run_info(info_variant.resolve(), info_directory, info_plain, info_json);
        if (*prove_command)
            return run_prove(prove_variant, prove_directory, prove_max_nodes, prove_memory);
        if (*compact_command) return run_compact(compact_variant, compact_options);
        if (*serve_command) return run_serve(serve_variant.resolve(), serve_options);
        if (*play_command)
            return run_play(play_variant.resolve(), play_directory, play_as, play_position);
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
