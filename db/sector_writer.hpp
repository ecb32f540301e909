// Whole sector files at once, on OpenMP's threads: the solver's side of the
// format of db/sector_file.hpp. The lookup library reads a block at a time
// and needs neither this nor OpenMP.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "db/sector_file.hpp"

namespace morris {

// How many of a sector's positions are wins, draws and losses.
struct ValueCounts {
    uint64_t wins = 0, draws = 0, losses = 0;
};

// Writes under a temporary name, then renames, so a killed writer leaves no
// half file; returns what the file says about itself. The header counts the
// entries' values, or `counts` when given (a WDL file whose entries are not
// all the positions' values). Throws DatabaseError.
SectorFileInfo write_sector_file(const std::filesystem::path& path, const std::string& variant,
                                 uint64_t rule_hash, const SectorKey& key,
                                 std::span<const Entry> entries,
                                 uint32_t block_entries = kDefaultBlockEntries,
                                 EntryCode code = EntryCode::parity,
                                 const ValueCounts* counts = nullptr);

// The bytes that `entries`, one block, take in a file written with `code`
// (to choose how to write a sector from a sample). Throws DatabaseError.
size_t compressed_block_bytes(std::span<const Entry> entries, EntryCode code);

// Reads every entry of a file into `out` (info().entries of them), its
// blocks decompressed in parallel. Throws DatabaseError.
void read_whole_sector(const SectorFile& file, std::span<Entry> out);

}  // namespace morris
