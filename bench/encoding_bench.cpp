// How to store a sector: bits per position and decompression speed for each
// layout, block size and zstd level, measured on real sector files. This is
// the measurement behind the file format's choices (byte planes, 16,384
// entries a block) and the win/draw/loss-only figure; BM_WriteSector
// measures the writer's own zstd parameters against the levels,
// BM_CompressionStrategy against the parameters it had before and faster
// ones, and BM_DecompressionStrategy what reading each one's blocks costs.
//
//   export MORRIS_BENCH_SECTORS=db/nine_6-6-0-0.mdb,db/nine_6-4-0-0.mdb
//   build/bin/morris_bench --benchmark_filter=Encoding
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "db/format.hpp"
#include "db/sector_file.hpp"
#include "db/sector_writer.hpp"

namespace {

using namespace morris;

enum Layout : int64_t {
    kInterleaved,  // 16-bit entries as they are in memory
    kBytePlanes,   // low bytes, then high bytes (the format's choice)
    kWdlBits,      // win/draw/loss only, four 2-bit values a byte
};

std::vector<Entry> load_sectors() {
    std::vector<Entry> all;
    const char* list = std::getenv("MORRIS_BENCH_SECTORS");
    if (!list) return all;
    std::stringstream paths(list);
    std::string path;
    while (std::getline(paths, path, ',')) {
        auto entries = SectorFile::open_any(path)->read_all();
        all.insert(all.end(), entries.begin(), entries.end());
    }
    return all;
}

const std::vector<Entry>& sectors() {
    static const std::vector<Entry> all = load_sectors();
    return all;
}

// The sectors' entries, or null with the benchmark skipped when
// MORRIS_BENCH_SECTORS names none.
const std::vector<Entry>* entries_to_measure(benchmark::State& state) {
    const std::vector<Entry>& all = sectors();
    if (!all.empty()) return &all;
    state.SkipWithError("set MORRIS_BENCH_SECTORS to sector files to measure");
    return nullptr;
}

std::vector<unsigned char> lay_out(std::span<const Entry> block, Layout layout) {
    std::vector<unsigned char> bytes;
    switch (layout) {
        case kInterleaved:
            bytes.resize(block.size() * 2);
            std::memcpy(bytes.data(), block.data(), bytes.size());
            break;
        case kBytePlanes:
            bytes.resize(block.size() * 2);
            for (size_t i = 0; i < block.size(); ++i) {
                bytes[i] = static_cast<unsigned char>(block[i] & 0xff);
                bytes[block.size() + i] = static_cast<unsigned char>(block[i] >> 8);
            }
            break;
        case kWdlBits:
            bytes.assign((block.size() + 3) / 4, 0);
            for (size_t i = 0; i < block.size(); ++i) {
                const Value v = decode(block[i]).value;
                const unsigned code = v == Value::draw ? 0 : v == Value::win ? 1 : 2;
                bytes[i / 4] |= static_cast<unsigned char>(code << (2 * (i % 4)));
            }
            break;
    }
    return bytes;
}

// Args: layout, entries per block, zstd level.
void BM_Encoding(benchmark::State& state) {
    const std::vector<Entry>* measured = entries_to_measure(state);
    if (!measured) return;
    const std::vector<Entry>& all = *measured;
    const auto layout = static_cast<Layout>(state.range(0));
    const auto block_entries = static_cast<size_t>(state.range(1));
    const int level = static_cast<int>(state.range(2));
    std::vector<std::vector<unsigned char>> raw, packed;
    uint64_t compressed_bytes = 0;
    for (size_t first = 0; first < all.size(); first += block_entries) {
        std::span<const Entry> block(all.data() + first,
                                     std::min(block_entries, all.size() - first));
        raw.push_back(lay_out(block, layout));
        std::vector<unsigned char> out(ZSTD_compressBound(raw.back().size()));
        out.resize(
            ZSTD_compress(out.data(), out.size(), raw.back().data(), raw.back().size(), level));
        compressed_bytes += out.size();
        packed.push_back(std::move(out));
    }
    std::vector<unsigned char> scratch;
    uint64_t decompressed = 0;
    for (auto _ : state) {
        for (size_t b = 0; b < packed.size(); ++b) {
            scratch.resize(raw[b].size());
            ZSTD_decompress(scratch.data(), scratch.size(), packed[b].data(), packed[b].size());
            decompressed += scratch.size();
        }
    }
    state.SetBytesProcessed(static_cast<int64_t>(decompressed));
    state.counters["bits_per_position"] = 8.0 * compressed_bytes / all.size();
}
BENCHMARK(BM_Encoding)
    ->ArgsProduct({{kInterleaved, kBytePlanes, kWdlBits}, {1 << 12, 1 << 14, 1 << 16}, {3, 9}})
    ->Args({kBytePlanes, 1 << 14, 19})
    ->Args({kWdlBits, 1 << 14, 19})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// What writing costs: compressing byte-plane blocks of 16,384 entries at
// zstd level `level`, one context for all blocks or (Arg 1 = 0) a fresh
// context per block. Bytes processed count the uncompressed entries.
void BM_Compression(benchmark::State& state) {
    const std::vector<Entry>* measured = entries_to_measure(state);
    if (!measured) return;
    const std::vector<Entry>& all = *measured;
    const int level = static_cast<int>(state.range(0));
    const bool reuse_context = state.range(1) != 0;
    constexpr size_t kBlockEntries = 1 << 14;
    std::vector<unsigned char> out;
    uint64_t compressed_bytes = 0, processed = 0;
    ZSTD_CCtx* shared = ZSTD_createCCtx();
    for (auto _ : state) {
        compressed_bytes = 0;
        for (size_t first = 0; first < all.size(); first += kBlockEntries) {
            std::span<const Entry> block(all.data() + first,
                                         std::min(kBlockEntries, all.size() - first));
            const std::vector<unsigned char> raw = lay_out(block, kBytePlanes);
            out.resize(ZSTD_compressBound(raw.size()));
            ZSTD_CCtx* context = reuse_context ? shared : ZSTD_createCCtx();
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
            ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
            compressed_bytes +=
                ZSTD_compress2(context, out.data(), out.size(), raw.data(), raw.size());
            if (!reuse_context) ZSTD_freeCCtx(context);
            processed += block.size_bytes();
        }
    }
    ZSTD_freeCCtx(shared);
    state.SetBytesProcessed(static_cast<int64_t>(processed));
    state.counters["bits_per_position"] = 8.0 * compressed_bytes / all.size();
}
BENCHMARK(BM_Compression)
    ->ArgsProduct({{1, 2, 3, 4, 6, 9}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// The writer's parameters against the ones it had before and a middle way:
// byte-plane blocks of 16,384 entries, one context for all. Arg: a row of
// kStrategies. Bytes processed count the uncompressed entries.
struct Strategy {
    ZSTD_strategy strategy;
    int hash_log, chain_log, search_log, min_match;
    int target_length = 0;  // the fast strategy's acceleration: 0 and 1 are none
};
constexpr Strategy kStrategies[] = {
    {ZSTD_fast, format::kHashLog, 0, 0, format::kMinMatch},  // the writer's
    {ZSTD_dfast, 16, 16, 0, 7},
    {ZSTD_greedy, 16, 16, 4, 6},  // the writer's before fd6d2e4
    {ZSTD_fast, format::kHashLog, 0, 0, format::kMinMatch, 2},
    {ZSTD_fast, format::kHashLog, 0, 0, format::kMinMatch, 4},
    {ZSTD_fast, format::kHashLog, 0, 0, format::kMinMatch, 8},
};
ZSTD_CCtx* strategy_context(const Strategy& s) {
    ZSTD_CCtx* context = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(context, ZSTD_c_strategy, s.strategy);
    ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, format::kWindowLog);
    ZSTD_CCtx_setParameter(context, ZSTD_c_hashLog, s.hash_log);
    ZSTD_CCtx_setParameter(context, ZSTD_c_chainLog, s.chain_log);
    ZSTD_CCtx_setParameter(context, ZSTD_c_searchLog, s.search_log);
    ZSTD_CCtx_setParameter(context, ZSTD_c_minMatch, s.min_match);
    ZSTD_CCtx_setParameter(context, ZSTD_c_targetLength, s.target_length);
    return context;
}
// The sectors' entries in the writer's blocks, laid out as it lays them.
std::vector<std::vector<unsigned char>> raw_blocks(std::span<const Entry> all) {
    std::vector<std::vector<unsigned char>> raw;
    for (size_t first = 0; first < all.size(); first += kDefaultBlockEntries)
        raw.push_back(
            lay_out(all.subspan(first, std::min<size_t>(kDefaultBlockEntries, all.size() - first)),
                    kBytePlanes));
    return raw;
}
void BM_CompressionStrategy(benchmark::State& state) {
    const std::vector<Entry>* measured = entries_to_measure(state);
    if (!measured) return;
    const std::vector<Entry>& all = *measured;
    ZSTD_CCtx* context = strategy_context(kStrategies[state.range(0)]);
    const auto raw = raw_blocks(all);
    std::vector<unsigned char> out(ZSTD_compressBound(kDefaultBlockEntries * sizeof(Entry)));
    uint64_t compressed_bytes = 0, processed = 0;
    for (auto _ : state) {
        compressed_bytes = 0;
        for (const auto& block : raw) {
            const size_t size =
                ZSTD_compress2(context, out.data(), out.size(), block.data(), block.size());
            if (ZSTD_isError(size)) {
                state.SkipWithError(ZSTD_getErrorName(size));
                break;
            }
            compressed_bytes += size;
        }
        processed += all.size() * sizeof(Entry);
    }
    ZSTD_freeCCtx(context);
    state.SetBytesProcessed(static_cast<int64_t>(processed));
    state.counters["bits_per_position"] = 8.0 * compressed_bytes / all.size();
}
// Decompressing the blocks each row of kStrategies wrote: what loading
// children and looking positions up pay for its parameters.
void BM_DecompressionStrategy(benchmark::State& state) {
    const std::vector<Entry>* measured = entries_to_measure(state);
    if (!measured) return;
    const std::vector<Entry>& all = *measured;
    ZSTD_CCtx* context = strategy_context(kStrategies[state.range(0)]);
    std::vector<std::vector<unsigned char>> compressed;
    for (const auto& block : raw_blocks(all)) {
        std::vector<unsigned char> out(ZSTD_compressBound(block.size()));
        const size_t size =
            ZSTD_compress2(context, out.data(), out.size(), block.data(), block.size());
        if (ZSTD_isError(size)) {
            state.SkipWithError(ZSTD_getErrorName(size));
            ZSTD_freeCCtx(context);
            return;
        }
        out.resize(size);
        compressed.push_back(std::move(out));
    }
    ZSTD_freeCCtx(context);
    ZSTD_DCtx* decompression = ZSTD_createDCtx();
    std::vector<unsigned char> planes(kDefaultBlockEntries * sizeof(Entry));
    uint64_t processed = 0;
    for (auto _ : state) {
        for (const auto& block : compressed) {
            const size_t size = ZSTD_decompressDCtx(decompression, planes.data(), planes.size(),
                                                    block.data(), block.size());
            if (ZSTD_isError(size)) {
                state.SkipWithError(ZSTD_getErrorName(size));
                break;
            }
        }
        processed += all.size() * sizeof(Entry);
    }
    ZSTD_freeDCtx(decompression);
    state.SetBytesProcessed(static_cast<int64_t>(processed));
}
BENCHMARK(BM_DecompressionStrategy)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompressionStrategy)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

// What loading a solved sector for the solver costs: every block read,
// decompressed and put in place, on all threads. Bytes processed count the
// decompressed entries.
void BM_ReadSector(benchmark::State& state) {
    const char* list = std::getenv("MORRIS_BENCH_SECTORS");
    if (!list) {
        state.SkipWithError("set MORRIS_BENCH_SECTORS to sector files to measure");
        return;
    }
    std::stringstream paths(list);
    std::string path;
    std::getline(paths, path, ',');
    const auto file = SectorFile::open_any(path);
    uint64_t processed = 0;
    for (auto _ : state) {
        // Fresh memory each time, as the solver has: first touches included.
        auto entries = std::make_unique_for_overwrite<Entry[]>(file->info().entries);
        file->read_all(std::span<Entry>(entries.get(), file->info().entries));
        benchmark::DoNotOptimize(entries.get());
        processed += file->info().entries * sizeof(Entry);
    }
    state.SetBytesProcessed(static_cast<int64_t>(processed));
}
BENCHMARK(BM_ReadSector)->Unit(benchmark::kMillisecond)->UseRealTime();

// What storing a solved sector costs: the writer's own compression of every
// sector given, on all threads, to a scratch file. Bytes processed count the
// entries; bits per position, the file.
void BM_WriteSector(benchmark::State& state) {
    const std::vector<Entry>* measured = entries_to_measure(state);
    if (!measured) return;
    const std::vector<Entry>& all = *measured;
    const auto path = std::filesystem::temp_directory_path() /
                      ("morris-bench-" + std::to_string(getpid()) + ".mdb");
    uint64_t processed = 0, file_bytes = 0;
    for (auto _ : state) {
        file_bytes = write_sector_file(path, "bench", 0, {3, 3, 0, 0}, all).file_bytes;
        processed += all.size() * sizeof(Entry);
    }
    std::filesystem::remove(path);
    state.SetBytesProcessed(static_cast<int64_t>(processed));
    state.counters["bits_per_position"] = 8.0 * file_bytes / all.size();
}
BENCHMARK(BM_WriteSector)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
