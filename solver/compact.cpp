#include "solver/compact.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
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

// Values ordered for "the better of": a loss, a draw, a win.
enum Rank : uint8_t { kLoss, kDraw, kWin, kAnySmaller };

Rank rank_of(Value v) { return v == Value::loss ? kLoss : v == Value::draw ? kDraw : kWin; }
Entry entry_of(Rank r) { return r == kLoss ? kWdlLoss : r == kDraw ? kDrawEntry : kWdlWin; }

// What a sector's WDL file stores for each position: its value, or
// kAnySmaller where a resetting turn reaches the value.
std::vector<Rank> wdl_ranks(const Variant& v, const SectorKey& key, const SolvedSectors& solved,
                            Progress& bar) {
    const SectorIndex& index = sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
    const HugeArray<Entry>& values = solved.entries(key);
    const EntryCode code = entry_code(v);
    const Colour side = side_to_move(v, key);
    std::vector<Rank> ranks(index.size());
    const int chunks =
        static_cast<int>((index.block_count() + kBlocksPerChunk - 1) / kBlocksPerChunk);
#pragma omp parallel for schedule(dynamic, 1) if (index.size() >= kParallelWork)
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const uint32_t first = static_cast<uint32_t>(chunk) * kBlocksPerChunk;
        const uint32_t last = std::min(first + kBlocksPerChunk, index.block_count());
        uint64_t visited = 0;
        TableCache tables;
        index.for_each_in_blocks(first, last, [&](uint64_t i, Stones stones) {
            const Position p = position_of(key, stones, side);
            const Rank value = rank_of(decode(values[i], code).value);
            // Whether a resetting turn reaches the value; a loss can hold
            // nothing smaller, so it is stored as it is without looking.
            bool reached = false;
            if (value != kLoss)
                for_each_loud_turn(v, p, [&](const Turn& t) {
                    if (reached || !resets_counter(t)) return;
                    const Position after = apply_turn(v, p, t);
                    Rank child = kLoss;
                    if (after.total(after.side) >= kFewestStones) {
                        const auto& table = tables.get(sector_of(after), solved);
                        child = rank_of(
                            decode(table.entries[table.index->index(stones_of(after))], code)
                                .value);
                    }
                    reached = kWin - child == value;
                });
            ranks[i] = reached ? kAnySmaller : value;
            ++visited;
        });
        bar.advance(visited);
    }
    return ranks;
}

// The entries to write: a position the reader finds by its resetting turns
// holds the value before it when that is no better (longer runs compress
// better), else its own.
std::vector<Entry> fill(const std::vector<Rank>& ranks, const HugeArray<Entry>& values,
                        EntryCode code, uint32_t block_entries) {
    std::vector<Entry> entries(ranks.size());
    Rank previous = kDraw;
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (i % block_entries == 0) previous = kDraw;  // blocks are read alone
        Rank r = ranks[i];
        if (r == kAnySmaller) {
            const Rank value = rank_of(decode(values[i], code).value);
            r = previous <= value ? previous : value;
        }
        entries[i] = entry_of(r);
        previous = r;
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
        // Successors by resetting turns: all but the one quiet moves lead to.
        for (const SectorKey& s : graph.successors.at(key))
            if (s != sector_after(key, false, 0)) solved.load(s);
        const auto full = SectorFile::open(options.from / name, v.name, rule_hash(v), key);
        if (full->info().code != entry_code(v))  // a WDL file understates some values
            throw DatabaseError(full->path().string() +
                                ": holds win, draw or loss only; compact needs the full database");
        Progress bar(v.name + " compact " + to_string(key), full->info().entries, options.progress);
        const std::vector<Rank> ranks = wdl_ranks(v, key, solved, bar);
        const std::vector<Entry> entries =
            fill(ranks, solved.entries(key), entry_code(v), kWdlBlockEntries);
        const ValueCounts counts{full->info().wins, full->info().draws, full->info().losses};
        const SectorFileInfo written =
            write_sector_file(options.to / name, v.name, rule_hash(v), key, entries,
                              kWdlBlockEntries, EntryCode::wdl, &counts);
        ++report.sectors_written;
        report.positions += ranks.size();
        report.stored_exactly += static_cast<uint64_t>(
            std::count_if(ranks.begin(), ranks.end(), [](Rank r) { return r != kAnySmaller; }));
        report.bytes += written.file_bytes;
    }
    return report;
}

}  // namespace morris
