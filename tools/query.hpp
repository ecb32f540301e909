// The commands of the morris tool that read a solved database: `query` (a
// position's value and its turns ranked, at the N-move counter, with cursed
// wins and blessed losses named against the database without the rule) and
// `info` (per sector and per phase statistics). Both print to standard
// output and throw std::exception with one line for bad input.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/notation.hpp"

namespace morris {

// Throws std::runtime_error naming `directory` unless it is a directory.
void require_database_directory(const std::string& directory);

// The databases a query reads: the one asked, and the one without the
// N-move rule (--plain-db) that names cursed wins and blessed losses.
struct Databases {
    const Database& db;
    const Database* plain = nullptr;
};

// A position answered: its outcome at its counter, and its turns ranked.
struct Answer {
    CountedPosition at;
    Outcome stored;   // at counter 0
    Outcome outcome;  // at the position's counter
    std::optional<Outcome> plain;
    RankedTurns ranked;
    std::vector<std::optional<Outcome>> plain_turns;  // by ranked turn: for the mover
};

// Answers a position given as text (any notation game/notation.hpp reads).
// Throws NotationError for bad text, DatabaseError for a file that cannot answer.
Answer answer_position(const Databases& databases, const std::string& text);

// The answer as one JSON object: what `morris query --json` prints.
std::string query_json(const Variant& variant, const Answer& answer);

// Answers one position, or (position_text "-") one per line of standard
// input; returns the exit code.
int run_query(const Variant& variant, const std::string& directory,
              const std::string& plain_directory, bool json, const std::string& position_text);

int run_info(const Variant& variant, const std::string& directory,
             const std::string& plain_directory, bool json);

}  // namespace morris
