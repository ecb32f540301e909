// Sector files and the lookup library: round trips, header statistics, and
// the promise that bad input never crashes. A missing, truncated, corrupt or
// foreign file must give one DatabaseError (or ProbeResult error) naming the
// file, never a crash and never wrong data returned silently.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

#include "db/checksum.hpp"  // the format's checksum, to forge right checksums
#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "db/sector_file.hpp"
#include "db/sector_writer.hpp"
#include "db/value.hpp"
#include "game/notation.hpp"
#include "game/position.hpp"
#include "game/sector.hpp"
#include "game/turns.hpp"
#include "game/variant.hpp"
#include "solver/solve.hpp"
#include "tests/temp_dir.hpp"

using namespace morris;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------
// Helpers.

using morris::test_support::TempDir;

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good()) << path;
}

std::vector<std::string> directory_listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

// Entries of every kind: draws, short and long wins and losses, and the
// extremes 1 (loss 0) and 0xffff (loss 0xfffe, the largest distance).
std::vector<Entry> random_entries(std::mt19937_64& rng, size_t n) {
    std::vector<Entry> entries(n);
    for (auto& e : entries) {
        switch (rng() % 6) {
            case 0: e = kDrawEntry; break;
            case 1: e = static_cast<Entry>(1 + rng() % 40); break;
            case 2: e = static_cast<Entry>(rng() % 0x10000); break;
            case 3: e = static_cast<Entry>(0xff00 + rng() % 0x100); break;
            case 4: e = 0xffff; break;
            default: e = static_cast<Entry>(rng() % 300); break;
        }
    }
    return entries;
}

struct Stats {
    uint64_t wins = 0, draws = 0, losses = 0;
    int longest_win = -1, longest_loss = -1;
};

Stats stats_of(const std::vector<Entry>& entries) {
    Stats s;
    for (Entry e : entries) {
        Outcome o = decode(e);
        if (o.value == Value::draw)
            ++s.draws;
        else if (o.value == Value::win)
            ++s.wins, s.longest_win = std::max(s.longest_win, o.plies);
        else
            ++s.losses, s.longest_loss = std::max(s.longest_loss, o.plies);
    }
    return s;
}

template <typename T>
void put(std::string& bytes, size_t at, T value) {
    std::memcpy(bytes.data() + at, &value, sizeof value);
}
template <typename T>
T get(const std::string& bytes, size_t at) {
    T value;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

constexpr size_t kHeaderBytes = 128;
constexpr size_t kHeaderChecksumAt = 120;

void fix_header_checksum(std::string& bytes) {
    put(bytes, kHeaderChecksumAt, fnv1a(bytes.data(), kHeaderChecksumAt));
}
void fix_index_checksum(std::string& bytes, uint32_t blocks) {
    put(bytes, kHeaderBytes + blocks * 16, fnv1a(bytes.data() + kHeaderBytes, blocks * 16));
}

const std::string kVariant = "test";
constexpr uint64_t kRuleHash = 0x0123456789abcdefull;
constexpr SectorKey kKey{3, 2, 1, 1};

// Opens `path` and reads it all. Returns the DatabaseError's message, or
// nothing when it read, with the entries in `out`. Any other exception is a
// test failure (reported and returned as its message).
std::optional<std::string> try_read(const fs::path& path, std::vector<Entry>& out,
                                    bool expectations = true) {
    try {
        auto file = expectations ? SectorFile::open(path, kVariant, kRuleHash, kKey)
                                 : SectorFile::open_any(path);
        out = file->read_all();
        return std::nullopt;
    } catch (const DatabaseError& e) {
        return std::string(e.what());
    } catch (const std::exception& e) {
        ADD_FAILURE() << path << ": " << typeid(e).name()
                      << " instead of DatabaseError: " << e.what();
        return std::string(e.what());
    }
}

// Expects open + read_all of `path` to fail with a DatabaseError naming the
// file and containing `part`.
void expect_error(const fs::path& path, const std::string& part, bool expectations = true) {
    std::vector<Entry> out;
    auto error = try_read(path, out, expectations);
    ASSERT_TRUE(error.has_value()) << path << " was read without error";
    EXPECT_NE(error->find(path.string()), std::string::npos) << *error;
    EXPECT_NE(error->find(part), std::string::npos) << "'" << *error << "' lacks '" << part << "'";
}

// ---------------------------------------------------------------------------
// Values.

TEST(Value, EncodeDecodeEveryDistance) {
    EXPECT_EQ(decode(kDrawEntry), (Outcome{Value::draw, -1}));
    EXPECT_EQ(encode(Outcome{}), kDrawEntry);
    for (int plies = 0; plies <= kMaxPlies; ++plies) {
        Outcome o{plies % 2 ? Value::win : Value::loss, plies};
        ASSERT_EQ(decode(encode(o)), o) << plies;
    }
    EXPECT_EQ(decode(0xffff), (Outcome{Value::loss, 0xfffe}));
    EXPECT_EQ(to_string(Outcome{Value::win, 13}), "win 13");
    EXPECT_EQ(to_string(Outcome{}), "draw");
}

// ---------------------------------------------------------------------------
// Round trips.

void check_round_trip(const std::vector<Entry>& entries, uint32_t block_entries) {
    TempDir dir("roundtrip");
    const fs::path path = dir.path() / "x.mdb";
    const SectorFileInfo written =
        write_sector_file(path, kVariant, kRuleHash, kKey, entries, block_entries);
    EXPECT_EQ(directory_listing(dir.path()), std::vector<std::string>{"x.mdb"})
        << "the temporary file was left behind";

    auto file = SectorFile::open(path, kVariant, kRuleHash, kKey);
    const SectorFileInfo& info = file->info();
    EXPECT_EQ(info.variant, kVariant);
    EXPECT_EQ(info.rule_hash, kRuleHash);
    EXPECT_EQ(info.key, kKey);
    EXPECT_EQ(info.entries, entries.size());
    EXPECT_EQ(info.block_entries, block_entries);
    EXPECT_EQ(info.blocks, (entries.size() + block_entries - 1) / block_entries);
    EXPECT_EQ(info.file_bytes, fs::file_size(path));
    const Stats s = stats_of(entries);
    EXPECT_EQ(info.wins, s.wins);
    EXPECT_EQ(info.draws, s.draws);
    EXPECT_EQ(info.losses, s.losses);
    EXPECT_EQ(info.longest_win, s.longest_win);
    EXPECT_EQ(info.longest_loss, s.longest_loss);
    EXPECT_EQ(info.wins + info.draws + info.losses, info.entries);
    EXPECT_TRUE(written == info) << "the writer returns what the file says";

    EXPECT_EQ(file->read_all(), entries);
    std::vector<Entry> block;
    for (uint32_t b = 0; b < info.blocks; ++b) {
        file->read_block(b, block);
        const size_t first = size_t{b} * block_entries;
        const size_t count = std::min<size_t>(block_entries, entries.size() - first);
        ASSERT_EQ(block.size(), count);
        ASSERT_TRUE(std::equal(block.begin(), block.end(), entries.begin() + first))
            << "block " << b;
    }
    try {
        file->read_block(info.blocks, block);
        ADD_FAILURE() << "read_block past the end did not throw";
    } catch (const DatabaseError& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    // open_any sees the same.
    auto any = SectorFile::open_any(path);
    EXPECT_EQ(any->info().variant, kVariant);
    EXPECT_EQ(any->read_all(), entries);
}

TEST(SectorFile, RoundTripSizesAroundTheBlockSize) {
    std::mt19937_64 rng(1);
    for (uint32_t block_entries : {kDefaultBlockEntries, 1u, 7u, 64u}) {
        const size_t b = block_entries;
        for (size_t n : {size_t{0}, size_t{1}, b - 1, b, b + 1, 2 * b, 5 * b + 3}) {
            SCOPED_TRACE("block_entries " + std::to_string(block_entries) + ", entries " +
                         std::to_string(n));
            check_round_trip(random_entries(rng, n), block_entries);
        }
    }
}

TEST(SectorFile, RoundTripEveryEntryValue) {
    std::vector<Entry> all(0x10000);
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<Entry>(i);
    std::shuffle(all.begin(), all.end(), std::mt19937_64(2));
    check_round_trip(all, 1000);
    const Stats s = stats_of(all);
    EXPECT_EQ(s.longest_loss, 0xfffe);
    EXPECT_EQ(s.longest_win, 0xfffd);
    EXPECT_EQ(s.draws, 1u);
}

// first_difference reads values, not bytes: blocks of other sizes hold the
// same values, and one changed entry anywhere is found where it is.
TEST(SectorFile, FirstDifferenceFindsTheFirstChangedValueWhateverTheBlocks) {
    TempDir dir("difference");
    std::mt19937_64 rng(4);
    const std::vector<Entry> entries = random_entries(rng, 1000);
    auto file = [&](const std::string& name, const std::vector<Entry>& e, uint32_t block_entries,
                    EntryCode code = EntryCode::parity) {
        write_sector_file(dir.path() / name, kVariant, kRuleHash, kKey, e, block_entries, code);
        return SectorFile::open_any(dir.path() / name);
    };
    const auto original = file("a.mdb", entries, 64);
    EXPECT_EQ(first_difference(*original, *file("b.mdb", entries, 7)), std::nullopt);
    EXPECT_EQ(first_difference(*original, *original), std::nullopt);
    for (size_t at : {size_t{0}, size_t{6}, size_t{7}, size_t{63}, size_t{64}, size_t{999}}) {
        std::vector<Entry> changed = entries;
        changed[at] ^= 2;  // another entry: another distance, or a win for a draw
        const auto other = file("c.mdb", changed, 7);
        EXPECT_EQ(first_difference(*original, *other), at);
        EXPECT_EQ(first_difference(*other, *original), at);
    }
    const std::vector<Entry> longer = [&] {
        auto e = entries;
        e.push_back(kDrawEntry);
        return e;
    }();
    EXPECT_EQ(first_difference(*original, *file("d.mdb", longer, 64)), 1000u);
    EXPECT_EQ(first_difference(*original, *file("e.mdb", entries, 64, EntryCode::explicit_value)),
              0u)
        << "the same numbers stored under another code are other values";
}

TEST(SectorFile, StatisticsOfUniformSectors) {
    TempDir dir("stats");
    const fs::path path = dir.path() / "x.mdb";
    // Only draws: no longest win or loss.
    write_sector_file(path, kVariant, kRuleHash, kKey, std::vector<Entry>(100, kDrawEntry), 16);
    auto info = SectorFile::open_any(path)->info();
    EXPECT_EQ(info.draws, 100u);
    EXPECT_EQ(info.wins + info.losses, 0u);
    EXPECT_EQ(info.longest_win, -1);
    EXPECT_EQ(info.longest_loss, -1);
    // Only losses in 0: longest loss 0.
    write_sector_file(path, kVariant, kRuleHash, kKey, std::vector<Entry>(10, 1), 16);
    info = SectorFile::open_any(path)->info();
    EXPECT_EQ(info.losses, 10u);
    EXPECT_EQ(info.longest_loss, 0);
    EXPECT_EQ(info.longest_win, -1);
    EXPECT_EQ(directory_listing(dir.path()), std::vector<std::string>{"x.mdb"});
}

TEST(SectorFile, OverwriteReplacesTheFile) {
    TempDir dir("overwrite");
    const fs::path path = dir.path() / "x.mdb";
    std::mt19937_64 rng(3);
    auto first = random_entries(rng, 500), second = random_entries(rng, 90);
    write_sector_file(path, kVariant, kRuleHash, kKey, first, 64);
    write_sector_file(path, kVariant, kRuleHash, kKey, second, 64);
    EXPECT_EQ(SectorFile::open_any(path)->read_all(), second);
    EXPECT_EQ(directory_listing(dir.path()), std::vector<std::string>{"x.mdb"});
}

// A file compressed first and written later (the solver writes one unit's
// files while it solves the next) is the file written at once, and nothing
// is on the disk before write().
TEST(SectorFile, PendingFileIsWrittenOnlyByWriteAndAsWrittenAtOnce) {
    TempDir dir("pending");
    std::mt19937_64 rng(5);
    const auto entries = random_entries(rng, 1000);
    const SectorFileInfo at_once =
        write_sector_file(dir.path() / "a.mdb", kVariant, kRuleHash, kKey, entries, 64);
    const PendingSectorFile pending =
        PendingSectorFile::compress(dir.path() / "b.mdb", kVariant, kRuleHash, kKey, entries, 64);
    EXPECT_EQ(directory_listing(dir.path()), std::vector<std::string>{"a.mdb"});
    EXPECT_EQ(pending.info().file_bytes, at_once.file_bytes);
    EXPECT_EQ(pending.info().wins + pending.info().draws + pending.info().losses, entries.size());
    pending.write();
    EXPECT_EQ(directory_listing(dir.path()), (std::vector<std::string>{"a.mdb", "b.mdb"}));
    std::ifstream a(dir.path() / "a.mdb", std::ios::binary),
        b(dir.path() / "b.mdb", std::ios::binary);
    EXPECT_TRUE(std::equal(std::istreambuf_iterator<char>(a), std::istreambuf_iterator<char>(),
                           std::istreambuf_iterator<char>(b), std::istreambuf_iterator<char>()));
    EXPECT_EQ(fs::file_size(dir.path() / "b.mdb"), pending.info().file_bytes);
}

// Every write failure is a DatabaseError naming the file, and leaves no
// temporary file behind.
TEST(SectorFile, WriteFailures) {
    TempDir dir("writefail");
    const std::vector<Entry> entries(10, 3);
    auto expect_write_error = [&](const fs::path& path, const std::string& variant,
                                  uint32_t block_entries) {
        try {
            write_sector_file(path, variant, kRuleHash, kKey, entries, block_entries);
            ADD_FAILURE() << "writing " << path << " did not fail";
        } catch (const DatabaseError& e) {
            EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
        } catch (const std::exception& e) {
            ADD_FAILURE() << typeid(e).name() << " instead of DatabaseError: " << e.what();
        }
    };
    expect_write_error(dir.path() / "no-such-dir" / "x.mdb", kVariant, 16);
    expect_write_error(dir.path() / "x.mdb", std::string(30, 'v'), 16);  // name too long
    expect_write_error(dir.path() / "x.mdb", kVariant, 0);               // no block size
    fs::create_directory(dir.path() / "a-directory.mdb");
    expect_write_error(dir.path() / "a-directory.mdb", kVariant, 16);  // rename onto a directory
    EXPECT_EQ(directory_listing(dir.path()), std::vector<std::string>{"a-directory.mdb"});
}

// ---------------------------------------------------------------------------
// Robustness: a small valid file, truncated and bit-flipped.

class DamagedFile : public ::testing::Test {
  protected:
    void SetUp() override {
        // Thousands of reads of a 5-block file: on a loaded machine an OpenMP
        // team per read_all costs milliseconds, so read them on one thread.
        threads_ = omp_get_max_threads();
        omp_set_num_threads(1);
        std::mt19937_64 rng(4);
        entries_ = random_entries(rng, 300);
        write_sector_file(original_path(), kVariant, kRuleHash, kKey, entries_, 64);
        bytes_ = read_bytes(original_path());
        blocks_ = 5;
        ASSERT_EQ(SectorFile::open_any(original_path())->info().blocks, blocks_);
        index_end_ = kHeaderBytes + blocks_ * 16 + 8;
        ASSERT_LT(index_end_, bytes_.size());
    }
    void TearDown() override { omp_set_num_threads(threads_); }
    fs::path original_path() const { return dir_.path() / "original.mdb"; }
    fs::path damaged_path() const { return dir_.path() / "damaged.mdb"; }

    TempDir dir_{"damaged"};
    std::vector<Entry> entries_;
    std::string bytes_;
    uint32_t blocks_ = 0;
    size_t index_end_ = 0;
    int threads_ = 1;
};

TEST_F(DamagedFile, EveryTruncationIsAnErrorNamingTheFile) {
    for (size_t length = 0; length < bytes_.size(); ++length) {
        SCOPED_TRACE("truncated to " + std::to_string(length) + " of " +
                     std::to_string(bytes_.size()));
        write_bytes(damaged_path(), bytes_.substr(0, length));
        expect_error(damaged_path(), "truncated");
        expect_error(damaged_path(), "truncated", false);
    }
}

TEST_F(DamagedFile, TrailingBytesAreAnError) {
    write_bytes(damaged_path(), bytes_ + std::string(1, '\0'));
    expect_error(damaged_path(), "trailing bytes");
}

// A flipped bit in the header or index is always caught (both have
// checksums); one in a block is caught by zstd's content checksum, or else
// it hit a bit that does not change the data (a zstd frame header field such
// as the window size), and the data read must then be the original.
TEST_F(DamagedFile, EveryBitFlipIsCaughtOrHarmless) {
    size_t caught = 0, harmless = 0;
    for (size_t byte = 0; byte < bytes_.size(); ++byte) {
        for (int bit = 0; bit < 8; ++bit) {
            SCOPED_TRACE("bit " + std::to_string(bit) + " of byte " + std::to_string(byte));
            std::string damaged = bytes_;
            damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
            write_bytes(damaged_path(), damaged);
            std::vector<Entry> out;
            auto error = try_read(damaged_path(), out);
            if (error) {
                ++caught;
                EXPECT_NE(error->find(damaged_path().string()), std::string::npos) << *error;
                continue;
            }
            ++harmless;
            EXPECT_GE(byte, index_end_) << "a flip in the header or index went unnoticed";
            ASSERT_EQ(out, entries_) << "a flipped bit changed the data silently";
        }
    }
    std::cout << "bit flips in a " << bytes_.size() << "-byte file: " << caught << " caught, "
              << harmless << " harmless\n";
    EXPECT_GT(caught, 0u);
}

// Files whose checksums are right but whose fields are not: only a crafted
// file (or a fuzzer) gets past the checksums, and still no crash, no huge
// allocation, one DatabaseError.
TEST_F(DamagedFile, ForgedChecksumsStillGiveErrors) {
    auto forge = [&](auto change) {
        std::string damaged = bytes_;
        change(damaged);
        fix_header_checksum(damaged);
        write_bytes(damaged_path(), damaged);
    };
    forge([](std::string& b) { put<uint32_t>(b, 8, 2); });
    expect_error(damaged_path(), "format version 2");
    forge([](std::string& b) { put<uint32_t>(b, 12, 7); });
    expect_error(damaged_path(), "unknown encoding");
    forge([](std::string& b) { put<uint32_t>(b, 52, 0); });  // no block size
    expect_error(damaged_path(), "inconsistent");
    forge([](std::string& b) { put<uint32_t>(b, 64, 6); });  // blocks do not match entries
    expect_error(damaged_path(), "inconsistent");
    forge([](std::string& b) { put<uint64_t>(b, 56, uint64_t{1} << 40); });  // absurd entry count
    expect_error(damaged_path(), "inconsistent");
    // More blocks than the file can index.
    forge([](std::string& b) {
        put<uint64_t>(b, 56, uint64_t{64} << 29);
        put<uint32_t>(b, 64, uint32_t{1} << 29);
    });
    expect_error(damaged_path(), "truncated");
    // An entry count the blocks cannot hold: 2^36 entries in 17 tiny blocks
    // would have read_all allocate 128 GiB.
    {
        const uint32_t blocks = 17;
        std::string forged = bytes_.substr(0, kHeaderBytes);
        put<uint64_t>(forged, 56, uint64_t{1} << 36);
        put<uint32_t>(forged, 52, 0xffffffffu);
        put<uint32_t>(forged, 64, blocks);
        fix_header_checksum(forged);
        std::string index(blocks * 16 + 8, '\0');
        forged += index;
        for (uint32_t b = 0; b < blocks; ++b) {
            put<uint64_t>(forged, kHeaderBytes + b * 16, forged.size() + b * 4);
            put<uint64_t>(forged, kHeaderBytes + b * 16 + 8, 4);
        }
        fix_index_checksum(forged, blocks);
        forged += std::string(blocks * 4, '\x01');
        write_bytes(damaged_path(), forged);
        expect_error(damaged_path(), "corrupt");
    }
    // Block boundaries moved by a byte: the index is consistent, zstd is not.
    const uint64_t at0 = get<uint64_t>(bytes_, kHeaderBytes);
    const uint64_t size0 = get<uint64_t>(bytes_, kHeaderBytes + 8);
    const uint64_t size1 = get<uint64_t>(bytes_, kHeaderBytes + 24);
    for (int64_t shift : {-1, 1}) {
        std::string forged = bytes_;
        put<uint64_t>(forged, kHeaderBytes + 8, size0 + shift);
        put<uint64_t>(forged, kHeaderBytes + 16, at0 + size0 + shift);
        put<uint64_t>(forged, kHeaderBytes + 24, size1 - shift);
        fix_index_checksum(forged, blocks_);
        write_bytes(damaged_path(), forged);
        expect_error(damaged_path(), "corrupt");
    }
    // A block size that wraps the offsets around: block 0 claims 2^64 - 1
    // bytes, so "ends" a byte before it starts, where block 1 is said to
    // start; block 1's size makes up the difference, and the index checks out
    // modulo 2^64.
    {
        std::string forged = bytes_;
        put<uint64_t>(forged, kHeaderBytes + 8, ~uint64_t{0});
        put<uint64_t>(forged, kHeaderBytes + 16, at0 - 1);
        put<uint64_t>(forged, kHeaderBytes + 24, size0 + size1 + 1);
        fix_index_checksum(forged, blocks_);
        write_bytes(damaged_path(), forged);
        expect_error(damaged_path(), "truncated");
    }
}

// ---------------------------------------------------------------------------
// Foreign files.

TEST_F(DamagedFile, ForeignDatabaseFilesAreRefused) {
    const fs::path path = original_path();
    auto expect_open_error = [&](const std::string& variant, uint64_t hash, SectorKey key,
                                 const std::string& part) {
        try {
            SectorFile::open(path, variant, hash, key);
            ADD_FAILURE() << "opened as " << variant << " " << to_string(key);
        } catch (const DatabaseError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path.string()), std::string::npos) << what;
            EXPECT_NE(what.find(part), std::string::npos)
                << "'" << what << "' lacks '" << part << "'";
        }
    };
    expect_open_error("nine", kRuleHash, kKey, "holds variant 'test', not 'nine'");
    expect_open_error(kVariant, kRuleHash + 1, kKey, "another rule set");
    expect_open_error(kVariant, kRuleHash, SectorKey{3, 3, 1, 1},
                      "holds sector 3-2-1-1, not 3-3-1-1");
}

TEST(SectorFile, NonDatabaseFilesAreRefused) {
    TempDir dir("foreign");
    const fs::path missing = dir.path() / "missing.mdb";
    expect_error(missing, "cannot open");

    const fs::path empty = dir.path() / "empty.mdb";
    write_bytes(empty, "");
    expect_error(empty, "truncated");

    std::mt19937_64 rng(5);
    for (size_t n : {size_t{1}, size_t{127}, size_t{128}, size_t{1000}, size_t{100000}}) {
        std::string noise(n, '\0');
        for (auto& c : noise) c = static_cast<char>(rng());
        const fs::path path = dir.path() / ("noise-" + std::to_string(n) + ".mdb");
        write_bytes(path, noise);
        expect_error(path, n < 128 ? "truncated" : "bad magic");
    }
    // Magic right, the rest noise: the header checksum.
    std::string almost(4096, '\0');
    for (auto& c : almost) c = static_cast<char>(rng());
    std::memcpy(almost.data(), "MORRISDB", 8);
    write_bytes(dir.path() / "almost.mdb", almost);
    expect_error(dir.path() / "almost.mdb", "header checksum");

    const fs::path text = dir.path() / "text.mdb";
    write_bytes(text, std::string(500, 'x'));
    expect_error(text, "bad magic");

    const fs::path directory = dir.path() / "directory.mdb";
    fs::create_directory(directory);
    expect_error(directory, "not a regular file");
    expect_error(directory, "not a regular file", false);
    const fs::path fifo = dir.path() / "fifo.mdb";  // must not hang
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expect_error(fifo, "not a regular file");
}

// ---------------------------------------------------------------------------
// The lookup library on a solved database of Five Men's Morris.

class FiveDatabase : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir("five");
        variant_ = new Variant(find_variant("five"));
        SolveOptions options;
        options.directory = dir_->path();
        options.threads = 2;
        options.progress = false;
        solve(*variant_, options);
        positions_ = new std::vector<Position>(sample_positions(*variant_));
    }
    static void TearDownTestSuite() {
        delete positions_;
        delete variant_;
        delete dir_;
    }

    // Positions of every phase: those of random games from the start (up to
    // their end), and random moving-phase positions.
    static std::vector<Position> sample_positions(const Variant& v) {
        std::mt19937_64 rng(6);
        std::vector<Position> out;
        std::vector<Turn> turns;
        for (int game = 0; game < 150; ++game) {
            Position p = start_position(v);
            for (int ply = 0; ply < 80; ++ply) {
                out.push_back(p);
                if (status(v, p) != Status::playing) break;
                generate_turns(v, p, turns);
                p = apply_turn(v, p, turns[rng() % turns.size()]);
            }
        }
        std::vector<int> points(v.board->points);
        while (out.size() < 4000) {
            for (int i = 0; i < v.board->points; ++i) points[i] = i;
            std::shuffle(points.begin(), points.end(), rng);
            Position p;
            const int whites = 2 + static_cast<int>(rng() % 4),
                      blacks = 2 + static_cast<int>(rng() % 4);
            for (int i = 0; i < whites; ++i) p.stones[white] |= 1u << points[i];
            for (int i = 0; i < blacks; ++i) p.stones[black] |= 1u << points[whites + i];
            p.side = rng() % 2 ? white : black;
            if (invalid_reason(v, p).empty()) out.push_back(p);
        }
        return out;
    }

    static Position twin(const Position& p) {
        Position q;
        q.stones[white] = p.stones[black];
        q.stones[black] = p.stones[white];
        q.in_hand[white] = p.in_hand[black];
        q.in_hand[black] = p.in_hand[white];
        q.side = p.other();
        return q;
    }

    // A copy of the database to damage.
    static std::unique_ptr<TempDir> copy_of_database(const std::string& name) {
        auto copy = std::make_unique<TempDir>(name);
        fs::copy(dir_->path(), copy->path(), fs::copy_options::recursive);
        return copy;
    }

    static fs::path file_of(const fs::path& dir, const Position& p) {
        return dir / sector_file_name(variant_->name, sector_of(p));
    }

    // A moving-phase position with 4 stones each (sector 4-4-0-0).
    static Position moving_position() {
        for (const Position& p : *positions_)
            if (p.in_hand[white] == 0 && p.in_hand[black] == 0 && p.on_board(white) == 4 &&
                p.on_board(black) == 4)
                return p;
        ADD_FAILURE() << "no 4-4 position in the sample";
        return {};
    }

    static TempDir* dir_;
    static Variant* variant_;
    static std::vector<Position>* positions_;
};

TempDir* FiveDatabase::dir_ = nullptr;
Variant* FiveDatabase::variant_ = nullptr;
std::vector<Position>* FiveDatabase::positions_ = nullptr;

TEST_F(FiveDatabase, EveryFileIsSoundAndItsStatisticsMatchItsData) {
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir_->path())) {
        const std::string name = entry.path().filename();
        ASSERT_EQ(entry.path().extension(), ".mdb") << name << " left in the database directory";
        const auto key = parse_sector(name.substr(5, name.size() - 9));
        ASSERT_TRUE(key) << name;
        auto file = SectorFile::open(entry.path(), variant_->name, rule_hash(*variant_), *key);
        const auto all = file->read_all();
        const Stats s = stats_of(all);
        EXPECT_EQ(file->info().wins, s.wins) << name;
        EXPECT_EQ(file->info().draws, s.draws) << name;
        EXPECT_EQ(file->info().losses, s.losses) << name;
        EXPECT_EQ(file->info().longest_win, s.longest_win) << name;
        EXPECT_EQ(file->info().longest_loss, s.longest_loss) << name;
        ++files;
    }
    EXPECT_GT(files, 10u);
}

TEST_F(FiveDatabase, ColourSwappedTwinsAgree) {
    Database db(dir_->path(), *variant_);
    std::map<Value, size_t> seen;
    for (const Position& p : *positions_) {
        const Position q = twin(p);
        // While stones are in hand the turn order fixes the hands, so a
        // placement position's twin is not a position of the game.
        if (p.in_hand[white] || p.in_hand[black]) continue;
        ASSERT_TRUE(invalid_reason(*variant_, q).empty()) << to_string(*variant_, q);
        const ProbeResult a = db.probe(p), b = db.probe(q);
        ASSERT_TRUE(a.ok()) << to_string(*variant_, p) << ": " << a.error;
        ASSERT_TRUE(b.ok()) << to_string(*variant_, q) << ": " << b.error;
        ASSERT_EQ(a.outcome, b.outcome)
            << to_string(*variant_, p) << " vs " << to_string(*variant_, q);
        ++seen[a.outcome.value];
    }
    // The sample has every kind of value.
    EXPECT_GT(seen[Value::win] + seen[Value::draw] + seen[Value::loss], 2000u);
    EXPECT_GT(seen[Value::win], 0u);
    EXPECT_GT(seen[Value::draw], 0u);
    EXPECT_GT(seen[Value::loss], 0u);
}

TEST_F(FiveDatabase, AllBoardSymmetriesAgree) {
    Database db(dir_->path(), *variant_);
    const Board& board = *variant_->board;
    EXPECT_EQ(board.symmetries.size(), 16u);
    for (size_t i = 0; i < positions_->size(); i += 7) {
        const Position& p = (*positions_)[i];
        const ProbeResult expected = db.probe(p);
        ASSERT_TRUE(expected.ok()) << expected.error;
        for (const Permutation& symmetry : board.symmetries) {
            Position q = p;
            q.stones[white] = board.transform(p.stones[white], symmetry);
            q.stones[black] = board.transform(p.stones[black], symmetry);
            const ProbeResult r = db.probe(q);
            ASSERT_TRUE(r.ok()) << r.error;
            ASSERT_EQ(r.outcome, expected.outcome)
                << to_string(*variant_, p) << " vs its image " << to_string(*variant_, q);
        }
    }
}

TEST_F(FiveDatabase, FewerThanThreeStonesIsLossZero) {
    Database db(dir_->path(), *variant_);
    for (const char* text : {"WW.....BBB...... w 0 0", "BBB..WW......... w 0 0",
                             "WWW...BB........ b 0 0", "W......BBBB..... w 0 0"}) {
        const Position p = parse_position(*variant_, text);
        const ProbeResult r = db.probe(p);
        ASSERT_TRUE(r.ok()) << text << ": " << r.error;
        EXPECT_EQ(r.outcome, (Outcome{Value::loss, 0})) << text;
        // No sector file is needed for them: not even in an empty directory.
        TempDir empty("empty");
        EXPECT_EQ(Database(empty.path(), *variant_).probe(p).outcome, (Outcome{Value::loss, 0}));
    }
}

TEST_F(FiveDatabase, InvalidPositionIsAnError) {
    Database db(dir_->path(), *variant_);
    Position p;
    p.stones[white] = 0b111;
    p.stones[black] = 0b111000;
    p.in_hand[white] = 4;  // 7 white stones
    const ProbeResult r = db.probe(p);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.error.find("invalid position"), std::string::npos) << r.error;
    p.in_hand[white] = 0;
    p.stones[black] = 0b110;  // two stones on one point
    EXPECT_FALSE(db.probe(p).ok());
}

TEST_F(FiveDatabase, MissingSectorFileIsAnErrorNamingIt) {
    const auto copy_dir = copy_of_database("missing");
    const TempDir& copy = *copy_dir;
    const Position p = moving_position();
    const fs::path path = file_of(copy.path(), p);
    ASSERT_TRUE(fs::remove(path)) << path;
    Database db(copy.path(), *variant_);
    const ProbeResult r = db.probe(p);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find(path.string()), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("missing"), std::string::npos) << r.error;
    // rank_turns passes the error on.
    EXPECT_FALSE(rank_turns(db, p).ok());
    // Other sectors still answer.
    EXPECT_TRUE(db.probe(start_position(*variant_)).ok());
    // A directory that does not exist at all.
    Database nowhere(copy.path() / "nowhere", *variant_);
    const ProbeResult n = nowhere.probe(p);
    EXPECT_NE(n.error.find((copy.path() / "nowhere").string()), std::string::npos) << n.error;
}

TEST_F(FiveDatabase, CorruptSectorFilesAreErrorsNamingThem) {
    const Position p = moving_position();
    auto probe_error = [&](const std::string& name, const std::string& part, auto damage) {
        SCOPED_TRACE(name);
        const auto copy_dir = copy_of_database(name);
        const TempDir& copy = *copy_dir;
        const fs::path path = file_of(copy.path(), p);
        std::string bytes = read_bytes(path);
        damage(bytes, copy.path());
        write_bytes(path, bytes);
        Database db(copy.path(), *variant_, 4096);
        for (int again = 0; again < 2; ++again) {  // the same the second time
            const ProbeResult r = db.probe(p);
            ASSERT_FALSE(r.ok()) << "probe of a damaged file gave " << to_string(r.outcome);
            EXPECT_NE(r.error.find(path.string()), std::string::npos) << r.error;
            EXPECT_NE(r.error.find(part), std::string::npos)
                << "'" << r.error << "' lacks '" << part << "'";
        }
        // The twin lives in the same file.
        EXPECT_FALSE(db.probe(twin(p)).ok());
    };
    probe_error("truncated", "truncated",
                [](std::string& b, const fs::path&) { b.resize(b.size() / 2); });
    probe_error("empty", "truncated", [](std::string& b, const fs::path&) { b.clear(); });
    probe_error("header", "header checksum", [](std::string& b, const fs::path&) { b[60] ^= 1; });
    probe_error("index", "index checksum",
                [](std::string& b, const fs::path&) { b[kHeaderBytes + 3] ^= 4; });
    // A byte in the middle of every block's data.
    probe_error("blocks", "corrupt", [](std::string& b, const fs::path&) {
        const uint32_t blocks = get<uint32_t>(b, 64);
        for (uint32_t i = 0; i < blocks; ++i) {
            const uint64_t at = get<uint64_t>(b, kHeaderBytes + i * 16);
            const uint64_t size = get<uint64_t>(b, kHeaderBytes + i * 16 + 8);
            b[at + size / 2] ^= 0x10;
        }
    });
    // Another sector's file under this sector's name.
    probe_error("foreign-sector", "holds sector", [&](std::string& b, const fs::path& dir) {
        Position q = p;
        q.stones[white] &= q.stones[white] - 1;  // 3-4
        b = read_bytes(file_of(dir, q));
    });
    // The right header for the sector, but not its number of entries.
    probe_error("entry-count", "entry count", [&](std::string& b, const fs::path&) {
        const auto key = sector_of(p);
        TempDir scratch("scratch");
        write_sector_file(scratch.path() / "x.mdb", variant_->name, rule_hash(*variant_), key,
                          std::vector<Entry>(10, 1));
        b = read_bytes(scratch.path() / "x.mdb");
    });
}

TEST_F(FiveDatabase, RuleOverrideIsRefused) {
    Variant strict = *variant_;
    apply_rule(strict, "removal=strict");
    ASSERT_NE(rule_hash(strict), rule_hash(*variant_));
    Database db(dir_->path(), strict);
    const Position p = moving_position();
    const ProbeResult r = db.probe(p);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("rule set"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(file_of(dir_->path(), p).string()), std::string::npos) << r.error;
    // Overriding a rule to the value it has already is the same rule set.
    Variant same = *variant_;
    apply_rule(same, "flying=none");
    EXPECT_TRUE(Database(dir_->path(), same).probe(p).ok());
}

TEST_F(FiveDatabase, TwoThreadsWithATinyCacheAgreeWithOne) {
    std::vector<Outcome> expected;
    {
        Database db(dir_->path(), *variant_);
        for (const Position& p : *positions_) {
            const ProbeResult r = db.probe(p);
            ASSERT_TRUE(r.ok()) << r.error;
            expected.push_back(r.outcome);
        }
    }
    Database db(dir_->path(), *variant_, 4096);
    std::atomic<size_t> wrong{0}, errors{0};
    auto worker = [&](int seed) {
        std::mt19937_64 rng(seed);
        for (int round = 0; round < 3; ++round) {
            for (size_t k = 0; k < positions_->size(); ++k) {
                const size_t i = rng() % positions_->size();
                const ProbeResult r = db.probe((*positions_)[i]);
                if (!r.ok())
                    ++errors;
                else if (r.outcome != expected[i])
                    ++wrong;
            }
        }
    };
    std::thread a(worker, 1), b(worker, 2);
    a.join();
    b.join();
    EXPECT_EQ(errors.load(), 0u);
    EXPECT_EQ(wrong.load(), 0u);
}

TEST_F(FiveDatabase, BestRankedTurnHasThePositionsOutcome) {
    Database db(dir_->path(), *variant_);
    size_t ranked = 0;
    for (size_t i = 0; i < positions_->size(); i += 3) {
        const Position& p = (*positions_)[i];
        const ProbeResult r = db.probe(p);
        ASSERT_TRUE(r.ok()) << r.error;
        const RankedTurns turns = rank_turns(db, p);
        ASSERT_TRUE(turns.ok()) << turns.error;
        const std::string where = to_string(*variant_, p) + " (" + to_string(r.outcome) + ")";
        if (status(*variant_, p) != Status::playing) {
            EXPECT_TRUE(turns.turns.empty()) << where;
            EXPECT_EQ(r.outcome, (Outcome{Value::loss, 0})) << where;
            continue;
        }
        ASSERT_FALSE(turns.turns.empty()) << where;
        ++ranked;
        const Outcome& best = turns.turns.front().outcome;
        switch (r.outcome.value) {
            case Value::win: EXPECT_EQ(best, r.outcome) << where; break;
            case Value::draw:
                EXPECT_EQ(best.value, Value::draw) << where;
                for (const auto& t : turns.turns) EXPECT_NE(t.outcome.value, Value::win) << where;
                break;
            case Value::loss:
                for (const auto& t : turns.turns) EXPECT_EQ(t.outcome.value, Value::loss) << where;
                EXPECT_EQ(best.plies, r.outcome.plies) << where;
                break;
        }
        for (size_t k = 1; k < turns.turns.size(); ++k)
            EXPECT_FALSE(better(turns.turns[k].outcome, turns.turns[k - 1].outcome)) << where;
    }
    EXPECT_GT(ranked, 500u);
}

// The engine's choice: the best outcome, and in a draw the drawing turn
// leaving the opponent the most losing replies (counted here from probes of
// the positions two plies on, not from rank_turns).
TEST_F(FiveDatabase, PickedTurnIsBestAndInADrawLeavesTheMostLosingReplies) {
    Database db(dir_->path(), *variant_);
    std::vector<Turn> turns, replies;
    size_t draws = 0;
    for (size_t i = 0; i < positions_->size(); i += 7) {
        const Position& p = (*positions_)[i];
        const PickedTurn picked = pick_turn(db, p);
        ASSERT_TRUE(picked.ok()) << picked.error;
        const std::string where = to_string(*variant_, p);
        if (status(*variant_, p) != Status::playing) {
            EXPECT_FALSE(picked.turn) << where;
            continue;
        }
        ASSERT_TRUE(picked.turn) << where;
        const Outcome value = db.probe(p).outcome;
        EXPECT_EQ(picked.turn->outcome, rank_turns(db, p).turns.front().outcome) << where;
        if (value.value != Value::draw) continue;
        ++draws;
        // Losing replies after each drawing turn, from probes of the positions after them.
        auto losing_replies = [&](const Turn& t) {
            const Position after = apply_turn(*variant_, p, t);
            generate_turns(*variant_, after, replies);
            int losing = 0;
            for (const Turn& r : replies)
                losing += db.probe(apply_turn(*variant_, after, r)).outcome.value == Value::win;
            return losing;
        };
        generate_turns(*variant_, p, turns);
        int most = -1;
        for (const Turn& t : turns)
            if (db.probe(apply_turn(*variant_, p, t)).outcome.value == Value::draw)
                most = std::max(most, losing_replies(t));
        EXPECT_EQ(picked.turn->outcome.value, Value::draw) << where;
        EXPECT_EQ(losing_replies(picked.turn->turn), most) << where;
    }
    EXPECT_GT(draws, 50u);
}

}  // namespace
