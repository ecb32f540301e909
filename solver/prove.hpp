// An independent proof of a variant's value in Gasser's style: alpha-beta
// search of the placement phase from the start, with only the moving-phase
// sectors of a database at its leaves. Along the way every visited position
// whose placement sector is in the database is checked against the search.
//
// The blocks of the sectors it reaches are read as two bits a position (win,
// draw or loss), and the search runs on OpenMP's threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace morris {

struct ProofReport {
    bool complete = true;       // false: stopped at the node limit, no value proved
    Value value = Value::draw;  // of the start, for the side to move (when complete)
    uint64_t nodes = 0;         // placement positions searched
    uint64_t leaf_probes = 0;   // moving-phase positions looked up
    uint64_t checked = 0;       // placement positions compared with the database
    uint64_t disagreements = 0;
    // Bytes of values read into memory: the moving-phase sectors' (leaves)
    // and the placement sectors' (hints for the order of the search).
    uint64_t leaf_bytes = 0, hint_bytes = 0;
    // Look-ups of placement positions in blocks that the memory limit had
    // no room for (a position may be looked up more than once).
    uint64_t hints_refused = 0;
    std::vector<std::string> examples;  // the first few disagreements
};

// Throws std::runtime_error for variants whose placement phase has cycles
// (place-or-move) and DatabaseError for a missing moving-phase sector.
// With max_nodes > 0 the search stops after that many placement positions
// (the report then says so, with what it checked so far). Its table and the
// values of every moving-phase sector must fit in memory_limit bytes (0: 80%
// of the machine's memory): the table shrinks to fit, and a proof whose
// moving-phase values alone would not fit is refused with std::runtime_error
// before it starts. The placement sectors' values fill the room left, as
// far as it goes.
ProofReport prove(const Database& database, bool progress, uint64_t max_nodes = 0,
                  uint64_t memory_limit = 0);

}  // namespace morris
