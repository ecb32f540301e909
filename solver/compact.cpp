#include "solver/compact.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "db/sector_writer.hpp"
#include "game/turns.hpp"
#include "solver/progress.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solved_sectors.hpp"
#include "solver/unit.hpp"  // kParallelWork

namespace morris {
namespace {

constexpr int kBlocksPerChunk = 4;  // index blocks handed to a thread at a time

// For each position of a sector that may store less, whether a turn that
// removes a stone reaches its value, so that its WDL file may hold any
// smaller value there (1) or must hold the value itself (0).
std::vector<uint8_t> any_smaller(const Variant& v, const SectorKey& key,
                                 const SolvedSectors& solved, Progress& bar) {
    const SectorIndex& index = sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
    const HugeArray<Entry>& values = solved.entries(key);
    const EntryCode code = entry_code(v);
    const Colour side = side_to_move(v, key);
    std::vector<uint8_t> reached(index.size());
    const int chunks =
        static_cast<int>((index.block_count() + kBlocksPerChunk - 1) / kBlocksPerChunk);
#pragma omp parallel for schedule(dynamic, 1) if (index.size() >= kParallelWork)
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const uint32_t first = static_cast<uint32_t>(chunk) * kBlocksPerChunk;
        const uint32_t last = std::min(first + kBlocksPerChunk, index.block_count());
        uint64_t visited = 0;
        index.for_each_in_blocks(first, last, [&](uint64_t i, Stones stones) {
            const Position p = position_of(key, stones, side);
            const Value value = decode(values[i], code).value;
            // A loss can hold nothing smaller: it is stored without looking.
            bool found = false;
            if (value != Value::loss)
                for_each_loud_turn(v, p, [&](const Turn& t) {
                    if (!found && t.removals() > 0)
                        found = opposite(solved.lookup(apply_turn(v, p, t)).value) == value;
                });
            reached[i] = found;
            ++visited;
        });
        bar.advance(visited);
    }
    return reached;
}

// The entries to write: a position the reader finds by its resetting turns
// holds the value before it when that is no better (longer runs compress
// better), else its own.
std::vector<Entry> fill(const std::vector<uint8_t>& any_smaller, const HugeArray<Entry>& values,
                        EntryCode code, uint32_t block_entries) {
    std::vector<Entry> entries(any_smaller.size());
    Value previous = Value::draw;
    for (size_t i = 0; i < any_smaller.size(); ++i) {
        if (i % block_entries == 0) previous = Value::draw;  // blocks are read alone
        const Value value = decode(values[i], code).value;
        const Value stored = any_smaller[i] ? std::min(previous, value) : value;
        entries[i] = encode({stored, 0}, EntryCode::wdl);
        previous = stored;
    }
    return entries;
}

}  // namespace

CompactReport compact(const Variant& v, const CompactOptions& options) {
    if (v.rules.has_n_move())
        throw std::invalid_argument(
            "compact: under n_move a value depends on the counter; WDL files hold none");
    if (options.threads > 0) omp_set_num_threads(options.threads);
    std::error_code error;
    if (std::filesystem::equivalent(options.from, options.to, error))
        throw std::invalid_argument("compact: --out must be another directory than --db");
    std::filesystem::create_directories(options.to);
    const SectorGraph graph = sector_graph(v);
    CompactReport report;
    PagePool pool;
    for (const SectorKey& key : graph.sectors) {
        const std::string name = sector_file_name(v.name, key);
        if (std::filesystem::exists(options.to / name)) {
            ++report.sectors_skipped;
            continue;
        }
        if (!std::filesystem::exists(options.from / name)) {
            ++report.sectors_missing;
            continue;
        }
        SolvedSectors solved(v, options.from, pool);
        solved.load(key);
        const bool may_store_less = wdl_may_store_less(key);
        // Successors by removals: all but those of quiet moves and placements.
        if (may_store_less)
            for (const SectorKey& s : graph.successors.at(key))
                if (s != sector_after(key, false, 0) && s != sector_after(key, true, 0))
                    solved.load(s);
        const auto full = SectorFile::open(options.from / name, v.name, rule_hash(v), key);
        if (full->info().code != entry_code(v))  // a WDL file understates some values
            throw DatabaseError(full->path().string() +
                                ": holds win, draw or loss only; compact needs the full database");
        Progress bar(v.name + " compact " + to_string(key), full->info().entries, options.progress);
        if (!may_store_less) bar.advance(full->info().entries);
        const std::vector<uint8_t> smaller = may_store_less
                                                 ? any_smaller(v, key, solved, bar)
                                                 : std::vector<uint8_t>(full->info().entries, 0);
        const std::vector<Entry> entries =
            fill(smaller, solved.entries(key), entry_code(v), options.block_entries);
        const ValueCounts counts{full->info().wins, full->info().draws, full->info().losses};
        const SectorFileInfo written =
            write_sector_file(options.to / name, v.name, rule_hash(v), key, entries,
                              options.block_entries, EntryCode::wdl, &counts);
        ++report.sectors_written;
        report.positions += smaller.size();
        report.stored_exactly +=
            static_cast<uint64_t>(std::count(smaller.begin(), smaller.end(), 0));
        report.bytes += written.file_bytes;
    }
    return report;
}

}  // namespace morris
