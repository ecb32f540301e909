// Whole sector files at once, on OpenMP's threads: the solver's side of the
// format of db/sector_file.hpp. The lookup library reads a block at a time
// and needs neither this nor OpenMP.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "db/sector_file.hpp"

namespace morris {

// How many of a sector's positions are wins, draws and losses.
struct ValueCounts {
    uint64_t wins = 0, draws = 0, losses = 0;
};

// A sector's file compressed in memory, not yet on the disk: compressing
// takes the cores and writing takes the disk, so the solver writes one
// unit's files while it solves the next (solver/background_writes.hpp).
class PendingSectorFile {
  public:
    // Compresses `entries` (on OpenMP's threads) into the file to be
    // written at `path`. The header counts the entries' values, or `counts`
    // when given (a WDL file whose entries are not all the positions'
    // values). Throws DatabaseError.
    static PendingSectorFile compress(const std::filesystem::path& path, const std::string& variant,
                                      uint64_t rule_hash, const SectorKey& key,
                                      std::span<const Entry> entries,
                                      uint32_t block_entries = kDefaultBlockEntries,
                                      EntryCode code = EntryCode::parity,
                                      const ValueCounts* counts = nullptr);

    // What the file says about itself; file_bytes is what it holds in memory.
    const SectorFileInfo& info() const { return info_; }
    // Writes it under a temporary name, synced, then renames it: a killed
    // writer leaves no half file. Throws DatabaseError.
    void write() const;

  private:
    std::filesystem::path path_;
    SectorFileInfo info_;
    std::vector<unsigned char> header_, index_;
    std::vector<std::vector<unsigned char>> blocks_;
};

// Compresses and writes at once (PendingSectorFile); returns what the file
// says about itself. Throws DatabaseError.
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
