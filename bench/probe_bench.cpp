// Lookup throughput: what an engine probing a solved database pays, with the
// block cache warm and cold, from two threads, and the block decompression
// underneath.
//
// The database is Six Men's Morris, solved into a temporary directory the
// first time a Probe benchmark runs (a few seconds) and removed at exit; set
// MORRIS_BENCH_DB to a solved database directory to use that instead (its
// variant is read from the file names), and MORRIS_BENCH_WDL to its WDL-only
// copy (morris compact) for the ProbeWdl benchmarks.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/sector_file.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/compact.hpp"
#include "solver/solve.hpp"

namespace {

using namespace morris;
namespace fs = std::filesystem;

struct SectorOnDisk {
    SectorKey key;
    fs::path path;
    uint64_t entries = 0;
};

struct BenchDatabase {
    fs::path directory;
    bool owned = false;  // solved here: remove at exit
    Variant variant;
    std::vector<SectorOnDisk> sectors;
    uint64_t entries = 0;

    ~BenchDatabase() {
        std::error_code ec;
        if (owned) fs::remove_all(directory, ec);
    }
};

// The variant of a database directory, from its first "<variant>_<key>.mdb".
std::string variant_in(const fs::path& directory) {
    for (const auto& entry : fs::directory_iterator(directory)) {
        const std::string name = entry.path().filename();
        if (entry.path().extension() == ".mdb" && name.find('_') != std::string::npos)
            return name.substr(0, name.rfind('_'));
    }
    throw std::runtime_error(directory.string() + ": no sector files");
}

const BenchDatabase& bench_database() {
    static const std::unique_ptr<BenchDatabase> db = [] {
        auto db = std::make_unique<BenchDatabase>();
        if (const char* given = std::getenv("MORRIS_BENCH_DB"); given && *given) {
            db->directory = given;
            db->variant = find_variant(variant_in(db->directory));
        } else {
            std::random_device rd;
            db->directory =
                fs::temp_directory_path() / ("morris-bench-six-" + std::to_string(rd()));
            db->owned = true;
            db->variant = find_variant("six");
            std::cerr << "probe benchmarks: solving six into " << db->directory << "\n";
            SolveOptions options;
            options.directory = db->directory;
            options.progress = false;
            solve(db->variant, options);
        }
        for (const SectorKey& key : sectors_in(db->directory, db->variant.name)) {
            const fs::path path = db->directory / sector_file_name(db->variant.name, key);
            const uint64_t n = SectorFile::open_any(path)->info().entries;
            db->sectors.push_back({key, path, n});
            db->entries += n;
        }
        return db;
    }();
    return *db;
}

// Random valid positions of the database, each sector's share in proportion
// to its size: most probes land in the big sectors, as an engine's do.
std::vector<Position> random_positions(size_t count, uint64_t seed) {
    const BenchDatabase& db = bench_database();
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    while (out.size() < count) {
        uint64_t pick = rng() % db.entries;
        const SectorOnDisk* sector = nullptr;
        for (const auto& s : db.sectors) {
            if (pick < s.entries) {
                sector = &s;
                break;
            }
            pick -= s.entries;
        }
        const SectorIndex& index = sector_index(*db.variant.board, sector->key.mover_on_board,
                                                sector->key.opponent_on_board);
        if (pick >= index.size()) continue;
        const Stones stones = index.stones_at(pick);
        for (Colour side : {white, black}) {
            Position p = position_of(sector->key, stones, side);
            if (invalid_reason(db.variant, p).empty()) {
                out.push_back(p);
                break;
            }
        }
    }
    return out;
}

void check(const ProbeResult& r, benchmark::State& state) {
    if (!r.ok()) state.SkipWithError(r.error.c_str());
}
void check(const WdlResult& r, benchmark::State& state) {
    if (!r.ok()) state.SkipWithError(r.error.c_str());
}

// Probes `positions` (a power of two of them) round and round, the first
// `checked` of them checked for errors first.
template <typename Probe>
void probe_in_turn(benchmark::State& state, const std::vector<Position>& positions, size_t checked,
                   Probe probe) {
    for (size_t k = 0; k < checked; ++k) check(probe(positions[k]), state);
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(probe(positions[i]));
        i = (i + 1) & (positions.size() - 1);
    }
    state.SetItemsProcessed(state.iterations());
}

constexpr size_t kWarmSamples = 64, kColdSamples = 1 << 14;
constexpr size_t kColdCacheBytes = 4096;  // less than one block

// The same 64 positions over and over: every block is cached after the
// first round, so this is indexing plus the cache lookup.
void BM_ProbeWarm(benchmark::State& state) {
    const BenchDatabase& db = bench_database();
    const Database database(db.directory, db.variant);
    probe_in_turn(state, random_positions(kWarmSamples, 1), kWarmSamples,
                  [&](const Position& p) { return database.probe(p); });
}
BENCHMARK(BM_ProbeWarm);

// Random positions across the whole database with a cache smaller than one
// block: nearly every probe reads and decompresses a block.
void BM_ProbeCold(benchmark::State& state) {
    const BenchDatabase& db = bench_database();
    const Database database(db.directory, db.variant, kColdCacheBytes);
    probe_in_turn(state, random_positions(kColdSamples, 2), 1,
                  [&](const Position& p) { return database.probe(p); });
}
BENCHMARK(BM_ProbeCold);

// The WDL-only copy of the database (morris compact): MORRIS_BENCH_WDL names
// one, else the bench database is compacted into a temporary directory.
const fs::path& wdl_directory() {
    struct Copy {
        fs::path directory;
        bool owned = false;
        ~Copy() {
            std::error_code ec;
            if (owned) fs::remove_all(directory, ec);
        }
    };
    static const Copy copy = [] {
        Copy c;
        if (const char* given = std::getenv("MORRIS_BENCH_WDL"); given && *given) {
            c.directory = given;
            return c;
        }
        const BenchDatabase& db = bench_database();
        c.directory = db.directory;
        c.directory += "-wdl";
        c.owned = true;
        CompactOptions options{db.directory, c.directory, 0, false};
        compact(db.variant, options);
        return c;
    }();
    return copy.directory;
}

// As BM_ProbeWarm on the WDL-only copy: the stored value, and for a position
// that does not store a win, the search of its resetting turns.
void BM_ProbeWdlWarm(benchmark::State& state) {
    const BenchDatabase& db = bench_database();
    const Database database(wdl_directory(), db.variant);
    probe_in_turn(state, random_positions(kWarmSamples, 1), kWarmSamples,
                  [&](const Position& p) { return database.probe_wdl(p); });
}
BENCHMARK(BM_ProbeWdlWarm);

// As BM_ProbeCold on the WDL-only copy: a block of 16 KiB decompressed for
// nearly every probe, and more for its resetting turns' positions.
void BM_ProbeWdlCold(benchmark::State& state) {
    const BenchDatabase& db = bench_database();
    const Database database(wdl_directory(), db.variant, kColdCacheBytes);
    probe_in_turn(state, random_positions(kColdSamples, 2), 1,
                  [&](const Position& p) { return database.probe_wdl(p); });
}
BENCHMARK(BM_ProbeWdlCold);

// A fresh Database for every probe: opening the sector file (header and
// index checks) plus one block, what a one-shot `morris query` pays.
void BM_ProbeFreshDatabase(benchmark::State& state) {
    const BenchDatabase& db = bench_database();
    constexpr size_t kSamples = 1 << 10;
    const auto positions = random_positions(kSamples, 3);
    size_t i = 0;
    for (auto _ : state) {
        const Database database(db.directory, db.variant);
        benchmark::DoNotOptimize(database.probe(positions[i]));
        i = (i + 1) & (kSamples - 1);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeFreshDatabase);

// Random positions across the whole database from several threads sharing
// one Database whose cache holds it all (after the first touch of each
// block): what the cache's lock costs under contention. Rates are per
// wall-clock second, summed over the threads.
void BM_ProbeThreads(benchmark::State& state) {
    static const BenchDatabase& db = bench_database();
    static const Database database(db.directory, db.variant);
    static const std::vector<Position> positions = [] {
        auto p = random_positions(1 << 14, 4);
        for (const auto& q : p) database.probe(q);  // warm the cache
        return p;
    }();
    size_t i = static_cast<size_t>(state.thread_index()) * 7919;
    for (auto _ : state) {
        benchmark::DoNotOptimize(database.probe(positions[i & (positions.size() - 1)]));
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeThreads)->Threads(1)->Threads(2)->UseRealTime();

// SectorFile::read_block on the largest sector, block after block: the
// pread and zstd decompression every cache miss pays. Bytes are the
// decompressed bytes (2 per entry).
void BM_ProbeDecompress(benchmark::State& state) {
    const BenchDatabase& db = bench_database();
    const auto largest =
        std::max_element(db.sectors.begin(), db.sectors.end(),
                         [](const auto& a, const auto& b) { return a.entries < b.entries; });
    const auto file = SectorFile::open_any(largest->path);
    const uint32_t blocks = file->info().blocks;
    std::vector<Entry> out;
    uint32_t b = 0;
    int64_t bytes = 0;
    for (auto _ : state) {
        file->read_block(b, out);
        bytes += static_cast<int64_t>(out.size() * sizeof(Entry));
        b = b + 1 == blocks ? 0 : b + 1;
    }
    state.SetBytesProcessed(bytes);
    state.SetItemsProcessed(bytes / static_cast<int64_t>(sizeof(Entry)));
    state.SetLabel(to_string(largest->key) + ", " + std::to_string(blocks) + " blocks");
}
BENCHMARK(BM_ProbeDecompress);

}  // namespace
