// Compact: a database's WDL-only copy, for engines that probe at every node
// of a search and keep the full files (with distances) for the root.
//
// Each position is stored as win, draw or loss in one byte, blocks of them
// compressed by zstd at a deep level. In sectors with an odd count of stones
// (on the board and in hand: wdl_may_store_less in db/sector_file.hpp), a
// position whose value one of its turns that remove a stone already reaches
// need not be stored exactly: the reader takes the better of the stored
// value and those turns' (Database::probe_wdl), so such a position may hold
// any smaller value. It holds the smaller of the value before it in the file
// (a draw at each block's start) and its own, which lengthens runs. A
// removal makes the count even, and those sectors are stored exactly, so a
// probe searches one ply at most: allowing it everywhere made nine's files
// smaller still (1.29 GB) but its probes chase removals through removal
// after removal, a block each (cold 1 ms).
#pragma once

#include <cstdint>
#include <filesystem>

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
    uint64_t positions = 0, stored_exactly = 0;         // of those written
    uint64_t bytes = 0;                                 // of the files written
};

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
