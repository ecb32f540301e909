// A program that links the lookup library alone (morris_lookup: no solver,
// no OpenMP), as an engine would: prints a position's value, then each legal
// turn with its value for the mover, best first, one per line.
//
//   lookup_only DIR VARIANT POSITION
#include <iostream>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/notation.hpp"

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: lookup_only DIR VARIANT POSITION\n";
        return 2;
    }
    try {
        const morris::Variant variant = morris::find_variant(argv[2]);
        const morris::Database db(argv[1], variant);
        const morris::Position position = morris::parse_position_or_turns(variant, argv[3]);
        const morris::ProbeResult probe = db.probe(position);
        const morris::RankedTurns ranked = morris::rank_turns(db, position);
        if (!probe.ok() || !ranked.ok()) {
            std::cerr << "lookup_only: " << (probe.ok() ? ranked.error : probe.error) << "\n";
            return 1;
        }
        std::cout << morris::to_string(probe.outcome) << "\n";
        for (const morris::RankedTurn& t : ranked.turns)
            std::cout << morris::to_string(variant, t.turn) << " " << morris::to_string(t.outcome)
                      << "\n";
    } catch (const std::exception& e) {
        std::cerr << "lookup_only: " << e.what() << "\n";
        return 1;
    }
}
