// The layout of a sector file (see db/sector_file.hpp), shared by its reader
// (db/sector_file.cpp) and its writer (db/sector_writer.cpp). Internal to db/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "db/sector_file.hpp"

namespace morris::format {

constexpr char kMagic[8] = {'M', 'O', 'R', 'R', 'I', 'S', 'D', 'B'};
constexpr uint32_t kFormatVersion = 1;
// 16-bit entries as two byte planes, by their EntryCode.
constexpr uint32_t kEncodingBytePlanes16 = 1;          // EntryCode::parity
constexpr uint32_t kEncodingBytePlanes16Explicit = 2;  // EntryCode::explicit_value
// One byte per entry, 0 draw, 1 loss, 2 win: every value exactly
// (EntryCode::wdl), or at most the value where a turn that removes a stone
// reaches it (EntryCode::wdl_at_most, solver/compact.hpp). Encodings 3 and 4
// were earlier rules for which sectors store less (any sector with any
// resetting turn; those of an odd stone count) and are no longer read.
constexpr uint32_t kEncodingWdlBytes = 5;
constexpr uint32_t kEncodingWdlBytesAtMost = 6;

constexpr uint32_t encoding_of(EntryCode code) {
    switch (code) {
        case EntryCode::parity: return kEncodingBytePlanes16;
        case EntryCode::explicit_value: return kEncodingBytePlanes16Explicit;
        case EntryCode::wdl: return kEncodingWdlBytes;
        case EntryCode::wdl_at_most: return kEncodingWdlBytesAtMost;
    }
    return 0;
}
// The code of an encoding a header names; none for an unknown one.
constexpr std::optional<EntryCode> code_of(uint32_t encoding) {
    for (EntryCode code :
         {EntryCode::parity, EntryCode::explicit_value, EntryCode::wdl, EntryCode::wdl_at_most})
        if (encoding_of(code) == encoding) return code;
    return std::nullopt;
}
constexpr size_t bytes_per_entry(EntryCode code) { return is_wdl(code) ? 1 : 2; }
constexpr size_t kHeaderBytes = 128;
constexpr size_t kVariantNameBytes = 24;
constexpr size_t kIndexEntryBytes = 16;
// zstd parameters for a block's two byte planes (32 KiB): the fast strategy
// (a hash table and no chains, skipping ahead where nothing matches) with
// matches of at least 7 bytes. Against greedy matching with a deeper search
// (the choice before fd6d2e4) it compresses nine's sectors 1.8-2.3 times
// faster for 1.5% more bytes; short matches in these planes cost more bits
// than they save (docs/performance.md, "The files").
constexpr int kWindowLog = 15;  // a block's planes fit: 2^15 bytes
constexpr int kHashLog = 16;
constexpr int kMinMatch = 7;
// WDL bytes: long runs of three symbols, where zstd's deeper levels find
// matches that fast parameters miss (0.74 bits per position with level 9
// against 0.92 with the greedy ones used before fd6d2e4, on a sample of
// nine's moving sectors). Level 15
// compresses within 2% of level 19 three times faster.
constexpr int kWdlLevel = 15;
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

[[noreturn]] inline void fail(const std::filesystem::path& path, const std::string& what) {
    throw DatabaseError(path.string() + ": " + what);
}

}  // namespace morris::format
