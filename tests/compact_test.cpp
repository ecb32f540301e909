// morris compact (solver/compact.hpp) and the WDL probe (Database::probe_wdl):
// for every position of every sector compacted, the WDL-only copy gives the
// value the full database holds, though it stores some positions' values
// inexactly; and the copy is smaller, resumable and refuses distance probes.
#include "solver/compact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "db/database.hpp"
#include "db/sector_file.hpp"
#include "game/notation.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solve.hpp"
#include "temp_dir.hpp"

namespace morris {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;

void solve_into(const Variant& v, const fs::path& dir, const std::vector<SectorKey>& sectors = {}) {
    SolveOptions options;
    options.directory = dir;
    options.progress = false;
    options.targets = sectors;
    solve(v, options);
}

CompactReport compact_into(const Variant& v, const fs::path& from, const fs::path& to,
                           uint32_t block_entries = kWdlBlockEntries) {
    CompactOptions options;
    options.from = from;
    options.to = to;
    options.progress = false;
    options.block_entries = block_entries;
    return compact(v, options);
}

uint64_t directory_bytes(const fs::path& dir) {
    uint64_t bytes = 0;
    for (const auto& entry : fs::directory_iterator(dir)) bytes += entry.file_size();
    return bytes;
}

// Every position of every sector in `wdl`: its WDL probe there equals the
// value of the full database in `full`. Returns how many were compared.
uint64_t expect_same_values(const Variant& v, const fs::path& full, const fs::path& wdl) {
    const Database full_db(full, v), wdl_db(wdl, v);
    uint64_t compared = 0, wrong = 0;
    for (const SectorKey& key : sector_graph(v).sectors) {
        if (!fs::exists(wdl / sector_file_name(v.name, key))) continue;
        const SectorIndex& index =
            sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
        const Colour side = side_to_move(v, key);
        index.for_each([&](uint64_t, Stones stones) {
            const Position p = position_of(key, stones, side);
            const ProbeResult expected = full_db.probe(p);
            const WdlResult got = wdl_db.probe_wdl(p);
            ASSERT_TRUE(expected.ok()) << expected.error;
            ASSERT_TRUE(got.ok()) << got.error;
            if (got.value != expected.outcome.value && ++wrong <= 5)
                ADD_FAILURE() << to_string(v, p) << ": WDL " << to_string(got.value)
                              << ", full database " << to_string(expected.outcome);
            EXPECT_EQ(full_db.probe_wdl(p).value, expected.outcome.value);
            ++compared;
        });
    }
    EXPECT_EQ(wrong, 0u);
    return compared;
}

// Sector by sector, what the WDL files store against the full files' values:
// never more; exactly in sectors of an even stone count, which the reader's
// one-ply search relies on. Returns how many positions store less.
uint64_t expect_less_only_where_allowed(const Variant& v, const fs::path& full,
                                        const fs::path& wdl) {
    uint64_t less = 0;
    for (const SectorKey& key : sector_graph(v).sectors) {
        const std::string name = sector_file_name(v.name, key);
        if (!fs::exists(wdl / name)) continue;
        const std::vector<Entry> exact =
            SectorFile::open(full / name, v.name, rule_hash(v), key)->read_all();
        const std::vector<Entry> stored =
            SectorFile::open(wdl / name, v.name, rule_hash(v), key)->read_all();
        EXPECT_EQ(exact.size(), stored.size()) << name;
        uint64_t sector_less = 0, more = 0;
        for (size_t i = 0; i < std::min(exact.size(), stored.size()); ++i) {
            const Value value = decode(exact[i], entry_code(v)).value;
            const Value held = decode(stored[i], EntryCode::wdl).value;
            sector_less += held < value;
            more += held > value;
        }
        EXPECT_EQ(more, 0u) << name;
        if (!wdl_may_store_less(key)) {
            EXPECT_EQ(sector_less, 0u) << name;
        }
        less += sector_less;
    }
    return less;
}

TEST(Compact, FiveGivesEveryValueFromFewerBytes) {
    const Variant v = find_variant("five");
    TempDir full("compact-five"), wdl("compact-five-wdl");
    solve_into(v, full.path());
    const CompactReport report = compact_into(v, full.path(), wdl.path());
    EXPECT_EQ(report.sectors_written, sector_graph(v).sectors.size());
    EXPECT_EQ(report.positions, 1006923u);
    EXPECT_LT(report.stored_exactly, report.positions * 9 / 10);  // the search does some work
    EXPECT_LT(directory_bytes(wdl.path()) * 3, directory_bytes(full.path()));
    EXPECT_EQ(expect_same_values(v, full.path(), wdl.path()), 1006923u);
    EXPECT_GT(expect_less_only_where_allowed(v, full.path(), wdl.path()), 10000u);

    // Blocks of the fewest entries the CLI allows: more blocks, the same values.
    TempDir small("compact-five-small-blocks");
    compact_into(v, full.path(), small.path(), 1024);
    EXPECT_EQ(expect_same_values(v, full.path(), small.path()), 1006923u);
    EXPECT_GT(directory_bytes(small.path()), directory_bytes(wdl.path()));
}

TEST(Compact, OtherRulesAndFlyingGiveEveryValue) {
    Variant strict = find_variant("five");
    apply_rule(strict, "removal=strict");
    apply_rule(strict, "double_mill=two");
    TempDir full("compact-strict"), wdl("compact-strict-wdl");
    solve_into(strict, full.path());
    compact_into(strict, full.path(), wdl.path());
    EXPECT_EQ(expect_same_values(strict, full.path(), wdl.path()), 1006923u);

    // Nine's flying endgames: 4-4 and what it needs (3-3, 4-3, 3-4): a
    // partial database, compacted as far as it goes.
    const Variant nine = find_variant("nine");
    TempDir nine_full("compact-nine"), nine_wdl("compact-nine-wdl");
    solve_into(nine, nine_full.path(), {*parse_sector("4-4-0-0")});
    const CompactReport report = compact_into(nine, nine_full.path(), nine_wdl.path());
    EXPECT_EQ(report.sectors_written, 4u);
    EXPECT_GT(report.sectors_missing, 500u);
    EXPECT_GT(expect_same_values(nine, nine_full.path(), nine_wdl.path()), 3000000u);
    EXPECT_GT(expect_less_only_where_allowed(nine, nine_full.path(), nine_wdl.path()), 0u);
}

TEST(Compact, ResumesAndRefusesDistanceProbesAndTheNMoveRule) {
    const Variant v = find_variant("five");
    TempDir full("compact-resume"), wdl("compact-resume-wdl");
    solve_into(v, full.path());
    compact_into(v, full.path(), wdl.path());
    const fs::path removed = wdl.path() / sector_file_name(v.name, *parse_sector("4-4-0-0"));
    fs::remove(removed);
    const CompactReport again = compact_into(v, full.path(), wdl.path());
    EXPECT_EQ(again.sectors_written, 1u);
    EXPECT_EQ(again.sectors_skipped, sector_graph(v).sectors.size() - 1);
    EXPECT_TRUE(fs::exists(removed));

    const Database db(wdl.path(), v);
    const Position start = start_position(v);
    const ProbeResult distance = db.probe(start);
    EXPECT_NE(distance.error.find("distances need the full database"), std::string::npos)
        << distance.error;
    EXPECT_TRUE(db.probe_wdl(start).ok());

    // A damaged WDL file is an error naming it.
    const fs::path start_file = wdl.path() / sector_file_name(v.name, sector_of(start));
    fs::resize_file(start_file, 200);
    const WdlResult damaged = Database(wdl.path(), v).probe_wdl(start);
    EXPECT_NE(damaged.error.find(start_file.filename().string()), std::string::npos)
        << damaged.error;

    Variant rule = v;
    apply_rule(rule, "n_move=20");
    EXPECT_THROW(compact_into(rule, full.path(), wdl.path()), std::invalid_argument);
    // Not onto itself, and not from WDL files: they understate some values.
    EXPECT_THROW(compact_into(v, full.path(), full.path()), std::invalid_argument);
    TempDir again_wdl("compact-from-wdl");
    try {
        compact_into(v, wdl.path(), again_wdl.path());
        ADD_FAILURE() << "compacted WDL files";
    } catch (const DatabaseError& e) {
        EXPECT_NE(std::string(e.what()).find("needs the full database"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace morris
