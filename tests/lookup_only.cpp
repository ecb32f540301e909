// A program that links the lookup library alone (morris_lookup: no solver,
// no OpenMP), as an engine would: for each position, prints its value at its
// counter, then each legal turn with its value for the mover, best first, one
// per line. RULES are option=value words ("" for none).
//
//   lookup_only DIR VARIANT RULES POSITION...
#include <iostream>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/notation.hpp"

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: lookup_only DIR VARIANT RULES POSITION...\n";
        return 2;
    }
    try {
        morris::Variant variant = morris::find_variant(argv[2]);
        for (std::string_view rule : morris::split_words(argv[3]))
            morris::apply_rule(variant, rule);
        const morris::Database db(argv[1], variant);
        for (int i = 4; i < argc; ++i) {
            const auto [position, counter] = morris::parse_counted_position(variant, argv[i]);
            const morris::ProbeResult probe = db.probe(position);
            const morris::RankedTurns ranked = morris::rank_turns(db, position, counter);
            if (!probe.ok() || !ranked.ok()) {
                std::cerr << "lookup_only: " << (probe.ok() ? ranked.error : probe.error) << "\n";
                return 1;
            }
            std::cout << morris::to_string(
                             morris::at_counter(variant.rules, probe.outcome, counter))
                      << "\n";
            for (const morris::RankedTurn& t : ranked.turns)
                std::cout << morris::to_string(variant, t.turn) << " "
                          << morris::to_string(t.outcome) << "\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "lookup_only: " << e.what() << "\n";
        return 1;
    }
}
