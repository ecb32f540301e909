// morris_host: what this host's memory does with the solver's access
// patterns, in about ten seconds, so that every speed figure can name its
// host (scripts/host.sh runs it). The solve is bound by memory latency: its
// arrays are gigabytes read and written at random, in huge pages.
//
//   caches       the same chase over 512 KiB to 32 MiB: where a guest's
//                caches end, which it may not say (sysfs shows none on some),
//                and which push's regions and the first pass's blocks assume
//   latency      a dependent pointer chase over 64 MiB and 1 GiB (ns a load)
//   updates      random one-byte increments into 1 GiB, each address
//                prefetched 16 updates ahead, on one thread (M/s): the first
//                pass's pattern, and push's (which now runs 48 ahead; kept at
//                16 so that figures compare with earlier hosts')
//   sequential   reading 1 GiB in order (GB/s)
//   huge pages   whether the 1 GiB array, allocated as the solver allocates
//                its arrays (indexing/huge_array.hpp), got transparent huge pages
//   page faults  what memory touched for the first time costs, in 4 KiB pages
//                and in huge pages (s a GiB): a solve's buffers come and go by
//                the hundred MiB, and a guest with shadow page tables takes
//                microseconds a fault (hence `morris solve`'s huge-page heap)
#include <fmt/core.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "indexing/huge_array.hpp"

namespace {

using morris::HugeArray;
using Clock = std::chrono::steady_clock;

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kSmallPage = 4096;  // bytes: the page the heap gets unless told otherwise
constexpr double kSecondsPerTest = 1.5;
// The cache sweep's chases are short: their working sets are soon warm.
constexpr double kSecondsPerCacheTest = 0.25;
constexpr int kPrefetchDistance = 16;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The first line of `path` starting with `key`, after the key; "" if none.
std::string field(const char* path, const std::string& key) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key, 0) == 0) {
            const size_t start = line.find_first_not_of(" \t:", key.size());
            return start == std::string::npos ? "" : line.substr(start);
        }
    return "";
}

std::string first_line(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// Nanoseconds a load when each address depends on the one before: a single
// random cycle through `bytes` of 8-byte slots, one slot per 64-byte line.
double chase_latency(size_t bytes, std::mt19937_64& rng, double seconds = kSecondsPerTest) {
    constexpr size_t kSlotsPerLine = 8;
    const size_t lines = bytes / 64;
    HugeArray<uint64_t> next(lines * kSlotsPerLine);
    std::vector<uint32_t> order(lines);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i = 0; i < lines; ++i)
        next[order[i] * kSlotsPerLine] = order[(i + 1) % lines] * kSlotsPerLine;
    uint64_t at = order[0] * kSlotsPerLine, loads = 0;
    const auto start = Clock::now();
    do {
        for (int k = 0; k < 1 << 16; ++k) at = next[at];
        loads += 1 << 16;
    } while (seconds_since(start) < seconds);
    const double ns = seconds_since(start) * 1e9 / static_cast<double>(loads);
    if (at == ~uint64_t{0}) fmt::print("");  // keeps the chase
    return ns;
}

// Millions of random one-byte increments a second into `array`, addresses
// prefetched kPrefetchDistance updates ahead. The addresses come from a
// generator as they are needed: a table of them would be re-read from cache.
double update_rate(HugeArray<uint8_t>& array, std::mt19937_64& rng) {
    uint64_t state = rng() | 1;
    auto next_target = [&] {  // xorshift64*: a few cycles an address
        state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
        return (state * 0x2545f4914f6cdd1dull) % array.size();
    };
    uint64_t ahead[kPrefetchDistance];
    for (auto& t : ahead) t = next_target();
    constexpr int kBatch = 1 << 20;
    uint64_t updates = 0;
    const auto start = Clock::now();
    do {
        for (int i = 0; i < kBatch; ++i) {
            const uint64_t target = ahead[i % kPrefetchDistance];
            ahead[i % kPrefetchDistance] = next_target();
            __builtin_prefetch(&array[ahead[i % kPrefetchDistance]], 1);
            ++array[target];
        }
        updates += kBatch;
    } while (seconds_since(start) < kSecondsPerTest);
    return static_cast<double>(updates) / seconds_since(start) / 1e6;
}

double sequential_gbs(const HugeArray<uint8_t>& array) {
    const auto* words = reinterpret_cast<const uint64_t*>(array.data());
    const size_t n = array.size() / sizeof(uint64_t);
    uint64_t sum = 0, bytes = 0;
    const auto start = Clock::now();
    do {
        for (size_t i = 0; i < n; ++i) sum += words[i];
        bytes += array.size();
    } while (seconds_since(start) < kSecondsPerTest);
    if (sum == 1) fmt::print("");  // keeps the reads
    return static_cast<double>(bytes) / seconds_since(start) / 1e9;
}

// Seconds a GiB of fresh memory costs to touch once a page, in 4 KiB pages
// or transparent huge pages; 0 if it cannot be mapped.
double fault_seconds_per_gib(bool huge) {
    constexpr size_t kBytes = 256 * kMiB;
    void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 0;
    madvise(p, kBytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    const auto start = Clock::now();
    for (size_t at = 0; at < kBytes; at += kSmallPage) static_cast<volatile char*>(p)[at] = 1;
    const double seconds = seconds_since(start);
    munmap(p, kBytes);
    return seconds * (1024.0 * kMiB) / kBytes;
}

// Kibibytes of the process's anonymous memory in transparent huge pages.
long huge_kib() {
    const std::string value = field("/proc/self/smaps_rollup", "AnonHugePages");
    return value.empty() ? 0 : std::stol(value);
}

}  // namespace

int main() {
    std::mt19937_64 rng(20261202);
    const std::string cpu = field("/proc/cpuinfo", "model name");
    fmt::print("cpu          {}\n", cpu.empty() ? "unknown" : cpu);
    fmt::print("cores        {}\n", std::thread::hardware_concurrency());
    fmt::print("memory       {}\n", field("/proc/meminfo", "MemTotal"));
    fmt::print("caches      ");
    const char* separator = " ";
    for (const size_t kib : {512, 2048, 8192, 32768}) {
        const double ns = chase_latency(kib * 1024, rng, kSecondsPerCacheTest);
        fmt::print("{}{:.0f} ns over {} MiB", std::exchange(separator, ", "), ns, kib / 1024.0);
        std::fflush(stdout);
    }
    fmt::print("\n");
    fmt::print("latency      {:.0f} ns over 64 MiB, ", chase_latency(64 * kMiB, rng));
    std::fflush(stdout);
    fmt::print("{:.0f} ns over 1 GiB (a dependent load)\n", chase_latency(1024 * kMiB, rng));

    const long huge_before = huge_kib();
    HugeArray<uint8_t> array(1024 * kMiB, 1);
    const long huge = huge_kib() - huge_before;
    fmt::print("updates      {:.1f} M/s (random bytes in 1 GiB, prefetched {} ahead, 1 thread)\n",
               update_rate(array, rng), kPrefetchDistance);
    fmt::print("sequential   {:.1f} GB/s (reading 1 GiB, 1 thread)\n", sequential_gbs(array));
    fmt::print("huge pages   {} of the 1 GiB array (transparent huge pages: {})\n",
               huge >= 1024 * 1024 ? std::string("all") : fmt::format("{} MiB", huge / 1024),
               first_line("/sys/kernel/mm/transparent_hugepage/enabled"));
    const double small = fault_seconds_per_gib(false), huge_pages = fault_seconds_per_gib(true);
    constexpr double kSmallPagesPerGib = 1024.0 * kMiB / kSmallPage;
    fmt::print(
        "page faults  {:.2f} s a GiB in 4 KiB pages ({:.1f} us each), {:.2f} s in huge pages\n",
        small, small / kSmallPagesPerGib * 1e6, huge_pages);
}
