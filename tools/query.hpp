// The commands of the morris tool that read a solved database: `query` (a
// position's value and its turns ranked, at the N-move counter, with cursed
// wins and blessed losses named against the database without the rule) and
// `info` (per sector and per phase statistics). Both print to standard
// output and throw std::exception with one line for bad input.
#pragma once

#include <string>

#include "game/variant.hpp"

namespace morris {

// Throws std::runtime_error naming `directory` unless it is a directory.
void require_database_directory(const std::string& directory);

// Answers one position, or (position_text "-") one per line of standard
// input; returns the exit code.
int run_query(const Variant& variant, const std::string& directory,
              const std::string& plain_directory, bool json, const std::string& position_text);

int run_info(const Variant& variant, const std::string& directory,
             const std::string& plain_directory, bool json);

}  // namespace morris
