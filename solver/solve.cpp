// The solver's driver: the units of the sector graph in dependency order,
// each admitted against the memory limit, solved from its children (first
// pass, then the layer loop) and written to the database directory; units
// already written are skipped, so a killed solve resumes.
//
//   solve.cpp           this driver, unit_memory
//   unit.hpp            a unit's sectors, states and layers
//   solved_sectors.hpp  the children it reads
//   first_pass.hpp      the first pass (first_pass.cpp, settle_group.cpp)
//   layers.hpp          the layer loop and its cost model
//   push.hpp, pull.hpp  the two ways a layer reaches its predecessors
//   verify.hpp          every stored value re-derived from its successors
//   background_writes.hpp  a unit's files written while the next is solved
#include "solver/solve.hpp"

#include <fmt/core.h>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <span>
#include <stdexcept>

#include "db/sector_writer.hpp"
#include "solver/background_writes.hpp"
#include "solver/first_pass.hpp"
#include "solver/layers.hpp"
#include "solver/progress.hpp"
#include "solver/push.hpp"
#include "solver/region_writes.hpp"
#include "solver/solved_sectors.hpp"
#include "solver/unit.hpp"

namespace morris {
namespace {

// Turns a solved unit's states into stored entries in place and returns each
// sector's. On all threads: a pass over gigabytes of states on one would
// keep the others waiting, once per unit.
std::vector<std::span<const Entry>> entries_of(Unit& unit) {
    const int last_layer = unit.distances.last_layer;
    std::vector<std::span<const Entry>> spans;
    for (const UnitSector& s : unit.sectors) {
        State* const states = unit.states.data() + s.offset;
        const auto size = static_cast<int64_t>(s.index->size());
#pragma omp parallel for schedule(static) if (size >= static_cast <int64_t>(kParallelWork))
        for (int64_t i = 0; i < size; ++i)
            states[i] = std::bit_cast<State>(states[i].entry(last_layer));
        spans.emplace_back(reinterpret_cast<const Entry*>(states), s.index->size());
    }
    return spans;
}

bool written(const Variant& v, const std::filesystem::path& dir, const SectorKey& key) {
    return std::filesystem::exists(dir / sector_file_name(v.name, key));
}

uint64_t positions_of(const Variant& v, const SectorKey& k) {
    return orbit_count(*v.board, k.mover_on_board, k.opponent_on_board);
}

uint64_t positions_of(const Variant& v, const std::vector<SectorKey>& unit) {
    uint64_t positions = 0;
    for (const SectorKey& k : unit) positions += positions_of(v, k);
    return positions;
}

RunProgress::Kind kind_of(bool only_placements) {
    return only_placements ? RunProgress::kPlacing : RunProgress::kMoving;
}

uint64_t peak_memory_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    constexpr uint64_t kBytesPerKilobyte = 1024;
    return static_cast<uint64_t>(usage.ru_maxrss) * kBytesPerKilobyte;
}

}  // namespace

uint64_t default_memory_limit() {
    constexpr uint64_t kPercent = 80;
    const auto pages = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES));
    const auto page_size = static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
    return pages * page_size / 100 * kPercent;
}

uint64_t unit_heap_memory(const Variant& v, const std::vector<SectorKey>& unit,
                          const SolveOptions& options) {
    const uint64_t positions = positions_of(v, unit);
    // Its files' compressed blocks, held until written (incompressible
    // entries would take as much as the states).
    uint64_t bytes = sizeof(State) * positions;
    bytes += RegionWrites::memory_need(positions);  // if the first pass walks by group
    if (!only_places(v, unit)) {
        bytes += sizeof(UnitPosition) * positions;  // each enters one layer at most
        bytes += Push::memory_need(positions, options, v.rules.has_n_move());
    }
    return bytes;
}

uint64_t unit_memory(const Variant& v, const SectorGraph& graph, const std::vector<SectorKey>& unit,
                     const SolveOptions& options) {
    uint64_t bytes = sizeof(State) * positions_of(v, unit);
    for (const SectorKey& c : unit_children(graph, unit))
        bytes += sizeof(Entry) * positions_of(v, c);
    return bytes + unit_heap_memory(v, unit, options);
}

// Siblings are paired only where the pair fits the memory limit: they do
// not read each other, and may be solved one at a time.
std::vector<std::vector<SectorKey>> solve_order(const Variant& v, const SectorGraph& graph,
                                                const SolveOptions& options,
                                                uint64_t memory_limit) {
    std::vector<std::vector<SectorKey>> units;
    for (const auto& unit : options.sibling_walk ? sibling_units(v, graph) : graph.units) {
        if (are_siblings(v, unit) && unit_memory(v, graph, unit, options) > memory_limit)
            for (const SectorKey& k : unit) units.push_back({k});
        else
            units.push_back(unit);
    }
    return units;
}

std::vector<SectorReport> solve(const Variant& v, const SolveOptions& options) {
    if (options.threads > 0) omp_set_num_threads(options.threads);
    std::filesystem::create_directories(options.directory);
    const SectorGraph graph = sector_graph(v);
    // A unit counts as solved only when all of it is written: a half-written
    // unit is solved again.
    auto unit_written = [&](const std::vector<SectorKey>& unit) {
        return std::all_of(unit.begin(), unit.end(),
                           [&](const SectorKey& k) { return written(v, options.directory, k); });
    };
    std::vector<SectorKey> wanted =
        options.targets.empty() ? graph.sectors
                                : dependencies(graph, options.targets, [&](const SectorKey& k) {
                                      for (const auto& unit : graph.units)
                                          if (std::find(unit.begin(), unit.end(), k) != unit.end())
                                              return unit_written(unit);
                                      return false;
                                  });
    for (const SectorKey& t : options.targets)
        if (!graph.contains(t))
            throw std::runtime_error("sector " + to_string(t) + " is not a sector of " + v.name);
    const uint64_t limit = options.memory_limit ? options.memory_limit : default_memory_limit();

    // A killed writer leaves its temporary file behind; it is never read.
    for (const auto& file : std::filesystem::directory_iterator(options.directory)) {
        const std::string name = file.path().filename().string();
        if (name.starts_with(v.name + "_") && name.ends_with(".mdb.tmp"))
            std::filesystem::remove(file.path());
    }

    std::vector<SectorReport> reports;
    auto report = [&](const SectorReport& r) {
        reports.push_back(r);
        if (options.on_sector) options.on_sector(r);
    };
    PagePool pool;            // outlives the arrays it hands out
    BackgroundWrites writes;  // a unit's files, written while the next is solved
    PropagationCost cost(options.push_scale, options.pull_scale);  // learns unit by unit
    SolvedSectors solved(v, options.directory, pool, Distances::of(v.rules).children);
    auto unit_wanted = [&](const std::vector<SectorKey>& unit) {
        return std::any_of(unit.begin(), unit.end(), [&](const SectorKey& k) {
            return std::find(wanted.begin(), wanted.end(), k) != wanted.end();
        });
    };
    // The whole run's progress, a line at most once a minute and one at the
    // end: a unit's own line says nothing of the hours a large variant
    // takes. It counts all the targets need, written or not (`wanted` stops
    // at written units), so that its totals stay the same when a run resumes.
    const std::vector<SectorKey> needed =
        options.targets.empty()
            ? graph.sectors
            : dependencies(graph, options.targets, [](const SectorKey&) { return false; });
    const std::vector<std::vector<SectorKey>> units = solve_order(v, graph, options, limit);
    auto is_needed = [&](const SectorKey& k) {
        return std::find(needed.begin(), needed.end(), k) != needed.end();
    };
    // The most memory the run asks for, its largest unit's: below it, the
    // memory one unit freed may be kept for the next (the caller's heap
    // through before_unit, the page pool's pages).
    uint64_t run_need = 0;
    for (const auto& unit : units)
        if (unit_wanted(unit) && !unit_written(unit))
            run_need = std::max(run_need, unit_memory(v, graph, unit, options));
    run_need = std::min(run_need, limit);
    RunProgress run(v.name);
    for (const auto& unit : units) {
        if (only_places(v, unit)) {  // siblings, each written or not on its own
            for (const SectorKey& k : unit)
                if (is_needed(k))
                    run.add_unit(RunProgress::kPlacing, 1, positions_of(v, k),
                                 written(v, options.directory, k));
        } else if (std::any_of(unit.begin(), unit.end(), is_needed)) {
            run.add_unit(RunProgress::kMoving, unit.size(), positions_of(v, unit),
                         unit_written(unit));
        }
    }
    constexpr auto kRunStatusInterval = std::chrono::minutes(1);
    auto run_status_printed = std::chrono::steady_clock::now();
    bool run_status_shown = false;  // nothing solved since the last line
    for (std::vector<SectorKey> unit : units) {
        if (!unit_wanted(unit)) continue;
        if (unit_written(unit)) {
            for (const SectorKey& k : unit) report({.key = k, .skipped = true});
            continue;
        }
        // Siblings do not read each other: one already written, or not
        // wanted, is left out.
        if (only_places(v, unit))
            std::erase_if(unit, [&](const SectorKey& k) {
                if (written(v, options.directory, k)) {
                    report({.key = k, .skipped = true});
                    return true;
                }
                return std::find(wanted.begin(), wanted.end(), k) == wanted.end();
            });
        if (unit.empty()) continue;
        const uint64_t need = unit_memory(v, graph, unit, options);
        if (need > limit)
            throw std::runtime_error(fmt::format(
                "sectors {} need about {:.0f} MiB, more than the memory limit of {:.0f} MiB",
                to_string(unit), need / double(1 << 20), limit / double(1 << 20)));
        if (need + writes.bytes_held() > limit) writes.finish();
        const auto started = std::chrono::steady_clock::now();
        const std::vector<SectorKey> children = unit_children(graph, unit);
        solved.keep_only(children);
        // What this unit may find kept, freed by the last, without the run
        // needing more than its largest unit: the caller's heap takes its
        // share first, the page pool's leftovers the rest. The heap may
        // keep besides what the unit's own buffers will take from it
        // (within `need`): handed back, those pages would be faulted in
        // again right away, 1,000-2,000 huge pages in each of nine's
        // largest units (docs/performance.md, "Memory").
        const uint64_t held = need + writes.bytes_held();
        const uint64_t may_keep = run_need > held ? run_need - held : 0;
        const uint64_t own_heap = unit_heap_memory(v, unit, options);
        const uint64_t heap_kept =
            options.before_unit
                ? std::min(may_keep + own_heap, options.before_unit(may_keep + own_heap))
                : 0;
        const uint64_t heap_beyond_own = heap_kept > own_heap ? heap_kept - own_heap : 0;
        for (const SectorKey& c : children) {
            if (!solved.holds(c)) writes.finish_if_writing(c);
            solved.load(c);
        }

        Unit solving(v, unit, pool);
        LayerLoop layers(solving, options, cost);
        // The unit's arrays are all taken: the pages left over wait for the
        // next unit's, as far as the budget goes. Handed back, they would
        // cost their page faults again there: on host A6, whose guest
        // reports free memory to its host, 4-6 ms a huge page.
        pool.release(may_keep - heap_beyond_own);
        UnitStats& stats = solving.stats;
        stats.positions = solving.positions;
        const double first_pass_from = seconds_since(started);  // after loading the children
        FirstPass(solving, solved, options).run();
        stats.first_pass.seconds = seconds_since(started) - first_pass_from;
        if (!solving.only_placements) layers.run();
        const double written_from = seconds_since(started);
        {
            const auto entries = entries_of(solving);
            std::vector<PendingSectorFile> files;
            for (size_t s = 0; s < unit.size(); ++s) {
                files.push_back(PendingSectorFile::compress(
                    options.directory / sector_file_name(v.name, unit[s]), v.name, rule_hash(v),
                    unit[s], entries[s], kDefaultBlockEntries, entry_code(v)));
                const SectorFileInfo& written = files.back().info();
                SectorReport r{.key = unit[s],
                               .positions = entries[s].size(),
                               .wins = written.wins,
                               .draws = written.draws,
                               .losses = written.losses,
                               .bytes_on_disk = written.file_bytes};
                r.seconds = seconds_since(started);
                r.peak_memory = peak_memory_bytes();
                if (s + 1 == unit.size()) {
                    stats.write.seconds = r.seconds - written_from;
                    r.stats = stats;
                }
                report(r);
            }
            writes.start(std::move(files));
        }  // the spans of finish() end here: the entries may be kept below
        // The next unit often needs the sector just solved (the units come
        // in depth-first order): nine's run would otherwise read back 19 of
        // the 47 billion entries it loads. The next unit's keep_only drops
        // it when not. Siblings' states begin a huge page each, and are kept
        // apart; two sectors that reach each other share theirs: read back.
        if (unit.size() == 1) {
            solved.adopt(unit.front(), std::move(solving.states).reinterpret<Entry>());
        } else if (solving.siblings) {
            auto [first, second] =
                std::move(solving.states)
                    .reinterpret<Entry>()
                    .split(solving.sectors[1].offset, solving.sectors[0].index->size());
            solved.adopt(unit[0], std::move(first));
            solved.adopt(unit[1], std::move(second));
        }
        run.unit_solved(kind_of(solving.only_placements), unit.size(), stats.positions,
                        seconds_since(started));
        run_status_shown = false;
        if (const auto now = std::chrono::steady_clock::now();
            options.progress && now - run_status_printed >= kRunStatusInterval) {
            fmt::print(stderr, "{}\n", run.status(now));
            run_status_printed = now;
            run_status_shown = true;
        }
    }
    writes.finish();
    if (options.progress && !run_status_shown)
        fmt::print(stderr, "{}\n", run.status(std::chrono::steady_clock::now()));
    return reports;
}

}  // namespace morris
