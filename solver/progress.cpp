#include "solver/progress.hpp"

#include <fmt/core.h>

namespace morris {

namespace {
constexpr auto kPrintInterval = std::chrono::milliseconds(500);
}

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)),
      total_(total),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_.time_since_epoch().count()) {}

Progress::~Progress() {
    if (enabled_) {
        print(true);
        fmt::print(stderr, "\n");
    }
}

void Progress::advance(uint64_t done) {
    done_.fetch_add(done, std::memory_order_relaxed);
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    const auto due = [&] {
        const std::chrono::steady_clock::duration last(last_print_.load(std::memory_order_relaxed));
        return now - last >= kPrintInterval;
    };
    if (!due()) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || !due()) return;
    last_print_.store(now.count(), std::memory_order_relaxed);
    print(false);
}

void Progress::print(bool final) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    uint64_t done = done_.load();
    double rate = seconds > 0 ? done / seconds : 0;
    std::string eta = final                       ? human_duration(seconds)
                      : rate > 0 && total_ > done ? "ETA " + human_duration((total_ - done) / rate)
                                                  : "";
    if (total_ == 0) {  // an open-ended count
        fmt::print(stderr, "\r{}: {} {}/s {}   ", label_, human_count(done), human_count(rate),
                   final ? human_duration(seconds) : "");
        return;
    }
    double percent = 100.0 * done / total_;
    fmt::print(stderr, "\r{}: {:5.1f}% {}/{} {}/s {}   ", label_, percent, human_count(done),
               human_count(total_), human_count(rate), eta);
}

RunProgress::RunProgress(std::string variant, std::chrono::steady_clock::time_point start)
    : variant_(std::move(variant)), start_(start) {}

void RunProgress::add_unit(Kind kind, uint64_t sectors, uint64_t positions, bool written) {
    Tally& t = kinds_[kind];
    t.sectors += sectors;
    t.positions += positions;
    if (written) {
        t.sectors_done += sectors;
        t.positions_done += positions;
    }
}

void RunProgress::unit_solved(Kind kind, uint64_t sectors, uint64_t positions, double seconds) {
    Tally& t = kinds_[kind];
    t.sectors_done += sectors;
    t.positions_done += positions;
    t.positions_timed += positions;
    t.seconds += seconds;
}

double RunProgress::seconds_left() const {
    // A kind not timed yet is taken at the rate of all timed units.
    Tally all;
    for (const Tally& t : kinds_) {
        all.positions_timed += t.positions_timed;
        all.seconds += t.seconds;
    }
    if (!all.timed()) return -1;
    double left = 0;
    for (const Tally& t : kinds_)
        left += (t.positions - t.positions_done) / (t.timed() ? t : all).rate();
    return left;
}

std::string RunProgress::status(std::chrono::steady_clock::time_point now) const {
    uint64_t sectors = 0, sectors_done = 0, positions = 0, positions_done = 0;
    for (const Tally& t : kinds_) {
        sectors += t.sectors;
        sectors_done += t.sectors_done;
        positions += t.positions;
        positions_done += t.positions_done;
    }
    std::string text =
        fmt::format("{}: {} of {} sectors, {} of {} positions ({:.1f}%) in {}", variant_,
                    sectors_done, sectors, human_count(positions_done), human_count(positions),
                    positions ? 100.0 * positions_done / positions : 100.0,
                    human_duration(std::chrono::duration<double>(now - start_).count()));
    if (const double left = seconds_left(); left >= 0 && positions_done < positions) {
        text += fmt::format("; about {} left (", human_duration(left));
        const char* names[kKinds] = {"placing", "moving"};
        for (int k = 0, shown = 0; k < kKinds; ++k)
            if (kinds_[k].timed())
                text += fmt::format("{}{} {}/s", shown++ ? ", " : "", names[k],
                                    human_count(kinds_[k].rate()));
        text += ")";
    }
    return text;
}

std::string human_count(double n) {
    if (n >= 1e9) return fmt::format("{:.2f}G", n / 1e9);
    if (n >= 1e6) return fmt::format("{:.2f}M", n / 1e6);
    if (n >= 1e3) return fmt::format("{:.1f}k", n / 1e3);
    return fmt::format("{:.0f}", n);
}

std::string human_duration(double seconds) {
    if (seconds < 60) return fmt::format("{:.1f}s", seconds);
    auto s = static_cast<long>(seconds);
    if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
    return fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
}

}  // namespace morris
