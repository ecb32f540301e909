#include "solver/compact.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "db/sector_writer.hpp"
#include "game/turns.hpp"
#include "solver/progress.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solved_sectors.hpp"
#include "solver/unit.hpp"  // kParallelWork

namespace morris {
namespace {

constexpr int kBlocksPerChunk = 4;  // index blocks handed to a thread at a time
// A sector's saving is estimated on every kSampleStride-th block of its
// file: a 32nd of the searches compacting it makes (loading it and its
// removal successors costs as much as there; nine samples in 5 minutes).
constexpr uint64_t kSampleStride = 32;

// The sectors that turns of `key` removing a stone lead into: those of its
// successors with fewer stones.
std::vector<SectorKey> removal_successors(const SectorGraph& graph, const SectorKey& key) {
    std::vector<SectorKey> removals;
    for (const SectorKey& s : graph.successors.at(key))
        if (s.stones() < key.stones()) removals.push_back(s);
    return removals;
}

// Whether a turn of `p` that removes a stone reaches `value`, so that a file
// storing less may hold any smaller value for it. A loss can hold nothing
// smaller: it is stored without looking.
bool removal_reaches(const Variant& v, const Position& p, Value value,
                     const SolvedSectors& solved) {
    bool found = false;
    if (value != Value::loss)
        for_each_loud_turn(v, p, [&](const Turn& t) {
            if (!found && t.removals() > 0)
                found = opposite(solved.lookup(apply_turn(v, p, t)).value) == value;
        });
    return found;
}

// removal_reaches() for every position of a sector, 1 or 0.
std::vector<uint8_t> reached_by_removals(const Variant& v, const SectorKey& key,
                                         const SolvedSectors& solved, Progress& bar) {
    const SectorIndex& index = sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
    const HugeArray<Entry>& values = solved.entries(key);
    const EntryCode code = entry_code(v);
    const Colour side = side_to_move(v, key);
    std::vector<uint8_t> reached(index.size());
    const int chunks =
        static_cast<int>((index.block_count() + kBlocksPerChunk - 1) / kBlocksPerChunk);
#pragma omp parallel for schedule(dynamic, 1) if (index.size() >= kParallelWork)
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const uint32_t first = static_cast<uint32_t>(chunk) * kBlocksPerChunk;
        const uint32_t last = std::min(first + kBlocksPerChunk, index.block_count());
        uint64_t visited = 0;
        index.for_each_in_blocks(first, last, [&](uint64_t i, Stones stones) {
            reached[i] = removal_reaches(v, position_of(key, stones, side),
                                         decode(values[i], code).value, solved);
            ++visited;
        });
        bar.advance(visited);
    }
    return reached;
}

// The entries to write for the file block of `out.size()` positions from
// `first`: a position a removal reaches holds the value before it when that
// is no better (longer runs compress better), else its own.
void fill_block(std::span<const uint8_t> reached, const HugeArray<Entry>& values, uint64_t first,
                EntryCode code, std::span<Entry> out) {
    Value previous = Value::draw;  // blocks are read alone
    for (size_t k = 0; k < out.size(); ++k) {
        const Value value = decode(values[first + k], code).value;
        const Value stored = reached[k] ? std::min(previous, value) : value;
        out[k] = encode({stored, 0}, EntryCode::wdl);
        previous = stored;
    }
}

std::vector<Entry> fill(const std::vector<uint8_t>& reached, const HugeArray<Entry>& values,
                        EntryCode code, uint32_t block_entries) {
    std::vector<Entry> entries(reached.size());
    for (uint64_t first = 0; first < entries.size(); first += block_entries) {
        const size_t n = std::min<uint64_t>(block_entries, entries.size() - first);
        fill_block(std::span(reached).subspan(first, n), values, first, code,
                   std::span(entries).subspan(first, n));
    }
    return entries;
}

// The bytes sector `key` saves by storing less, from every kSampleStride-th
// block of its file compressed both ways.
int64_t estimated_saving(const Variant& v, const SectorKey& key, const SolvedSectors& solved,
                         uint32_t block_entries, Progress& bar) {
    const SectorIndex& index = sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
    const HugeArray<Entry>& values = solved.entries(key);
    const EntryCode code = entry_code(v);
    const Colour side = side_to_move(v, key);
    const uint64_t blocks = (index.size() + block_entries - 1) / block_entries;
    const int64_t samples = static_cast<int64_t>((blocks + kSampleStride - 1) / kSampleStride);
    int64_t saved = 0;
    std::string error;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : saved)
    for (int64_t s = 0; s < samples; ++s) {
        const uint64_t first = static_cast<uint64_t>(s) * kSampleStride * block_entries;
        const size_t n = std::min<uint64_t>(block_entries, index.size() - first);
        try {  // nothing may leave an OpenMP region
            std::vector<uint8_t> reached(n), none(n);
            for (size_t k = 0; k < n; ++k)
                reached[k] = removal_reaches(v, position_of(key, index.stones_at(first + k), side),
                                             decode(values[first + k], code).value, solved);
            std::vector<Entry> exact(n), less(n);
            fill_block(none, values, first, code, exact);
            fill_block(reached, values, first, code, less);
            // Both as EntryCode::wdl: the same bytes, and one kept context.
            saved += static_cast<int64_t>(compressed_block_bytes(exact, EntryCode::wdl)) -
                     static_cast<int64_t>(compressed_block_bytes(less, EntryCode::wdl));
        } catch (const std::exception& e) {
#pragma omp critical
            error = e.what();
        }
        bar.advance(n);
    }
    if (!error.empty()) throw DatabaseError(error);
    return saved * static_cast<int64_t>(blocks) / samples;
}

// The sectors whose files store less. Those already in `to` keep what they
// are (whether or not still in `from`: a resumed run must not pair a new
// file with one written before); those of `from` get their estimated
// savings.
std::set<SectorKey> sectors_storing_less(const Variant& v, const SectorGraph& graph,
                                         const CompactOptions& options, PagePool& pool) {
    auto in = [&](const std::filesystem::path& dir, const SectorKey& key) {
        return std::filesystem::exists(dir / sector_file_name(v.name, key));
    };
    std::map<SectorKey, SectorChoice> choices;
    std::vector<SectorKey> to_sample;
    uint64_t sampled_positions = 0;
    for (const SectorKey& key : graph.sectors) {
        if (!in(options.from, key) && !in(options.to, key)) continue;
        SectorChoice& choice = choices[key];
        choice.removal_successors = removal_successors(graph, key);
        if (in(options.to, key)) {
            const auto written = SectorFile::open(options.to / sector_file_name(v.name, key),
                                                  v.name, rule_hash(v), key);
            choice.fixed = written->info().code == EntryCode::wdl_at_most;
        } else if (choice.removal_successors.empty() ||
                   !std::ranges::all_of(choice.removal_successors,
                                        [&](const SectorKey& s) { return in(options.from, s); })) {
            choice.fixed = false;  // nothing to store less for, or no values to store it by
        } else {
            to_sample.push_back(key);
            const uint64_t size = orbit_count(*v.board, key.mover_on_board, key.opponent_on_board);
            for (uint64_t first = 0; first < size; first += kSampleStride * options.block_entries)
                sampled_positions += std::min<uint64_t>(options.block_entries, size - first);
        }
    }
    Progress bar(v.name + " compact: sampling what storing less saves", sampled_positions,
                 options.progress);
    for (const SectorKey& key : to_sample) {
        SolvedSectors solved(v, options.from, pool);
        solved.load(key);
        for (const SectorKey& s : choices[key].removal_successors) solved.load(s);
        choices[key].saving = estimated_saving(v, key, solved, options.block_entries, bar);
    }
    return choose_storing_less(choices);
}

}  // namespace

std::set<SectorKey> choose_storing_less(const std::map<SectorKey, SectorChoice>& sectors) {
    std::map<SectorKey, std::vector<SectorKey>> neighbours;
    for (const auto& [key, choice] : sectors)
        for (const SectorKey& s : choice.removal_successors)
            if (sectors.count(s)) {
                neighbours[key].push_back(s);
                neighbours[s].push_back(key);
            }
    std::set<SectorKey> chosen;
    for (const auto& [key, choice] : sectors)
        if (choice.fixed.value_or(false)) chosen.insert(key);
    auto free_with_saving = [&](const SectorKey& key) {
        const SectorChoice& c = sectors.at(key);
        return !c.fixed && c.saving > 0;
    };
    std::vector<SectorKey> order;
    for (const auto& [key, choice] : sectors)
        if (free_with_saving(key)) order.push_back(key);
    std::ranges::stable_sort(order, std::greater{},
                             [&](const SectorKey& key) { return sectors.at(key).saving; });
    auto chosen_besides = [&](const SectorKey& key, const std::vector<SectorKey>& besides) {
        std::vector<SectorKey> found;
        for (const SectorKey& n : neighbours[key])
            if (chosen.count(n) && std::ranges::find(besides, n) == besides.end())
                found.push_back(n);
        return found;
    };
    auto saving_of = [&](const std::vector<SectorKey>& keys) {
        int64_t sum = 0;
        for (const SectorKey& key : keys) sum += sectors.at(key).saving;
        return sum;
    };
    auto swap_if_better = [&](const std::vector<SectorKey>& out, const std::vector<SectorKey>& in) {
        if (saving_of(in) <= saving_of(out) || !std::ranges::all_of(out, free_with_saving))
            return false;
        for (const SectorKey& key : out) chosen.erase(key);
        chosen.insert(in.begin(), in.end());
        return true;
    };
    // Greedily by saving; then, while either saves more, a sector displaces
    // its chosen neighbours, or a chosen one gives way to those of its
    // neighbours it alone blocked. Each step saves more, so it ends.
    for (const SectorKey& key : order)
        if (chosen_besides(key, {}).empty()) chosen.insert(key);
    for (bool improved = true; improved;) {
        improved = false;
        for (const SectorKey& key : order) {
            if (!chosen.count(key)) {
                improved |= swap_if_better(chosen_besides(key, {}), {key});
                continue;
            }
            std::vector<SectorKey> freed;
            for (const SectorKey& n : neighbours[key])
                if (free_with_saving(n) && !chosen.count(n) && chosen_besides(n, {key}).empty() &&
                    std::ranges::none_of(freed, [&](const SectorKey& f) {
                        return std::ranges::find(neighbours[n], f) != neighbours[n].end();
                    }))
                    freed.push_back(n);
            improved |= swap_if_better({key}, freed);
        }
    }
    return chosen;
}

CompactReport compact(const Variant& v, const CompactOptions& options) {
    if (v.rules.has_n_move())
        throw std::invalid_argument(
            "compact: under n_move a value depends on the counter; WDL files hold none");
    if (options.threads > 0) omp_set_num_threads(options.threads);
    std::error_code error;
    if (std::filesystem::equivalent(options.from, options.to, error))
        throw std::invalid_argument("compact: --out must be another directory than --db");
    std::filesystem::create_directories(options.to);
    const SectorGraph graph = sector_graph(v);
    CompactReport report;
    PagePool pool;
    const std::set<SectorKey> storing_less = sectors_storing_less(v, graph, options, pool);
    for (const SectorKey& key : graph.sectors) {
        const std::string name = sector_file_name(v.name, key);
        if (std::filesystem::exists(options.to / name)) {
            ++report.sectors_skipped;
            continue;
        }
        if (!std::filesystem::exists(options.from / name)) {
            ++report.sectors_missing;
            continue;
        }
        SolvedSectors solved(v, options.from, pool);
        solved.load(key);
        const bool stores_less = storing_less.count(key) != 0;
        if (stores_less)
            for (const SectorKey& s : removal_successors(graph, key)) solved.load(s);
        const auto full = SectorFile::open(options.from / name, v.name, rule_hash(v), key);
        Progress bar(v.name + " compact " + to_string(key), full->info().entries, options.progress);
        if (!stores_less) bar.advance(full->info().entries);
        const std::vector<uint8_t> reached = stores_less
                                                 ? reached_by_removals(v, key, solved, bar)
                                                 : std::vector<uint8_t>(full->info().entries, 0);
        const std::vector<Entry> entries =
            fill(reached, solved.entries(key), entry_code(v), options.block_entries);
        const ValueCounts counts{full->info().wins, full->info().draws, full->info().losses};
        const SectorFileInfo written = write_sector_file(
            options.to / name, v.name, rule_hash(v), key, entries, options.block_entries,
            stores_less ? EntryCode::wdl_at_most : EntryCode::wdl, &counts);
        ++report.sectors_written;
        report.sectors_storing_less += stores_less;
        report.positions += reached.size();
        report.stored_exactly +=
            static_cast<uint64_t>(std::count(reached.begin(), reached.end(), 0));
        report.bytes += written.file_bytes;
    }
    return report;
}

}  // namespace morris
