// Compact: a database's WDL-only copy, for engines that probe at every node
// of a search and keep the full files (with distances) for the root.
//
// Each position is stored as win, draw or loss in one byte, blocks of them
// compressed by zstd at a deep level. A file may store less
// (EntryCode::wdl_at_most): a position whose value one of its turns that
// remove a stone already reaches need not be stored exactly, since the
// reader takes the better of the stored value and those turns'
// (Database::probe_wdl). Such a position holds the smaller of the value
// before it in the file (a draw at each block's start) and its own, which
// lengthens runs.
//
// A probe must not chase removals through removal after removal, a block
// each (allowing every sector to store less made nine's files 1.29 GB but
// cold probes 1 ms), so no sector that stores less leads by a removal into
// another that does: the search is one ply. Which sectors store less is
// chosen by what each saves, estimated by compressing a sample of its blocks
// both ways (choose_storing_less).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "db/sector_file.hpp"
#include "game/variant.hpp"

namespace morris {

struct CompactOptions {
    std::filesystem::path from;  // a full database
    std::filesystem::path to;    // where the WDL files go
    int threads = 0;             // 0: all
    bool progress = true;
    // Entries a block: larger blocks compress better, smaller ones cost a
    // cold probe less to decompress.
    uint32_t block_entries = kWdlBlockEntries;
};

struct CompactReport {
    uint64_t sectors_written = 0, sectors_skipped = 0;  // skipped: already in `to`
    uint64_t sectors_missing = 0;                       // not in `from`: not written
    uint64_t sectors_storing_less = 0;                  // of those written
    uint64_t positions = 0, stored_exactly = 0;         // of those written
    uint64_t bytes = 0;                                 // of the files written
};

// A sector as the choice of which store less sees it.
struct SectorChoice {
    std::vector<SectorKey> removal_successors;  // where its turns that remove a stone lead
    int64_t saving = 0;                         // bytes saved by storing less (estimated)
    std::optional<bool> fixed;                  // whether it stores less, when already decided
};

// The sectors to store less: none of them leads by a removal into another,
// and none whose choice is fixed otherwise. Greedy by saving, then each
// sector displaces its chosen neighbours while it saves more than they do
// together, or gives way to those only it blocks. Not always the best
// choice (savings 3, 4, 3, 4, 3 along a path end at 8, not 9), but on
// nine's removal graph within 2% of it (compact_test), where greedy alone
// misses by up to 10%.
std::set<SectorKey> choose_storing_less(const std::map<SectorKey, SectorChoice>& sectors);

// Writes the WDL copy of every sector of `from` into `to`, each file under a
// temporary name then renamed (a killed run resumes: sectors already in `to`
// are skipped). Sectors not in `from` are skipped too; a sector that is
// there needs its successors' full files. Throws DatabaseError for a file
// that is missing, cannot be read or written or is itself WDL-only,
// std::invalid_argument for a database under the N-move rule (whose values
// depend on the counter: WDL at counter 0 would mislead) or `to` equal to
// `from`, and std::filesystem::filesystem_error when `to` cannot be made.
CompactReport compact(const Variant& variant, const CompactOptions& options);

}  // namespace morris
