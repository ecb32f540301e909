#include "db/sector_writer.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "db/checksum.hpp"
#include "db/format.hpp"

namespace morris {
namespace {

using namespace format;

void write_all(int fd, const void* data, size_t n, const std::filesystem::path& path) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0) {
        ssize_t written = ::write(fd, p, n);
        if (written < 0) fail(path, std::string("write failed: ") + std::strerror(errno));
        p += written;
        n -= static_cast<size_t>(written);
    }
}

// One per thread of a writer, for all its blocks: a context sets up tables
// worth a few percent of compressing a block.
struct FreeContext {
    void operator()(ZSTD_CCtx* context) const { ZSTD_freeCCtx(context); }
};
using CompressionContext = std::unique_ptr<ZSTD_CCtx, FreeContext>;

CompressionContext compression_context(EntryCode code) {
    CompressionContext context(ZSTD_createCCtx());
    if (!context) throw DatabaseError("zstd: cannot create a compression context");
    ZSTD_CCtx* c = context.get();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    if (is_wdl(code)) {
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, kWdlLevel);
        return context;
    }
    ZSTD_CCtx_setParameter(c, ZSTD_c_strategy, ZSTD_fast);
    ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, kWindowLog);
    ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, kHashLog);
    ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, kMinMatch);
    return context;
}

// A sector's values counted for its header, branch-free: which value an entry
// holds is data the branch predictor cannot learn.
struct ValueTally {
    uint64_t wins = 0, draws = 0, losses = 0;
    Entry longest_win = 0, longest_loss = 0;  // entries; 0 (a draw: plies -1) if none

    void add(std::span<const Entry> entries) {
        for (Entry e : entries) {
            const bool draw = e == kDrawEntry, loss = e & 1, win = !draw && !loss;
            draws += draw, losses += loss, wins += win;
            longest_win = std::max(longest_win, win ? e : Entry{0});
            longest_loss = std::max(longest_loss, loss ? e : Entry{0});
        }
    }
};

std::vector<unsigned char> compress_block(std::span<const Entry> entries, EntryCode code,
                                          ZSTD_CCtx* compression) {
    std::vector<unsigned char> planes(entries.size() * bytes_per_entry(code));
    for (size_t i = 0; i < entries.size(); ++i) {
        planes[i] = static_cast<unsigned char>(entries[i] & 0xff);
        if (!is_wdl(code)) planes[entries.size() + i] = static_cast<unsigned char>(entries[i] >> 8);
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

PendingSectorFile PendingSectorFile::compress(const std::filesystem::path& path,
                                              const std::string& variant, uint64_t rule_hash,
                                              const SectorKey& key, std::span<const Entry> entries,
                                              uint32_t block_entries, EntryCode code,
                                              const ValueCounts* counts) {
    if (variant.size() >= kVariantNameBytes) fail(path, "variant name too long");
    if (block_entries == 0) fail(path, "block_entries must be positive");
    const uint64_t blocks = (entries.size() + block_entries - 1) / block_entries;
    PendingSectorFile file;
    file.path_ = path;
    file.blocks_.resize(blocks);
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
                if (!compression) compression = compression_context(code);
                file.blocks_[b] = compress_block(block, code, compression.get());
            } catch (const std::exception& e) {
                errors[b] = e.what();
            }
        }
        wins += tally.wins, draws += tally.draws, losses += tally.losses;
        longest_win = std::max(longest_win, decode(tally.longest_win, code).plies);
        longest_loss = std::max(longest_loss, decode(tally.longest_loss, code).plies);
    }
    for (const auto& e : errors)
        if (!e.empty()) fail(path, e);
    if (counts) wins = counts->wins, draws = counts->draws, losses = counts->losses;

    std::vector<unsigned char>& header = file.header_;
    header.assign(kHeaderBytes, 0);
    std::memcpy(header.data() + kAtMagic, kMagic, sizeof kMagic);
    put(header, kAtVersion, kFormatVersion);
    put(header, kAtEncoding, encoding_of(code));
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

    std::vector<unsigned char>& index = file.index_;
    index.assign(blocks * kIndexEntryBytes + sizeof(uint64_t), 0);
    uint64_t offset = kHeaderBytes + index.size();
    for (uint64_t b = 0; b < blocks; ++b) {
        put(index, b * kIndexEntryBytes, offset);
        put(index, b * kIndexEntryBytes + 8, static_cast<uint64_t>(file.blocks_[b].size()));
        offset += file.blocks_[b].size();
    }
    put(index, blocks * kIndexEntryBytes, fnv1a(index.data(), blocks * kIndexEntryBytes));

    file.info_ = {.variant = variant,
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
                  .code = code,
                  .file_bytes = offset};
    return file;
}

void PendingSectorFile::write() const {
    std::filesystem::path temporary = path_;
    temporary += ".tmp";
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail(temporary, std::string("cannot create: ") + std::strerror(errno));
    try {
        write_all(fd, header_.data(), header_.size(), temporary);
        write_all(fd, index_.data(), index_.size(), temporary);
        for (const auto& block : blocks_) write_all(fd, block.data(), block.size(), temporary);
        if (::fsync(fd) != 0) fail(temporary, std::string("fsync failed: ") + std::strerror(errno));
    } catch (...) {
        ::close(fd);
        std::filesystem::remove(temporary);
        throw;
    }
    ::close(fd);
    std::error_code error;
    std::filesystem::rename(temporary, path_, error);
    if (error) {
        const std::string why = error.message();
        std::filesystem::remove(temporary, error);
        fail(path_, "cannot rename " + temporary.string() + " to it: " + why);
    }
}

SectorFileInfo write_sector_file(const std::filesystem::path& path, const std::string& variant,
                                 uint64_t rule_hash, const SectorKey& key,
                                 std::span<const Entry> entries, uint32_t block_entries,
                                 EntryCode code, const ValueCounts* counts) {
    const PendingSectorFile file = PendingSectorFile::compress(
        path, variant, rule_hash, key, entries, block_entries, code, counts);
    file.write();
    return file.info();
}

size_t compressed_block_bytes(std::span<const Entry> entries, EntryCode code) {
    // One context per thread and code, kept: setting one up at a deep level
    // costs about as much as compressing a block.
    thread_local EntryCode context_code = code;
    thread_local CompressionContext compression = compression_context(code);
    if (context_code != code) compression = compression_context(context_code = code);
    return compress_block(entries, code, compression.get()).size();
}

void read_whole_sector(const SectorFile& file, std::span<Entry> all) {
    if (all.size() != file.info().entries)
        fail(file.path(), "read into " + std::to_string(all.size()) + " entries, the file has " +
                              std::to_string(file.info().entries));
    std::vector<std::string> errors(file.info().blocks);
#pragma omp parallel if (file.info().blocks > 16)
    {
        std::vector<Entry> block;
#pragma omp for schedule(dynamic, 16)
        for (int64_t b = 0; b < static_cast<int64_t>(file.info().blocks); ++b) {
            try {
                file.read_block(static_cast<uint32_t>(b), block);
                std::copy(block.begin(), block.end(), all.begin() + b * file.info().block_entries);
            } catch (const std::exception& e) {
                errors[b] = e.what();
            }
        }
    }
    for (const auto& e : errors)
        if (!e.empty()) throw DatabaseError(e);
}

}  // namespace morris
