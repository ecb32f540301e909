// The whole run's progress: what it counts as done and how it estimates the
// time left, by kind of unit.
#include "solver/progress.hpp"

#include <gtest/gtest.h>

namespace morris {
namespace {

using Clock = std::chrono::steady_clock;

TEST(RunProgress, GivesNoEstimateBeforeAUnitIsTimed) {
    RunProgress run("nine", Clock::time_point{});
    run.add_unit(RunProgress::kMoving, 2, 1000, /*written=*/true);
    run.add_unit(RunProgress::kPlacing, 1, 500, /*written=*/false);
    EXPECT_LT(run.seconds_left(), 0);
    EXPECT_EQ(run.status(Clock::time_point{} + std::chrono::seconds(3)),
              "nine: 2 of 3 sectors, 1.0k of 1.5k positions (66.7%) in 3.0s");
}

TEST(RunProgress, EstimatesEachKindAtItsOwnRate) {
    RunProgress run("twelve", Clock::time_point{});
    run.add_unit(RunProgress::kMoving, 2, 4'000'000, false);
    run.add_unit(RunProgress::kMoving, 2, 8'000'000, false);
    run.add_unit(RunProgress::kPlacing, 1, 10'000'000, false);
    run.add_unit(RunProgress::kPlacing, 1, 30'000'000, false);
    run.unit_solved(RunProgress::kMoving, 2, 4'000'000, 2.0);    // 2 M/s
    run.unit_solved(RunProgress::kPlacing, 1, 10'000'000, 1.0);  // 10 M/s
    // 8 M moving positions at 2 M/s and 30 M placing ones at 10 M/s.
    EXPECT_DOUBLE_EQ(run.seconds_left(), 4.0 + 3.0);
    EXPECT_EQ(run.status(Clock::time_point{} + std::chrono::seconds(90)),
              "twelve: 3 of 6 sectors, 14.00M of 52.00M positions (26.9%) in 1m30s; "
              "about 7.0s left (placing 10.00M/s, moving 2.00M/s)");
}

TEST(RunProgress, TakesAKindNotYetTimedAtTheRateOfAllTimedUnits) {
    RunProgress run("lasker", Clock::time_point{});
    run.add_unit(RunProgress::kPlacing, 1, 6'000, false);
    run.add_unit(RunProgress::kMoving, 1, 3'000, false);
    run.add_unit(RunProgress::kMoving, 1, 9'000, /*written=*/true);  // no rate: not timed here
    run.unit_solved(RunProgress::kPlacing, 1, 6'000, 2.0);           // 3,000 a second
    EXPECT_DOUBLE_EQ(run.seconds_left(), 1.0);
    EXPECT_EQ(run.status(Clock::time_point{} + std::chrono::seconds(2)),
              "lasker: 2 of 3 sectors, 15.0k of 18.0k positions (83.3%) in 2.0s; "
              "about 1.0s left (placing 3.0k/s)");
}

TEST(RunProgress, SaysNothingIsLeftWhenAllIsDone) {
    RunProgress run("five", Clock::time_point{});
    run.add_unit(RunProgress::kPlacing, 1, 10, false);
    run.unit_solved(RunProgress::kPlacing, 1, 10, 1.0);
    EXPECT_DOUBLE_EQ(run.seconds_left(), 0.0);
    EXPECT_EQ(run.status(Clock::time_point{} + std::chrono::seconds(1)),
              "five: 1 of 1 sectors, 10 of 10 positions (100.0%) in 1.0s");
}

}  // namespace
}  // namespace morris
