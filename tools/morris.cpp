// The morris command-line tool.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <exception>
#include <string>
#include <vector>

#include "solver/perft.hpp"
#include "solver/rules.hpp"

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

    try {
        app.parse(argc, argv);
        if (*perft_command) return run_perft(perft_options, depth, perft_position);
        if (*turns_command) return run_turns(turns_options, turns_position);
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
