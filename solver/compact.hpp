// Compact: a database's WDL-only copy, for engines that probe at every node
// of a search and keep the full files (with distances) for the root.
//
// Each position is stored as win, draw or loss in one byte, blocks of them
// compressed by zstd at a deep level. A position whose value one of its
// resetting turns (placements and removals: for_each_loud_turn) already
// reaches need not be stored exactly: the reader takes the better of the
// stored value and those turns' (Database::probe_wdl), so such a position
// may hold any smaller value, and holds the one before it in the file, which
// lengthens runs: 39% of nine's moving-phase positions are such, and their
// files shrink by 11% for it (sampled, level 19).
#pragma once

#include <cstdint>
#include <filesystem>

#include "game/variant.hpp"

namespace morris {

struct CompactOptions {
    std::filesystem::path from;  // a full database
    std::filesystem::path to;    // where the WDL files go
    int threads = 0;             // 0: all
    bool progress = true;
};

struct CompactReport {
    uint64_t sectors_written = 0, sectors_skipped = 0;  // skipped: already in `to`
    uint64_t sectors_missing = 0;                       // not in `from`: not written
    uint64_t positions = 0, stored_exactly = 0;         // of those written
    uint64_t bytes = 0;                                 // of the files written
};

// Writes the WDL copy of every sector of `from` into `to`, each file under a
// temporary name then renamed (a killed run resumes: sectors already in `to`
// are skipped). A sector needs its successors' full files; a partial
// database is compacted as far as it goes. Throws
// DatabaseError for a file that cannot be read or written, and
// std::invalid_argument for a database under the N-move rule (whose values
// depend on the counter: WDL at counter 0 would mislead).
CompactReport compact(const Variant& variant, const CompactOptions& options);

}  // namespace morris
