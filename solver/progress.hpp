// Progress on standard error: a unit's line with rate and ETA, safe to
// advance from many threads (only one of them prints, at most a few times a
// second), and a whole solve's sectors and positions done with the time left.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace morris {

class Progress {
  public:
    // A total of 0 counts without a percentage or ETA.
    Progress(std::string label, uint64_t total, bool enabled);
    ~Progress();  // ends the line

    void advance(uint64_t done);

  private:
    void print(bool final);

    std::string label_;
    uint64_t total_;
    bool enabled_;
    std::atomic<uint64_t> done_{0};
    std::chrono::steady_clock::time_point start_;
    // Read by every thread's advance, written by the one that prints:
    // atomic, as a time_point cannot be.
    std::atomic<std::chrono::steady_clock::rep> last_print_;
    std::mutex mutex_;
};

// How far a whole solve has got: sectors and positions written, and the
// time left at the rates its units have had so far. Rates are kept apart by
// kind, as a position of a unit that only places (one pass) costs a third of
// one with moves (a layer loop as well): twelve's run, 14 vs 4.7 M/s. Units
// written by an earlier run count as done but give no rate.
class RunProgress {
  public:
    enum Kind { kPlacing, kMoving, kKinds };  // place-or-move units count as moving

    RunProgress(std::string variant,
                std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
    void add_unit(Kind kind, uint64_t sectors, uint64_t positions, bool written);
    void unit_solved(Kind kind, uint64_t sectors, uint64_t positions, double seconds);
    // The time left in seconds, or a negative number before a unit is timed.
    double seconds_left() const;
    // "twelve: 182 of 1315 sectors, 2.41G of 112.00G positions (2.2%) in 18m05s;
    // about 2h41m left (placing 14.30M/s, moving 4.70M/s)"
    std::string status(std::chrono::steady_clock::time_point now) const;

  private:
    struct Tally {
        uint64_t sectors = 0, positions = 0;  // all of the kind
        uint64_t sectors_done = 0, positions_done = 0;
        uint64_t positions_timed = 0;  // of those solved by this run
        double seconds = 0;
        bool timed() const { return positions_timed > 0 && seconds > 0; }
        double rate() const { return positions_timed / seconds; }
    };
    std::string variant_;
    std::chrono::steady_clock::time_point start_;
    std::array<Tally, kKinds> kinds_;
};

std::string human_count(double count);       // 1.23M
std::string human_duration(double seconds);  // 1m05s

}  // namespace morris
