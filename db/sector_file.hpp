// One sector's values on disk: a checked header, a block index and
// independently zstd-compressed blocks, so a lookup decompresses one block.
//
// Layout (little-endian):
//   header   128 bytes: magic "MORRISDB", format version, encoding, variant
//            name, rule-set hash, sector key, entry and block counts, value
//            statistics, and an FNV-1a checksum of the bytes before it
//   index    per block: file offset and compressed size (16 bytes), then an
//            FNV-1a checksum of the index
//   blocks   zstd frames with content checksums; a block of n entries holds
//            their low bytes, then their high bytes (byte planes compress
//            better than interleaved 16-bit values); in a WDL-only file
//            (EntryCode::wdl or wdl_at_most, written by morris compact) one
//            byte each
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/value.hpp"
#include "game/sector.hpp"
#include "game/variant.hpp"

namespace morris {

// Any failure to read or write a database file; what() names the file.
struct DatabaseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A distance asked of WDL-only files (morris compact): they hold win, draw or
// loss only.
struct NeedsFullDatabase : DatabaseError {
    using DatabaseError::DatabaseError;
};

// What a sector file says about itself.
struct SectorFileInfo {
    std::string variant;
    uint64_t rule_hash = 0;
    SectorKey key;
    uint64_t entries = 0;
    uint32_t block_entries = 0;
    uint32_t blocks = 0;
    uint64_t wins = 0, draws = 0, losses = 0;
    int longest_win = -1, longest_loss = -1;  // -1 when there is none
    EntryCode code = EntryCode::parity;       // how its entries hold outcomes
    uint64_t file_bytes = 0;

    bool operator==(const SectorFileInfo&) const = default;
};

inline constexpr uint32_t kDefaultBlockEntries = 1 << 14;
// WDL files' blocks: one byte an entry, 16 KiB decompressed for a cold probe
// and for each position its search reads. On nine's moving phase (host E3)
// a cold WDL probe took 34 us against the full files' 30; blocks of 64 KiB
// make the files 8-12% smaller (scripts/sample-compact.sh).
inline constexpr uint32_t kWdlBlockEntries = 1 << 14;

// The hash of a variant's full rule set (FNV-1a of Variant::rule_text(),
// stable across builds) that a file records: a file answers only for the
// rules it was solved under.
uint64_t rule_hash(const Variant& variant);

// How a variant's files hold outcomes: explicitly under the N-move rule.
inline EntryCode entry_code(const Variant& variant) {
    return variant.rules.has_n_move() ? EntryCode::explicit_value : EntryCode::parity;
}

// The file name of a sector: "<variant>_<key>.mdb".
std::string sector_file_name(const std::string& variant, const SectorKey& key);
// The sectors whose files a directory holds, by those names, in order.
std::vector<SectorKey> sectors_in(const std::filesystem::path& directory,
                                  const std::string& variant);

// An open sector file. Reads are thread-safe (positioned reads, no shared cursor).
class SectorFile {
  public:
    // Opens and checks the header and index against the expectations; throws
    // DatabaseError naming the file and the problem.
    static std::unique_ptr<SectorFile> open(const std::filesystem::path& path,
                                            const std::string& variant, uint64_t rule_hash,
                                            const SectorKey& key);
    // Opens without expectations (for `morris info`).
    static std::unique_ptr<SectorFile> open_any(const std::filesystem::path& path);
    ~SectorFile();

    const SectorFileInfo& info() const { return info_; }
    const std::filesystem::path& path() const { return path_; }
    // Decompresses block `block` into `out` (resized); throws DatabaseError.
    void read_block(uint32_t block, std::vector<Entry>& out) const;
    // Every entry, block after block on this thread (read_whole_sector in
    // db/sector_writer.hpp reads them on all threads).
    std::vector<Entry> read_all() const;
    void read_all(std::span<Entry> out) const;  // out.size() must be info().entries

  private:
    SectorFile() = default;
    std::filesystem::path path_;
    int fd_ = -1;
    SectorFileInfo info_;
    std::vector<uint64_t> block_offsets_;  // blocks + 1 entries: the last is the end
};

// Whether two sector files hold the same values: the first position whose
// entries differ, or none. Files that store outcomes differently (a WDL copy
// against the full file) differ at position 0 unless both are empty; files
// of different sizes at the end of the shorter. The files' headers (variant,
// rules, sector) are the caller's to compare. The bytes may differ where the
// values do not (a writer with other zstd parameters or blocks): this reads
// the entries, a block of each at a time. Throws DatabaseError on a corrupt
// block.
std::optional<uint64_t> first_difference(const SectorFile& a, const SectorFile& b);

}  // namespace morris
