// Verify: every stored value of a sector re-derived from its successors'
// stored values by the generic turn generator (game/turns.hpp), which shares
// nothing with the solver's fast paths but the rules; under the N-move rule
// each successor is read at the counter its turn leaves (after_turn), which
// shares nothing with the solver's layers.
#include "solver/verify.hpp"

#include <algorithm>
#include <atomic>

#include "db/ranked_turns.hpp"
#include "game/turns.hpp"
#include "solver/progress.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solved_sectors.hpp"
#include "solver/unit.hpp"  // kParallelWork

namespace morris {
namespace {

// Blocks of the index handed to a thread at a time.
constexpr int kBlocksPerChunk = 4;

}  // namespace

VerifyReport verify(const Variant& v, const std::filesystem::path& directory,
                    const std::vector<SectorKey>& sectors, bool progress) {
    const SectorGraph graph = sector_graph(v);
    const std::vector<SectorKey> keys = sectors.empty() ? graph.sectors : sectors;
    auto present = [&](const SectorKey& k) {
        return std::filesystem::exists(directory / sector_file_name(v.name, k));
    };
    VerifyReport report;
    PagePool pool;
    for (const SectorKey& key : keys) {
        if (!graph.contains(key))
            throw std::runtime_error("sector " + to_string(key) + " is not a sector of " + v.name);
        if (!present(key)) {
            report.missing.push_back(key);
            continue;
        }
        const auto& successors = graph.successors.at(key);
        const auto absent = std::find_if_not(successors.begin(), successors.end(), present);
        if (absent != successors.end()) {
            report.without_successor.emplace_back(key, *absent);
            continue;
        }
        SolvedSectors solved(v, directory, pool);
        solved.load(key);
        for (const SectorKey& s : graph.successors.at(key)) solved.load(s);
        const HugeArray<Entry>& stored = solved.entries(key);
        const SectorIndex& index =
            sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
        const Colour side = side_to_move(v, key);
        const EntryCode code = entry_code(v);
        Progress bar(v.name + " verify " + to_string(key), index.size(), progress);
        std::atomic<uint64_t> bad{0};
        const int chunks =
            static_cast<int>((index.block_count() + kBlocksPerChunk - 1) / kBlocksPerChunk);
#pragma omp parallel if (index.size() >= kParallelWork)
        {
            std::vector<Turn> turns;
#pragma omp for schedule(dynamic, 1)
            for (int chunk = 0; chunk < chunks; ++chunk) {
                const uint32_t first = static_cast<uint32_t>(chunk) * kBlocksPerChunk;
                const uint32_t last = std::min(first + kBlocksPerChunk, index.block_count());
                uint64_t visited = 0;
                index.for_each_in_blocks(first, last, [&](uint64_t i, Stones stones) {
                    const Position p = position_of(key, stones, side);
                    generate_turns(v, p, turns);
                    Outcome expected;
                    if (turns.empty()) {
                        expected =
                            status(v, p) == Status::loss ? Outcome{Value::loss, 0} : Outcome{};
                    } else {
                        int best_win = -1, longest_loss = -1;
                        bool all_losses = true;
                        for (const Turn& t : turns) {
                            const Outcome o = for_the_mover(
                                after_turn(v.rules, t, solved.lookup(apply_turn(v, p, t)), 0));
                            if (o.value == Value::win && (best_win < 0 || o.plies < best_win))
                                best_win = o.plies;
                            if (o.value != Value::loss)
                                all_losses = false;
                            else
                                longest_loss = std::max(longest_loss, o.plies);
                        }
                        if (best_win > 0)
                            expected = {Value::win, best_win};
                        else if (all_losses)
                            expected = {Value::loss, longest_loss};
                    }
                    if (decode(stored[i], code) != expected)
                        bad.fetch_add(1, std::memory_order_relaxed);
                    ++visited;
                });
                bar.advance(visited);
            }
        }
        report.inconsistent += bad.load();
        report.verified.push_back(key);
    }
    return report;
}

}  // namespace morris
