// The morris command-line tool.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <exception>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/perft.hpp"
#include "solver/rules.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solve.hpp"

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
                if (!key) throw std::invalid_argument("'" + item + "' is not a sector like 3-3-0-0");
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
    Position p = position_text.empty() ? start_position(v) : parse_position_or_turns(v, position_text);
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
        const SectorIndex& index = sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
        uint64_t orbits = orbit_count(*v.board, key.mover_on_board, key.opponent_on_board);
        std::string next;
        for (const SectorKey& s : graph.successors.at(key)) next += (next.empty() ? "" : " ") + to_string(s);
        fmt::print("{:<11} {:>13} {:>13} {:>6.2f}%  {}\n", to_string(key), index.size(), orbits,
                   100.0 * (static_cast<double>(index.size()) / orbits - 1), next);
        total += index.size();
    }
    fmt::print("{} sectors, {} positions, {} units to solve\n", graph.sectors.size(), total,
               graph.units.size());
    return 0;
}

int run_solve(const VariantOptions& options, SolveOptions solve_options, const std::string& sectors) {
    Variant v = options.resolve();
    solve_options.targets = parse_sector_list(sectors);
    auto reports = solve(v, solve_options);
    size_t skipped = 0;
    for (const auto& r : reports) {
        if (r.skipped) {
            ++skipped;
            continue;
        }
        fmt::print("{:<11} {:>12} positions  {:>12} wins {:>12} draws {:>12} losses  {:.2f}s\n",
                   to_string(r.key), r.positions, r.wins, r.draws, r.losses, r.seconds);
    }
    if (skipped) fmt::print("{} sectors were already solved\n", skipped);
    return 0;
}

int run_verify(const VariantOptions& options, const std::string& directory,
               const std::string& sectors) {
    Variant v = options.resolve();
    uint64_t bad = verify(v, directory, parse_sector_list(sectors), true);
    fmt::print("{} inconsistent entries\n", bad);
    return bad == 0 ? 0 : 1;
}

int run_query(const VariantOptions& options, const std::string& directory,
              const std::string& position_text) {
    Variant v = options.resolve();
    Position p = parse_position_or_turns(v, position_text);
    Database db(directory, v);
    ProbeResult r = db.probe(p);
    if (!r.ok()) throw std::runtime_error(r.error);
    fmt::print("{}\n", to_string(r.outcome));
    return 0;
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
    std::string solve_sectors;
    auto* solve_command = app.add_subcommand("solve", "Solve a variant into a database directory");
    solve_variant.add_to(solve_command);
    solve_command->add_option("--db", solve_options.directory, "Database directory")->required();
    solve_command->add_option("--threads", solve_options.threads, "Threads (default: all)");
    solve_command->add_option("--sectors", solve_sectors,
                              "Comma-separated sectors (with what they need); default all");
    solve_command->add_flag("!--no-progress", solve_options.progress, "No progress line");

    VariantOptions verify_variant;
    std::string verify_directory, verify_sectors;
    auto* verify_command = app.add_subcommand("verify", "Re-derive every stored value");
    verify_variant.add_to(verify_command);
    verify_command->add_option("--db", verify_directory, "Database directory")->required();
    verify_command->add_option("--sectors", verify_sectors, "Comma-separated sectors; default all");

    VariantOptions query_variant;
    std::string query_directory, query_position;
    auto* query_command = app.add_subcommand("query", "Look up a position's value");
    query_variant.add_to(query_command);
    query_command->add_option("--db", query_directory, "Database directory")->required();
    query_command->add_option("position", query_position, "Position or turns")->required();

    try {
        app.parse(argc, argv);
        if (*perft_command) return run_perft(perft_options, depth, perft_position);
        if (*turns_command) return run_turns(turns_options, turns_position);
        if (*sectors_command) return run_sectors(sectors_options);
        if (*solve_command) return run_solve(solve_variant, solve_options, solve_sectors);
        if (*verify_command) return run_verify(verify_variant, verify_directory, verify_sectors);
        if (*query_command) return run_query(query_variant, query_directory, query_position);
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
