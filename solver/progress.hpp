// A progress line on standard error with rate and ETA, safe to advance from
// many threads; only one of them prints, at most a few times a second.
#pragma once

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
    std::chrono::steady_clock::time_point start_, last_print_;
    std::mutex mutex_;
};

std::string human_count(double count);       // 1.23M
std::string human_duration(double seconds);  // 1m05s

}  // namespace morris
