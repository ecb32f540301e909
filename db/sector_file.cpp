#include "db/sector_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
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

struct FreeDecompressionContext {
    void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};
using DecompressionContext = std::unique_ptr<ZSTD_DCtx, FreeDecompressionContext>;

DecompressionContext decompression_context() {
    DecompressionContext context(ZSTD_createDCtx());
    if (!context) throw DatabaseError("zstd: cannot create a decompression context");
    return context;
}

}  // namespace

uint64_t rule_hash(const Variant& variant) {
    const std::string text = variant.rule_text();
    return fnv1a(text.data(), text.size());
}

std::string sector_file_name(const std::string& variant, const SectorKey& key) {
    return variant + "_" + to_string(key) + ".mdb";
}

std::vector<SectorKey> sectors_in(const std::filesystem::path& directory,
                                  const std::string& variant) {
    const std::string prefix = variant + "_", suffix = ".mdb";
    std::vector<SectorKey> keys;
    for (const auto& file : std::filesystem::directory_iterator(directory)) {
        const std::string name = file.path().filename().string();
        if (!name.starts_with(prefix) || !name.ends_with(suffix)) continue;
        const auto key =
            parse_sector(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
        if (key) keys.push_back(*key);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
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
    const std::optional<EntryCode> code = code_of(get<uint32_t>(header, kAtEncoding));
    if (!code) fail(path, "unknown encoding");

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
    info.code = *code;
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
        if ((count * bytes_per_entry(info.code) + kMaxExpansion - 1) / kMaxExpansion > size)
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
    planes.resize(count * bytes_per_entry(info_.code));
    size_t size = ZSTD_decompressDCtx(context.get(), planes.data(), planes.size(),
                                      compressed.data(), compressed.size());
    if (ZSTD_isError(size) || size != planes.size())
        fail(path_, "block " + std::to_string(block) + " is corrupt (" +
                        (ZSTD_isError(size) ? ZSTD_getErrorName(size) : "wrong size") + ")");
    out.resize(count);
    if (is_wdl(info_.code)) {
        for (size_t i = 0; i < count; ++i) {
            if (planes[i] > kWdlWin)
                fail(path_, "block " + std::to_string(block) + " is corrupt (a value " +
                                std::to_string(planes[i]) + " in a WDL file)");
            out[i] = planes[i];
        }
        return;
    }
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
    std::vector<Entry> block;
    for (uint32_t b = 0; b < info_.blocks; ++b) {
        read_block(b, block);
        std::copy(block.begin(), block.end(), all.begin() + size_t{b} * info_.block_entries);
    }
}

std::optional<uint64_t> first_difference(const SectorFile& a, const SectorFile& b) {
    if (a.info().code != b.info().code && a.info().entries + b.info().entries > 0) return 0;
    const uint64_t common = std::min(a.info().entries, b.info().entries);
    // Each file's current block; their bounds need not line up.
    struct Cursor {
        const SectorFile& file;
        std::vector<Entry> block;
        uint64_t first = 0;  // the position of block[0]
        Entry at(uint64_t position) {
            if (position >= first + block.size()) {
                const auto number = static_cast<uint32_t>(position / file.info().block_entries);
                file.read_block(number, block);
                first = uint64_t{number} * file.info().block_entries;
            }
            return block[position - first];
        }
    } x{a, {}, 0}, y{b, {}, 0};
    for (uint64_t position = 0; position < common; ++position)
        if (x.at(position) != y.at(position)) return position;
    if (a.info().entries != b.info().entries) return common;
    return std::nullopt;
}

}  // namespace morris
