#include "db/sector_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "indexing/checksum.hpp"

namespace morris {
namespace {

constexpr char kMagic[8] = {'M', 'O', 'R', 'R', 'I', 'S', 'D', 'B'};
constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kEncodingBytePlanes16 = 1;  // 16-bit entries as two byte planes
constexpr size_t kHeaderBytes = 128;
constexpr size_t kVariantNameBytes = 24;
constexpr size_t kIndexEntryBytes = 16;
// zstd parameters for a block's two byte planes (32 KiB), chosen by a sweep
// over nine's sectors: greedy matching with a deeper search than the levels
// give it, and matches of at least 6 bytes, compresses as small as level 9
// (2.998 against 3.002 bits per position) 2.6 times faster (219 against 83
// MB/s): short matches in these planes cost more bits than they save.
constexpr int kWindowLog = 15;  // a block's planes fit: 2^15 bytes
constexpr int kHashLog = 16;
constexpr int kChainLog = 16;
constexpr int kSearchLog = 4;
constexpr int kMinMatch = 6;
// No sane sector has more; a larger count means a corrupt or foreign header.
constexpr uint64_t kMaxEntries = uint64_t{1} << 36;
// No zstd frame decompresses to more than this many times its size (a 4-byte
// RLE block makes at most 128 KiB), so a block too small for its entries is
// corrupt; checking this at open bounds what a forged header can make a read
// allocate.
constexpr uint64_t kMaxExpansion = 32768;

// Header field offsets.
enum : size_t {
    kAtMagic = 0,
    kAtVersion = 8,
    kAtEncoding = 12,
    kAtVariant = 16,
    kAtRuleHash = 40,
    kAtKey = 48,
    kAtBlockEntries = 52,
    kAtEntries = 56,
    kAtBlocks = 64,
    kAtWins = 72,
    kAtDraws = 80,
    kAtLosses = 88,
    kAtLongestWin = 96,
    kAtLongestLoss = 100,
    kAtChecksum = 120,
};

template <typename T>
void put(std::vector<unsigned char>& buffer, size_t at, T value) {
    std::memcpy(buffer.data() + at, &value, sizeof value);
}
template <typename T>
T get(const unsigned char* buffer, size_t at) {
    T value;
    std::memcpy(&value, buffer + at, sizeof value);
    return value;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw DatabaseError(path.string() + ": " + what);
}

void write_all(int fd, const void* data, size_t n, const std::filesystem::path& path) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0) {
        ssize_t written = ::write(fd, p, n);
        if (written < 0) fail(path, std::string("write failed: ") + std::strerror(errno));
        p += written;
        n -= static_cast<size_t>(written);
    }
}

void read_exact(int fd, void* data, size_t n, uint64_t offset, const std::filesystem::path& path) {
    auto* p = static_cast<unsigned char*>(data);
    while (n > 0) {
        ssize_t got = ::pread(fd, p, n, static_cast<off_t>(offset));
        if (got < 0) fail(path, std::string("read failed: ") + std::strerror(errno));
        if (got == 0) fail(path, "file is truncated");
        p += got;
        n -= static_cast<size_t>(got);
        offset += static_cast<uint64_t>(got);
    }
}

// One per thread of a writer, for all its blocks: a context sets up tables
// worth a few percent of compressing a block.
struct FreeContext {
    void operator()(ZSTD_CCtx* context) const { ZSTD_freeCCtx(context); }
};
using CompressionContext = std::unique_ptr<ZSTD_CCtx, FreeContext>;

struct FreeDecompressionContext {
    void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};
using DecompressionContext = std::unique_ptr<ZSTD_DCtx, FreeDecompressionContext>;

DecompressionContext decompression_context() {
    DecompressionContext context(ZSTD_createDCtx());
    if (!context) throw DatabaseError("zstd: cannot create a decompression context");
    return context;
}

CompressionContext compression_context() {
    CompressionContext context(ZSTD_createCCtx());
    if (!context) throw DatabaseError("zstd: cannot create a compression context");
    ZSTD_CCtx* c = context.get();
    ZSTD_CCtx_setParameter(c, ZSTD_c_strategy, ZSTD_greedy);
    ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, kWindowLog);
    ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, kHashLog);
    ZSTD_CCtx_setParameter(c, ZSTD_c_chainLog, kChainLog);
    ZSTD_CCtx_setParameter(c, ZSTD_c_searchLog, kSearchLog);
    ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, kMinMatch);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    return context;
}

// A sector's values counted for its header, branch-free: which value an entry
// holds is data the branch predictor cannot learn.
struct ValueTally {
    uint64_t wins = 0, draws = 0, losses = 0;
    Entry longest_win = 0, longest_loss = 0;  // entries, plies + 1; 0 if none

    void add(std::span<const Entry> entries) {
        for (Entry e : entries) {
            const bool draw = e == kDrawEntry, loss = e & 1, win = !draw && !loss;
            draws += draw, losses += loss, wins += win;
            longest_win = std::max(longest_win, win ? e : Entry{0});
            longest_loss = std::max(longest_loss, loss ? e : Entry{0});
        }
    }
};

std::vector<unsigned char> compress_block(std::span<const Entry> entries, ZSTD_CCtx* compression) {
    std::vector<unsigned char> planes(entries.size() * 2);
    for (size_t i = 0; i < entries.size(); ++i) {
        planes[i] = static_cast<unsigned char>(entries[i] & 0xff);
        planes[entries.size() + i] = static_cast<unsigned char>(entries[i] >> 8);
    }
    std::vector<unsigned char> bound(ZSTD_compressBound(planes.size()));
    size_t size =
        ZSTD_compress2(compression, bound.data(), bound.size(), planes.data(), planes.size());
    if (ZSTD_isError(size)) throw DatabaseError(std::string("zstd: ") + ZSTD_getErrorName(size));
    // Kept until the file is written: copied out of the worst-case buffer,
    // whose capacity would hold 2 more bytes per entry of the whole sector.
    return {bound.begin(), bound.begin() + static_cast<std::ptrdiff_t>(size)};
}

}  // namespace

std::string sector_file_name(const std::string& variant, const SectorKey& key) {
    return variant + "_" + to_string(key) + ".mdb";
}

SectorFileInfo write_sector_file(const std::filesystem::path& path, const std::string& variant,
                                 uint64_t rule_hash, const SectorKey& key,
                                 std::span<const Entry> entries, uint32_t block_entries) {
    if (variant.size() >= kVariantNameBytes) fail(path, "variant name too long");
    if (block_entries == 0) fail(path, "block_entries must be positive");
    const uint64_t blocks = (entries.size() + block_entries - 1) / block_entries;
    std::vector<std::vector<unsigned char>> compressed(blocks);
    std::vector<std::string> errors(blocks);
    uint64_t wins = 0, draws = 0, losses = 0;
    int longest_win = -1, longest_loss = -1;
#pragma omp parallel if (blocks > 16) reduction(+ : wins, draws, losses) \
    reduction(max : longest_win, longest_loss)
    {
        CompressionContext compression;
        ValueTally tally;
#pragma omp for schedule(dynamic, 16)
        for (int64_t b = 0; b < static_cast<int64_t>(blocks); ++b) {
            const size_t first = static_cast<size_t>(b) * block_entries;
            const auto block =
                entries.subspan(first, std::min<size_t>(block_entries, entries.size() - first));
            tally.add(block);
            try {
                if (!compression) compression = compression_context();
                compressed[b] = compress_block(block, compression.get());
            } catch (const std::exception& e) {
                errors[b] = e.what();
            }
        }
        wins += tally.wins, draws += tally.draws, losses += tally.losses;
        longest_win = std::max(longest_win, tally.longest_win - 1);
        longest_loss = std::max(longest_loss, tally.longest_loss - 1);
    }
    for (const auto& e : errors)
        if (!e.empty()) fail(path, e);

    std::vector<unsigned char> header(kHeaderBytes, 0);
    std::memcpy(header.data() + kAtMagic, kMagic, sizeof kMagic);
    put(header, kAtVersion, kFormatVersion);
    put(header, kAtEncoding, kEncodingBytePlanes16);
    std::memcpy(header.data() + kAtVariant, variant.data(), variant.size());
    put(header, kAtRuleHash, rule_hash);
    const uint8_t key_bytes[4] = {key.mover_on_board, key.opponent_on_board, key.mover_in_hand,
                                  key.opponent_in_hand};
    std::memcpy(header.data() + kAtKey, key_bytes, 4);
    put(header, kAtBlockEntries, block_entries);
    put(header, kAtEntries, static_cast<uint64_t>(entries.size()));
    put(header, kAtBlocks, static_cast<uint32_t>(blocks));
    put(header, kAtWins, wins);
    put(header, kAtDraws, draws);
    put(header, kAtLosses, losses);
    put(header, kAtLongestWin, static_cast<int32_t>(longest_win));
    put(header, kAtLongestLoss, static_cast<int32_t>(longest_loss));
    put(header, kAtChecksum, fnv1a(header.data(), kAtChecksum));

    std::vector<unsigned char> index(blocks * kIndexEntryBytes + sizeof(uint64_t), 0);
    uint64_t offset = kHeaderBytes + index.size();
    for (uint64_t b = 0; b < blocks; ++b) {
        put(index, b * kIndexEntryBytes, offset);
        put(index, b * kIndexEntryBytes + 8, static_cast<uint64_t>(compressed[b].size()));
        offset += compressed[b].size();
    }
    put(index, blocks * kIndexEntryBytes, fnv1a(index.data(), blocks * kIndexEntryBytes));

    std::filesystem::path temporary = path;
    temporary += ".tmp";
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail(temporary, std::string("cannot create: ") + std::strerror(errno));
    try {
        write_all(fd, header.data(), header.size(), temporary);
        write_all(fd, index.data(), index.size(), temporary);
        for (const auto& block : compressed) write_all(fd, block.data(), block.size(), temporary);
        if (::fsync(fd) != 0) fail(temporary, std::string("fsync failed: ") + std::strerror(errno));
    } catch (...) {
        ::close(fd);
        std::filesystem::remove(temporary);
        throw;
    }
    ::close(fd);
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        const std::string why = error.message();
        std::filesystem::remove(temporary, error);
        fail(path, "cannot rename " + temporary.string() + " to it: " + why);
    }
    return {.variant = variant,
            .rule_hash = rule_hash,
            .key = key,
            .entries = entries.size(),
            .block_entries = block_entries,
            .blocks = static_cast<uint32_t>(blocks),
            .wins = wins,
            .draws = draws,
            .losses = losses,
            .longest_win = longest_win,
            .longest_loss = longest_loss,
            .file_bytes = offset};
}

std::unique_ptr<SectorFile> SectorFile::open_any(const std::filesystem::path& path) {
    std::unique_ptr<SectorFile> file(new SectorFile);
    file->path_ = path;
    // O_NONBLOCK: a FIFO in the file's place must not hang the open.
    file->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (file->fd_ < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat status;
    if (::fstat(file->fd_, &status) != 0)
        fail(path, std::string("cannot stat: ") + std::strerror(errno));
    if (!S_ISREG(status.st_mode)) fail(path, "not a regular file");
    const auto file_bytes = static_cast<uint64_t>(status.st_size);

    unsigned char header[kHeaderBytes];
    if (file_bytes < kHeaderBytes) fail(path, "file is truncated (no complete header)");
    read_exact(file->fd_, header, kHeaderBytes, 0, path);
    if (std::memcmp(header + kAtMagic, kMagic, sizeof kMagic) != 0)
        fail(path, "not a morris database file (bad magic)");
    if (get<uint64_t>(header, kAtChecksum) != fnv1a(header, kAtChecksum))
        fail(path, "header checksum mismatch (corrupt file)");
    if (auto version = get<uint32_t>(header, kAtVersion); version != kFormatVersion)
        fail(path, "format version " + std::to_string(version) + ", this build reads version " +
                       std::to_string(kFormatVersion));
    if (get<uint32_t>(header, kAtEncoding) != kEncodingBytePlanes16) fail(path, "unknown encoding");

    SectorFileInfo& info = file->info_;
    info.variant.assign(
        reinterpret_cast<const char*>(header + kAtVariant),
        strnlen(reinterpret_cast<const char*>(header + kAtVariant), kVariantNameBytes));
    info.rule_hash = get<uint64_t>(header, kAtRuleHash);
    info.key = {header[kAtKey], header[kAtKey + 1], header[kAtKey + 2], header[kAtKey + 3]};
    info.block_entries = get<uint32_t>(header, kAtBlockEntries);
    info.entries = get<uint64_t>(header, kAtEntries);
    info.blocks = get<uint32_t>(header, kAtBlocks);
    info.wins = get<uint64_t>(header, kAtWins);
    info.draws = get<uint64_t>(header, kAtDraws);
    info.losses = get<uint64_t>(header, kAtLosses);
    info.longest_win = get<int32_t>(header, kAtLongestWin);
    info.longest_loss = get<int32_t>(header, kAtLongestLoss);
    info.file_bytes = file_bytes;
    if (info.block_entries == 0 || info.entries > kMaxEntries ||
        info.blocks != (info.entries + info.block_entries - 1) / info.block_entries)
        fail(path, "inconsistent entry and block counts (corrupt file)");

    const uint64_t index_bytes = uint64_t{info.blocks} * kIndexEntryBytes + sizeof(uint64_t);
    if (kHeaderBytes + index_bytes > file_bytes)
        fail(path, "file is truncated (no complete index)");
    std::vector<unsigned char> index(index_bytes);
    read_exact(file->fd_, index.data(), index.size(), kHeaderBytes, path);
    const uint64_t index_body = uint64_t{info.blocks} * kIndexEntryBytes;
    if (get<uint64_t>(index.data(), index_body) != fnv1a(index.data(), index_body))
        fail(path, "block index checksum mismatch (corrupt file)");
    file->block_offsets_.resize(info.blocks + 1);
    uint64_t expected = kHeaderBytes + index_bytes;
    for (uint32_t b = 0; b < info.blocks; ++b) {
        uint64_t offset = get<uint64_t>(index.data(), b * kIndexEntryBytes);
        uint64_t size = get<uint64_t>(index.data(), b * kIndexEntryBytes + 8);
        if (offset != expected) fail(path, "block index is inconsistent (corrupt file)");
        // offset <= file_bytes here, so neither this nor offset + size overflows.
        if (size > file_bytes - offset) fail(path, "file is truncated (blocks missing)");
        const uint64_t count =
            std::min<uint64_t>(info.block_entries, info.entries - uint64_t{b} * info.block_entries);
        if ((count * 2 + kMaxExpansion - 1) / kMaxExpansion > size)
            fail(path,
                 "block " + std::to_string(b) + " is too small for its entries (corrupt file)");
        file->block_offsets_[b] = offset;
        expected = offset + size;
    }
    file->block_offsets_[info.blocks] = expected;
    if (expected != file_bytes)
        fail(path, expected > file_bytes ? "file is truncated (blocks missing)"
                                         : "file has trailing bytes (corrupt file)");
    return file;
}

std::unique_ptr<SectorFile> SectorFile::open(const std::filesystem::path& path,
                                             const std::string& variant, uint64_t rule_hash,
                                             const SectorKey& key) {
    auto file = open_any(path);
    const SectorFileInfo& info = file->info();
    if (info.variant != variant)
        fail(path, "holds variant '" + info.variant + "', not '" + variant + "'");
    if (info.rule_hash != rule_hash)
        fail(path, "was built with another rule set than the one asked for");
    if (info.key != key)
        fail(path, "holds sector " + to_string(info.key) + ", not " + to_string(key));
    return file;
}

SectorFile::~SectorFile() {
    if (fd_ >= 0) ::close(fd_);
}

void SectorFile::read_block(uint32_t block, std::vector<Entry>& out) const {
    if (block >= info_.blocks) fail(path_, "block " + std::to_string(block) + " out of range");
    const uint64_t first = uint64_t{block} * info_.block_entries;
    const size_t count =
        static_cast<size_t>(std::min<uint64_t>(info_.block_entries, info_.entries - first));
    // Kept per thread: a decompression context takes longer to set up than a
    // block to decompress, and fresh buffers would be zeroed for nothing.
    thread_local const DecompressionContext context = decompression_context();
    thread_local std::vector<unsigned char> compressed, planes;
    compressed.resize(block_offsets_[block + 1] - block_offsets_[block]);
    read_exact(fd_, compressed.data(), compressed.size(), block_offsets_[block], path_);
    planes.resize(count * 2);
    size_t size = ZSTD_decompressDCtx(context.get(), planes.data(), planes.size(),
                                      compressed.data(), compressed.size());
    if (ZSTD_isError(size) || size != planes.size())
        fail(path_, "block " + std::to_string(block) + " is corrupt (" +
                        (ZSTD_isError(size) ? ZSTD_getErrorName(size) : "wrong size") + ")");
    out.resize(count);
    for (size_t i = 0; i < count; ++i)
        out[i] = static_cast<Entry>(planes[i] | planes[count + i] << 8);
}

std::vector<Entry> SectorFile::read_all() const {
    std::vector<Entry> all(info_.entries);
    read_all(all);
    return all;
}

void SectorFile::read_all(std::span<Entry> all) const {
    if (all.size() != info_.entries)
        fail(path_, "read into " + std::to_string(all.size()) + " entries, the file has " +
                        std::to_string(info_.entries));
    std::vector<std::string> errors(info_.blocks);
#pragma omp parallel if (info_.blocks > 16)
    {
        std::vector<Entry> block;
#pragma omp for schedule(dynamic, 16)
        for (int64_t b = 0; b < static_cast<int64_t>(info_.blocks); ++b) {
            try {
                read_block(static_cast<uint32_t>(b), block);
                std::copy(block.begin(), block.end(), all.begin() + b * info_.block_entries);
            } catch (const std::exception& e) {
                errors[b] = e.what();
            }
        }
    }
    for (const auto& e : errors)
        if (!e.empty()) throw DatabaseError(e);
}

}  // namespace morris
