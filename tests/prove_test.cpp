// Checks solver/prove: the alpha-beta proof of the start's value over the
// moving-phase sectors agrees with the solved start and with every placement
// position it visits; wrong or missing placement values (only hints for the
// order of the search) change the work but never the proved value; a missing
// moving-phase sector is an error; a node limit stops it without a value,
// and a memory limit too small for it refuses it before it starts, while
// one with little room for the placement values proves it with fewer hints.
#include "solver/prove.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/sector_file.hpp"
#include "db/sector_writer.hpp"
#include "game/position.hpp"
#include "game/variant.hpp"
#include "solver/solve.hpp"
#include "tests/temp_dir.hpp"

using namespace morris;
using morris::test_support::TempDir;
namespace fs = std::filesystem;

namespace {

void solve_into(const Variant& v, const fs::path& dir) {
    SolveOptions options;
    options.directory = dir;
    options.progress = false;
    solve(v, options);
}

bool is_placement(const SectorKey& k) { return k.mover_in_hand + k.opponent_in_hand > 0; }

// The placement sectors' files in `dir`, by their keys.
std::vector<fs::path> placement_files(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& f : fs::directory_iterator(dir))
        if (f.path().extension() == ".mdb" &&
            is_placement(SectorFile::open_any(f.path())->info().key))
            files.push_back(f.path());
    return files;
}

// Rewrites a sector file with every value turned round: wins become losses
// and the other way round, draws become wins in 1.
void invert_values(const fs::path& path) {
    SectorFileInfo info;
    std::vector<Entry> entries;
    {
        auto file = SectorFile::open_any(path);
        info = file->info();
        entries = file->read_all();
    }
    for (Entry& e : entries) {
        const Outcome o = decode(e);
        e = o.value == Value::draw  ? encode({Value::win, 1})
            : o.value == Value::win ? encode({Value::loss, o.plies == 0 ? 0 : o.plies - 1})
                                    : encode({Value::win, o.plies + 1});
    }
    write_sector_file(path, info.variant, info.rule_hash, info.key, entries);
}

Value solved_start(const Variant& v, const fs::path& dir) {
    return Database(dir, v).probe(start_position(v)).outcome.value;
}

class ProveTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ProveTest, ProvesTheSolvedStartValueAndAgreesWithEveryVisitedPosition) {
    const Variant v = find_variant(GetParam());
    TempDir dir("prove-" + v.name);
    solve_into(v, dir.path());
    const ProofReport r = prove(Database(dir.path(), v), false);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.value, solved_start(v, dir.path()));
    EXPECT_GT(r.nodes, 0u);
    EXPECT_GT(r.leaf_probes, 0u);
    EXPECT_EQ(r.checked, r.nodes) << "every placement sector is in the database";
    EXPECT_EQ(r.disagreements, 0u);
    EXPECT_EQ(r.hints_refused, 0u) << "the default memory limit holds every value";
    EXPECT_GT(r.leaf_bytes, 0u);
    EXPECT_GT(r.hint_bytes, 0u);
}

INSTANTIATE_TEST_SUITE_P(SmallGames, ProveTest, ::testing::Values("five", "six"));

TEST(Prove, WrongPlacementValuesAreReportedAndDoNotChangeTheProvedValue) {
    const Variant v = find_variant("six");
    TempDir dir("prove-wrong");
    solve_into(v, dir.path());
    const Value truth = solved_start(v, dir.path());
    for (const fs::path& f : placement_files(dir.path())) invert_values(f);

    const ProofReport r = prove(Database(dir.path(), v), false);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.value, truth);
    EXPECT_GT(r.disagreements, 0u);
    EXPECT_FALSE(r.examples.empty());
}

TEST(Prove, WithoutPlacementSectorsTheValueIsStillProved) {
    const Variant v = find_variant("five");
    TempDir dir("prove-bare");
    solve_into(v, dir.path());
    const Value truth = solved_start(v, dir.path());
    for (const fs::path& f : placement_files(dir.path())) fs::remove(f);

    const ProofReport r = prove(Database(dir.path(), v), false);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.value, truth);
    EXPECT_EQ(r.checked, 0u);
}

TEST(Prove, AMissingMovingPhaseSectorIsAnErrorNamingIt) {
    const Variant v = find_variant("five");
    TempDir dir("prove-missing");
    solve_into(v, dir.path());
    const fs::path gone = dir.path() / sector_file_name(v.name, {5, 5, 0, 0});
    ASSERT_TRUE(fs::remove(gone));
    try {
        prove(Database(dir.path(), v), false);
        FAIL() << "prove succeeded without " << gone;
    } catch (const DatabaseError& e) {
        EXPECT_NE(std::string(e.what()).find(gone.filename().string()), std::string::npos)
            << e.what();
    }
}

TEST(Prove, AMemoryLimitBelowTheValuesIsRefusedBeforeTheSearch) {
    const Variant v = find_variant("five");
    TempDir dir("prove-memory");
    solve_into(v, dir.path());
    constexpr uint64_t kKibibyte = 1024;
    try {
        prove(Database(dir.path(), v), false, 0, kKibibyte);
        FAIL() << "prove ran within 1 KiB";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("memory limit"), std::string::npos) << e.what();
    }
    // Room for the values and a smallest table: the table shrinks, the proof holds.
    constexpr uint64_t kTight = uint64_t{4} << 20;
    const ProofReport r = prove(Database(dir.path(), v), false, 0, kTight);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.value, solved_start(v, dir.path()));
    EXPECT_EQ(r.disagreements, 0u);
}

// The least memory limit prove accepts, found by halving the gap between a
// refused and an accepted limit (each search stopped at its first node):
// room for the moving-phase values and the smallest table, none for hints.
uint64_t least_accepted_limit(const Database& db) {
    uint64_t refused = 0, accepted = uint64_t{64} << 20;
    prove(db, false, 1, accepted);  // throws if even this is refused
    while (accepted - refused > 1) {
        const uint64_t limit = refused + (accepted - refused) / 2;
        try {
            prove(db, false, 1, limit);
            accepted = limit;
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("memory limit"), std::string::npos) << e.what();
            refused = limit;
        }
    }
    return accepted;
}

// Placement values are hints: a memory limit with room for none, or for
// half of those a roomy proof reads, still proves the start's value, reads
// no more hints than the room left, and refuses the rest.
TEST(Prove, PlacementValuesAreReadOnlyAsFarAsTheMemoryLimitLeavesRoom) {
    const Variant v = find_variant("six");
    TempDir dir("prove-no-room");
    solve_into(v, dir.path());
    const Database db(dir.path(), v);
    const Value truth = solved_start(v, dir.path());
    const ProofReport roomy = prove(db, false);
    const uint64_t least = least_accepted_limit(db);

    for (const uint64_t room : {uint64_t{0}, roomy.hint_bytes / 2}) {
        SCOPED_TRACE(testing::Message() << room << " bytes of room for hints");
        const ProofReport r = prove(db, false, 0, least + room);
        EXPECT_TRUE(r.complete);
        EXPECT_EQ(r.value, truth);
        EXPECT_EQ(r.disagreements, 0u);
        EXPECT_LE(r.hint_bytes, room);
        EXPECT_GT(r.hints_refused, 0u);
        EXPECT_LT(r.checked, r.nodes) << "positions without a hint are not checked";
    }
}

TEST(Prove, ANodeLimitStopsTheSearchWithoutAValue) {
    const Variant v = find_variant("six");
    TempDir dir("prove-limit");
    solve_into(v, dir.path());
    const ProofReport r = prove(Database(dir.path(), v), false, 100);
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.nodes, 100u);
    // Nothing the stopped search left unfinished was checked as if proved.
    EXPECT_LE(r.checked, 100u);
    EXPECT_EQ(r.disagreements, 0u);
}

}  // namespace
