#include "solver/solve.hpp"

#include <fmt/core.h>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>

#include "db/sector_file.hpp"
#include "indexing/huge_array.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/progress.hpp"
#include "solver/rules.hpp"
#include "solver/sector_graph.hpp"

namespace morris {
namespace {

// Blocks of the index handed to a thread at a time when verify walks a
// sector in index order; opponent classes, or blocks of about this many
// positions, when the first pass walks by opponent or in index order.
constexpr int kBlocksPerChunk = 4;
constexpr uint32_t kClassesPerChunk = 4;
constexpr uint64_t kPositionsPerChunk = 1 << 16;
// Less work than this runs on one thread: starting and joining a team costs
// more than it saves (seven has hundreds of small sectors and layers).
constexpr uint64_t kParallelWork = 1 << 14;
// Decided positions a thread lists the updates of at a time.
constexpr int kPushGrain = 256;
constexpr size_t kCacheLine = 64;  // bytes

// Solved sectors held in memory, for looking up successors' values. A unit
// has a handful of them: a flat list searched linearly beats a map here.
class SolvedSectors {
  public:
    // Their arrays' memory comes from `pool` and goes back to it.
    SolvedSectors(const Variant& v, std::filesystem::path directory, PagePool& pool)
        : variant_(v), directory_(std::move(directory)), pool_(&pool) {}

    void load(const SectorKey& key) {
        if (find(key)) return;
        auto file = SectorFile::open(directory_ / sector_file_name(variant_.name, key),
                                     variant_.name, variant_.rule_hash(), key);
        const SectorIndex& index =
            sector_index(*variant_.board, key.mover_on_board, key.opponent_on_board);
        if (file->info().entries != index.size())
            throw DatabaseError(to_string(key) + ": entry count does not match the index");
        HugeArray<Entry> entries(index.size(), kUninitialized, pool_);
        file->read_all(entries);  // every entry, in parallel
        tables_.push_back({key, &index, std::move(entries)});
    }
    // A sector just solved, kept rather than read back from its file.
    void adopt(const SectorKey& key, HugeArray<Entry> entries) {
        if (find(key)) return;
        tables_.push_back(
            {key, &sector_index(*variant_.board, key.mover_on_board, key.opponent_on_board),
             std::move(entries)});
    }
    void keep_only(const std::vector<SectorKey>& keys) {
        std::erase_if(tables_, [&](const Table& t) {
            return std::find(keys.begin(), keys.end(), t.key) == keys.end();
        });
    }
    const HugeArray<Entry>& entries(const SectorKey& key) const { return find(key)->entries; }

    struct Table {
        SectorKey key;
        const SectorIndex* index = nullptr;
        HugeArray<Entry> entries;
    };

    // The table holding a position reached by a turn (whose side to move has
    // at least three stones: with fewer it has lost and is in no table).
    const Table& table_of(const Position& p) const { return table(sector_of(p)); }
    const Table& table(const SectorKey& key) const {
        const Table* t = find(key);
        if (!t) throw std::logic_error("successor sector " + to_string(key) + " is not loaded");
        return *t;
    }

    Outcome lookup(const Position& p) const {
        if (p.total(p.side) < kFewestStones) return {Value::loss, 0};
        const Table& t = table_of(p);
        return decode(t.entries[t.index->index(stones_of(p))]);
    }

  private:
    const Table* find(const SectorKey& key) const {
        for (const Table& t : tables_)
            if (t.key == key) return &t;
        return nullptr;
    }

    const Variant& variant_;
    std::filesystem::path directory_;
    PagePool* pool_;
    std::vector<Table> tables_;
};

// The values a unit's positions carry while it is solved, one 16-bit word
// each. A decided position holds its distance. An undecided one holds what its
// turns into solved sectors said: either that it cannot lose (some such
// successor is not a win for the opponent), or the least distance it can lose
// in (its floor), together with how many of its turns inside the unit are not
// yet known to lead to the opponent's win (its counter). One word for both
// means one cache line per predecessor when a win is pushed, not two.
namespace state {
constexpr uint16_t kDecided = 0x8000;
constexpr int kCounterBits = 6;
constexpr uint16_t kCounterMask = (1 << kCounterBits) - 1;
// Turns inside a unit are moves: at most 3 flying stones times 18 empty
// points, or one per edge of the board; both well below this.
constexpr int kMaxCounter = kCounterMask - 1;
constexpr int kMaxFloor = 0x7fff >> kCounterBits;
// Counter and floor both past their maxima: no undecided position that can lose.
constexpr uint16_t kCannotLose = 0x7fff;
inline uint16_t decided(int plies) { return static_cast<uint16_t>(kDecided | plies); }
inline uint16_t undecided(int counter, int floor) {
    return static_cast<uint16_t>(floor << kCounterBits | counter);
}
inline bool is_decided(uint16_t s) { return s & kDecided; }
inline int plies(uint16_t s) { return s & ~kDecided; }
inline int counter(uint16_t s) { return s & kCounterMask; }
inline int floor(uint16_t s) { return s >> kCounterBits; }
inline Entry to_entry(uint16_t s) {
    return is_decided(s) ? encode({plies(s) % 2 ? Value::win : Value::loss, plies(s)}) : kDrawEntry;
}
}  // namespace state

struct UnitSector {
    SectorKey key;
    const SectorIndex* index;
    Colour side;
    uint64_t offset;  // of its first position in the unit's arrays
    // The unit's sector (its number) of the positions one quiet move away,
    // before or after, which have the colours swapped; -1 if none.
    int swapped = -1;
};

// Positions (by their place in the unit, which has fewer than 2^32) decided
// at each distance, and win candidates waiting for theirs.
using UnitPosition = uint32_t;
using Layers = std::vector<std::vector<UnitPosition>>;

// A decided position being pushed, seen under the symmetry that takes its
// opponent's stones to their class's representative.
struct Pushed {
    UnitPosition u;
    Bitboard mover;  // its mover's stones under that symmetry
    uint32_t opponent_class;
};
// Un-moves of one position at most: three flying stones to 21 points, or
// twelve stones with five neighbours each.
constexpr int kMostUnmoves = 63;

// can_fly's rule for the side to move of a sector's positions.
bool mover_flies(const Variant& v, const SectorKey& k) {
    return v.rules.flying == Flying::at_three &&
           k.mover_on_board + k.mover_in_hand == turn_generation::kFlyingStones;
}

// Whether every position of a unit only places (place-only variants'
// sectors with stones in the mover's hand): then every turn leaves the unit,
// and one pass settles all, without layers or push.
bool only_places(const Variant& v, const std::vector<SectorKey>& unit) {
    return v.rules.placement == Placement::place_only &&
           std::all_of(unit.begin(), unit.end(),
                       [](const SectorKey& k) { return k.mover_in_hand > 0; });
}

void append(Layers& layers, int distance, uint64_t position) {
    if (layers.size() <= static_cast<size_t>(distance)) layers.resize(distance + 1);
    layers[distance].push_back(static_cast<UnitPosition>(position));
}

void merge(Layers& into, Layers& from) {
    if (into.size() < from.size()) into.resize(from.size());
    for (size_t d = 0; d < from.size(); ++d) {
        into[d].insert(into[d].end(), from[d].begin(), from[d].end());
        from[d].clear();
    }
}

class UnitSolver {
  public:
    // The unit's states take their memory from `pool`, at once.
    UnitSolver(const Variant& v, const std::vector<SectorKey>& keys, const SolvedSectors& solved,
               const SolveOptions& options, PagePool& pool)
        : variant_(v),
          classes_(symmetry_classes(*v.board)),
          solved_(solved),
          progress_(options.progress),
          propagation_(options.propagation),
          moving_walk_(options.moving_walk),
          region_bits_(options.push_region_bits),
          push_bytes_(options.push_bytes) {
        if (region_bits_ < 1 || region_bits_ > kMaxRegionBits)
            throw std::invalid_argument(
                fmt::format("push regions must have 2^1 to 2^{} states", kMaxRegionBits));
        uint64_t offset = 0;
        for (const SectorKey& k : keys) {
            const SectorIndex& index =
                sector_index(*v.board, k.mover_on_board, k.opponent_on_board);
            sectors_.push_back({k, &index, side_to_move(v, k), offset});
            offset += index.size();
        }
        for (UnitSector& s : sectors_) {
            const SectorKey& k = s.key;
            s.swapped = sector_of_unit(
                {k.opponent_on_board, k.mover_on_board, k.opponent_in_hand, k.mover_in_hand});
        }
        for (const UnitSector& s : sectors_) {
            const SectorKey& k = s.key;
            // Every turn inside the unit of a sector whose mover flies is an
            // exchange of its stones among the points its opponent leaves free
            // (for a mover with no stone in hand: with one, it may place as
            // well).
            const bool flies = k.mover_in_hand == 0 && mover_flies(v, k);
            exchanges_.push_back(flies
                                     ? std::make_unique<ExchangeTable>(
                                           v.board->points - k.opponent_on_board, k.mover_on_board)
                                     : nullptr);
        }
        internal_turns_.assign(sectors_.size(), 0);
        undecided_.assign(sectors_.size(), 0);
        size_ = offset;
        only_placements_ = only_places(v, keys);
        if (size_ > std::numeric_limits<UnitPosition>::max())
            throw std::runtime_error(label("") + "has too many positions for one unit");
        state_ = HugeArray<uint16_t>(size_, kUninitialized, &pool);  // the first pass sets each
    }

    uint64_t size() const { return size_; }

    void run() {
        if (only_placements_) {
            first_pass();  // settles every position: all turns leave the unit
            return;
        }
        first_pass();
        if (out_of_range_)
            throw std::runtime_error(label("") +
                                     "has more turns or longer distances than the "
                                     "solver's 16-bit state holds");
        propagate();
    }

    // After finish(): the entries of a unit of one sector, for keeping.
    HugeArray<Entry> release_entries() && { return std::move(state_); }

    // Turns the solved states into stored entries in place and returns each sector's.
    std::vector<std::span<const Entry>> finish() {
        static_assert(sizeof(Entry) == sizeof(state_[0]));
        for (uint16_t& s : state_) s = state::to_entry(s);
        std::vector<std::span<const Entry>> spans;
        for (const UnitSector& s : sectors_)
            spans.emplace_back(state_.data() + s.offset, s.index->size());
        return spans;
    }

  private:
    std::string label(const char* pass) const {
        std::string names;
        for (const auto& s : sectors_) names += (names.empty() ? "" : "+") + to_string(s.key);
        return fmt::format("{} {} {}", variant_.name, names, pass);
    }

    int sector_of_unit(const SectorKey& key) const {
        for (size_t i = 0; i < sectors_.size(); ++i)
            if (sectors_[i].key == key) return static_cast<int>(i);
        return -1;
    }

    // What one position's turns into solved sectors say, folded as they come
    // from their stored entries. Whether a successor is a win, a loss or a
    // draw is data, not a pattern the branch predictor can learn: the fold is
    // branch-free, and reads its entries as what they are, 0 for a draw and
    // plies + 1 otherwise, odd for the mover's loss.
    struct Summary {
        int turns = 0, internal = 0;
        Entry least_loss = kNoLoss;  // the shortest successor lost: plies of our win
        Entry longest_win = 0;       // the longest successor won: plies of our loss
        bool draw = false;           // some successor is a draw

        // Above every entry the solver writes: its distances fit in 15 bits.
        static constexpr Entry kNoLoss = std::numeric_limits<Entry>::max();
        void add(Entry after) {
            const bool loss = after & 1;
            least_loss = std::min(least_loss, loss ? after : kNoLoss);
            longest_win = std::max(longest_win, loss ? Entry{0} : after);
            draw |= after == kDrawEntry;
        }
        void add_their_loss_for_want_of_stones() { add(encode({Value::loss, 0})); }
        int best_win() const { return least_loss == kNoLoss ? -1 : least_loss; }
        int floor() const { return longest_win; }
    };

    // The last two successor tables asked for: a sector's turns lead into one
    // or two sectors (without and with a capture), so this nearly always hits.
    struct TableCache {
        SectorKey keys[2];
        const SolvedSectors::Table* tables[2] = {nullptr, nullptr};

        const SolvedSectors::Table& get(const SectorKey& key, const SolvedSectors& solved) {
            if (tables[0] && keys[0] == key) return *tables[0];
            if (tables[1] && keys[1] == key)
                std::swap(keys[0], keys[1]), std::swap(tables[0], tables[1]);
            else
                keys[1] = keys[0], tables[1] = tables[0], keys[0] = key,
                tables[0] = &solved.table(key);
            return *tables[0];
        }
    };

    // Classes of successors' mover stones. Positions of a sector that
    // places are settled grouped by their opponent's stones, which become the
    // successor's mover less at most a removed stone, so a few sets recur
    // through a whole batch.
    class ClassCache {
      public:
        explicit ClassCache(const SymmetryClasses& classes) : classes_(&classes) {
            std::fill(std::begin(sets_), std::end(sets_), ~Bitboard{0});
        }
        const SymmetryClasses::Class& get(Bitboard set) {
            const size_t slot = (set * kFibonacci) >> (32 - kSlotBits);
            if (sets_[slot] != set) sets_[slot] = set, found_[slot] = classes_->class_of(set);
            return found_[slot];
        }

      private:
        static constexpr int kSlotBits = 5;
        static constexpr uint32_t kFibonacci = 0x9e3779b9;  // 2^32 / golden ratio: spreads sets
        const SymmetryClasses* classes_;
        Bitboard sets_[1 << kSlotBits];
        SymmetryClasses::Class found_[1 << kSlotBits];
    };

    // A turn into a solved sector, waiting in a batch for its value.
    struct Lookup {
        uint32_t position;  // in the batch
        const SolvedSectors::Table* table;
        Stones stones;
        uint64_t index;
    };

    // Positions settled together, so that the successors' lookups, which
    // miss the cache, can be prefetched and overlap.
    struct Batch {
        explicit Batch(const Board& board) : classes(symmetry_classes(board)) {}
        static constexpr size_t kSize = 64;
        size_t count = 0;
        uint64_t unit_position[kSize];
        Position position[kSize];
        Summary summary[kSize];
        std::vector<Lookup> lookups;
        Layers decided, candidates;
        uint64_t internal_turns = 0, undecided = 0;  // of the batch's sector so far
        struct Settled {
            UnitPosition u;
            uint16_t state;
        };
        std::vector<Settled> settled;  // by a group, to be written
        TableCache tables;
        ClassCache classes;
    };

    // Counts each position's turns inside the unit and settles what its
    // turns into solved sectors decide. A sector that places walks by its
    // opponent's class: its placements that close no mill then read one block
    // of a solved sector per class. A sector that only moves reads nothing
    // for its quiet moves, which it counts: it walks in index order, writing
    // its states in sequence and ranking no position; only its moves that
    // close a mill read solved sectors, at random. On a crowded board, where
    // those are many, it walks by opponent too (moves_by_group).
    void first_pass() {
        Progress progress(label("first pass"), size_, progress_);
        for (size_t s = 0; s < sectors_.size(); ++s) {
            const UnitSector& sector = sectors_[s];
            const SectorIndex& index = *sector.index;
            const bool moving_groups = moves_by_group(sector.key);
            const bool by_opponent = sector.key.mover_in_hand > 0 || moving_groups;
            const bool grouped = settles_by_group(sector.key);
            const uint32_t groups =
                by_opponent ? index.opponent_class_count() : index.block_count();
            const uint32_t per_chunk = by_opponent ? kClassesPerChunk : blocks_per_chunk(index);
            const auto chunks = static_cast<int>((groups + per_chunk - 1) / per_chunk);
#pragma omp parallel if (index.size() >= kParallelWork)
            {
                Batch batch(*variant_.board);
#pragma omp for schedule(dynamic, 1)
                for (int chunk = 0; chunk < chunks; ++chunk) {
                    const uint32_t first = static_cast<uint32_t>(chunk) * per_chunk;
                    const uint32_t last = std::min(first + per_chunk, groups);
                    uint64_t visited = 0;
                    auto visit = [&](uint64_t i, Stones stones) {
                        const uint64_t u = sector.offset + i;
                        // Walking by opponent scatters these writes over the
                        // unit: start loading their lines now, to be written
                        // when the batch is concluded.
                        if (by_opponent) __builtin_prefetch(&state_[u], 1);
                        batch.unit_position[batch.count] = u;
                        batch.position[batch.count] = position_of(sector.key, stones, sector.side);
                        if (++batch.count == Batch::kSize) settle(batch);
                        ++visited;
                    };
                    if (grouped)
                        for (uint32_t c = first; c < last; ++c)
                            visited += settle_placement_group(sector, c, batch);
                    else if (moving_groups)
                        for (uint32_t c = first; c < last; ++c)
                            visited += settle_moving_group(sector, c, batch);
                    else if (by_opponent)
                        index.for_each_by_opponent(first, last, visit);
                    else
                        index.for_each_in_blocks(first, last, visit);
                    settle(batch);
                    progress.advance(visited);
                }
#pragma omp critical
                {
                    merge(decided_, batch.decided);
                    merge(candidates_, batch.candidates);
                    internal_turns_[s] += batch.internal_turns;
                    undecided_[s] += batch.undecided;
                }
            }
        }
    }

    // A sector a sector's turns lead into, found among the solved ones when
    // a turn first does: the sector graph leaves out sectors no turn
    // reaches. None where the opponent is left with fewer stones than it
    // needs: it has lost.
    class TurnTarget {
      public:
        TurnTarget(const SectorKey& from, int theirs_on_board, bool placement)
            : key_{static_cast<uint8_t>(theirs_on_board),
                   static_cast<uint8_t>(from.mover_on_board + placement), from.opponent_in_hand,
                   static_cast<uint8_t>(from.mover_in_hand - placement)},
              lost_(theirs_on_board + from.opponent_in_hand < kFewestStones) {}
        // Null when the opponent has lost.
        const SolvedSectors::Table* get(const SolvedSectors& solved) {
            if (!table_ && !lost_) table_ = &solved.table(key_);
            return table_;
        }

      private:
        SectorKey key_;
        bool lost_;
        const SolvedSectors::Table* table_ = nullptr;
    };
    struct PlacementTargets {
        TurnTarget quiet, removal;  // after a placement that removes nothing, and one stone
    };
    // With no opponent stone on the board nothing is removable, and the
    // removal target (its count wrapped below zero) is never asked for.
    static PlacementTargets placement_targets(const SectorKey& k) {
        return {{k, k.opponent_on_board, true}, {k, k.opponent_on_board - 1, true}};
    }

    // Whether a sector's positions may be settled a group at a time: every
    // turn is a placement, which leaves the unit and removes at most one
    // stone, and the side to move has not lost for want of stones.
    bool settles_by_group(const SectorKey& k) const {
        return only_placements_ && variant_.rules.double_mill == DoubleMill::one &&
               k.mover_on_board + k.mover_in_hand >= kFewestStones;
    }

    // The opponent's stones a mill lets the mover remove, and by each
    // removed point the class of those left: the successor's mover class.
    Bitboard removal_classes(Bitboard opponent,
                             std::array<SymmetryClasses::Class, kMaxPoints>& by_point) const {
        const Bitboard choices = removable(variant_, opponent);
        for (Bitboard r = choices; r; r &= r - 1)
            by_point[std::countr_zero(r)] = classes_.class_of(opponent & ~(r & -r));
        return choices;
    }

    // Settles the positions whose opponent's stones are the representative
    // of opponent class c and returns how many there are. They share the
    // blocks all their turns lead into: a placement that closes no mill
    // leads into the block of the opponent's class, one that removes stone r
    // into the block of the class of the opponent's stones less r. Those
    // classes are worked out here, once, rather than once per turn; the
    // turns are those of for_each_loud_turn, which settle visits one by one.
    uint64_t settle_placement_group(const UnitSector& sector, uint32_t c, Batch& batch) {
        const SectorIndex& index = *sector.index;
        const Board& board = *variant_.board;
        const Bitboard opponent = classes_.representatives(sector.key.opponent_on_board)[c];
        const Bitboard free = board.all() & ~opponent;
        const SymmetryClasses::Class quiet_class = classes_.class_of(opponent);
        std::array<SymmetryClasses::Class, kMaxPoints> after_removing;
        const Bitboard removable_stones = removal_classes(opponent, after_removing);
        const int removal_count = std::popcount(removable_stones);
        std::array<Bitboard, kMaxPoints> mine_seen;  // by removed point: by its class's symmetry
        std::array<uint64_t, kMaxPoints * kMaxPoints> removal_slots;
        PlacementTargets targets = placement_targets(sector.key);
        uint64_t visited = 0;
        index.for_each_by_opponent(c, c + 1, [&](uint64_t i, Stones stones) {
            const Bitboard mine = stones.mover;
            const Bitboard empty = free & ~mine;
            // With nothing to remove, a placement that closes a mill is as quiet as any.
            const Bitboard closing =
                removal_count ? turn_generation::closing_points(board, mine, empty) : 0;
            Summary summary;
            // The removals' successors are spread over their blocks: rank
            // and prefetch them first, then read the quiet placements'
            // (near each other for neighbouring positions) while they load.
            const Bitboard loud = empty & closing;
            const SolvedSectors::Table* after_removal =
                loud ? targets.removal.get(solved_) : nullptr;
            int lookups = 0;
            if (after_removal) {
                for (Bitboard r = removable_stones; r; r &= r - 1) {
                    const int k = std::countr_zero(r);
                    mine_seen[k] = classes_.transform(mine, after_removing[k].symmetry);
                }
                for (Bitboard to = loud; to; to &= to - 1) {
                    const int t = std::countr_zero(to);
                    for (Bitboard r = removable_stones; r; r &= r - 1) {
                        const int k = std::countr_zero(r);
                        const SymmetryClasses::Class& next = after_removing[k];
                        const Bitboard after =
                            mine_seen[k] | classes_.transform_point(t, next.symmetry);
                        const uint64_t at = after_removal->index->index_transformed(next, after);
                        __builtin_prefetch(&after_removal->entries[at]);
                        removal_slots[lookups++] = at;
                    }
                }
            }
            settle_quiet(targets.quiet, quiet_class, mine, empty & ~closing, summary);
            summary.turns += std::popcount(loud) * removal_count;
            if (loud && !after_removal) summary.add_their_loss_for_want_of_stones();
            for (int k = 0; k < lookups; ++k) summary.add(after_removal->entries[removal_slots[k]]);
            const uint64_t u = sector.offset + i;
            const Position p =
                summary.turns ? Position{} : position_of(sector.key, stones, sector.side);
            batch.settled.push_back(
                {static_cast<UnitPosition>(u), concluded(u, p, summary, batch)});
            ++visited;
        });
        write_settled(batch);
        return visited;
    }

    // Writes the states a group settled. They are scattered over
    // the unit: written while the group's successor blocks are read, their
    // lines would push those blocks out of the cache. Here nothing else
    // competes, and each line is loaded well before it is written.
    void write_settled(Batch& batch) {
        constexpr size_t kAhead = 16;
        const auto& settled = batch.settled;
        for (size_t k = 0; k < settled.size(); ++k) {
            if (k + kAhead < settled.size()) __builtin_prefetch(&state_[settled[k + kAhead].u], 1);
            state_[settled[k].u] = settled[k].state;
        }
        batch.settled.clear();
    }

    // Whether a sector that only moves walks by opponent, a group at a time
    // (settle_moving_group), rather than in index order: when stones cover
    // thirteen twenty-fourths of the board or more (13 of nine's 24 points).
    // There moves close mills often enough that keeping their lookups in a
    // few blocks per group, and working out once what the group shares,
    // outweigh the walk's scattered state writes. On nine, by group against
    // index order, side by side, one thread: 5-8 -8.3%, 4-9 -11.4%, 6-7
    // -10.8%; at 12 stones 5-7 -9.0%, 6-6 -1.0% but 4-8 +5.7%.
    bool moves_by_group(const SectorKey& k) const {
        if (k.mover_in_hand > 0 || variant_.rules.double_mill == DoubleMill::two ||
            k.mover_on_board < kFewestStones || moving_walk_ == MovingWalk::index_order)
            return false;
        const int crowded_stones = (13 * variant_.board->points + 23) / 24;
        return moving_walk_ == MovingWalk::by_opponent ||
               k.mover_on_board + k.opponent_on_board >= crowded_stones;
    }

    // Settles the positions of a sector that moves whose opponent's stones
    // are the representative of opponent class c, and returns how many there
    // are. Moves that remove nothing stay in the unit and are counted; one
    // that removes stone r leads into the block of the class of the
    // opponent's stones less r, which the group shares: its lookups stay in
    // a few blocks rather than missing the cache once each. The moves are
    // for_each_loud_turn's (for_each_closing_move), with what the group
    // shares (its opponent's stones, what of them is removable, whether the
    // mover flies) worked out once, and no position built unless it has no
    // turn.
    uint64_t settle_moving_group(const UnitSector& sector, uint32_t c, Batch& batch) {
        const Board& board = *variant_.board;
        const Bitboard opponent = classes_.representatives(sector.key.opponent_on_board)[c];
        const Bitboard free = board.all() & ~opponent;
        std::array<SymmetryClasses::Class, kMaxPoints> after_removing;
        const Bitboard removable_stones = removal_classes(opponent, after_removing);
        const int removal_count = std::popcount(removable_stones);
        const bool flies = mover_flies(variant_, sector.key);
        TurnTarget removal(sector.key, sector.key.opponent_on_board - 1, false);
        std::array<uint64_t, kMaxPoints * kMaxPoints> slots;
        uint64_t visited = 0;
        sector.index->for_each_by_opponent(c, c + 1, [&](uint64_t i, Stones stones) {
            const Bitboard mine = stones.mover;
            const Bitboard empty = free & ~mine;
            // With nothing to remove, a move that closes a mill is as quiet as any.
            const Bitboard closing =
                removal_count ? turn_generation::closing_points(board, mine, empty) : 0;
            Summary summary;
            const SolvedSectors::Table* table = nullptr;
            int lookups = 0;
            summary.internal = turn_generation::for_each_closing_move(
                board, mine, empty, flies, closing, [&](int from, int to, int) {
                    summary.turns += removal_count;
                    if (!(table = removal.get(solved_))) {
                        summary.add_their_loss_for_want_of_stones();
                        return;
                    }
                    const Bitboard after = (mine & ~(1u << from)) | 1u << to;
                    for (Bitboard r = removable_stones; r; r &= r - 1) {
                        const SymmetryClasses::Class& next = after_removing[std::countr_zero(r)];
                        const uint64_t at = table->index->index_transformed(
                            next, classes_.transform(after, next.symmetry));
                        __builtin_prefetch(&table->entries[at]);
                        slots[lookups++] = at;
                    }
                });
            summary.turns += summary.internal;
            for (int k = 0; k < lookups; ++k) summary.add(table->entries[slots[k]]);
            const uint64_t u = sector.offset + i;
            const Position p =
                summary.turns ? Position{} : position_of(sector.key, stones, sector.side);
            batch.settled.push_back(
                {static_cast<UnitPosition>(u), concluded(u, p, summary, batch)});
            ++visited;
        });
        write_settled(batch);
        return visited;
    }

    // Placements on `points` that close no mill, by a mover with stones
    // `mine`, into the block of `theirs`'s class in `target`.
    void settle_quiet(TurnTarget& target, const SymmetryClasses::Class& theirs, Bitboard mine,
                      Bitboard points, Summary& summary) const {
        if (!points) return;
        summary.turns += std::popcount(points);
        const SolvedSectors::Table* table = target.get(solved_);
        if (!table) {
            summary.add_their_loss_for_want_of_stones();
            return;
        }
        // The successor's opponent is the mover plus the placed stone: take
        // the mover's image once, and add each point's.
        const Bitboard seen = classes_.transform(mine, theirs.symmetry);
        const SectorIndex& index = *table->index;
        if (index.is_full_block(theirs.rank)) {
            // Slots are colex ranks of the packed stones: rank the mover's
            // once, and each with one placed stone more from it.
            const RanksWithOneMore ranks(index.packed_in_full_block(theirs, seen));
            const Entry* block = table->entries.data() + index.block_begin(theirs.rank);
            for (Bitboard packed = index.packed_in_full_block(
                     theirs, classes_.transform(points, theirs.symmetry));
                 packed; packed &= packed - 1)
                summary.add(block[ranks.rank_with(std::countr_zero(packed))]);
            return;
        }
        for (; points; points &= points - 1) {
            const Bitboard after =
                seen | classes_.transform_point(std::countr_zero(points), theirs.symmetry);
            summary.add(table->entries[index.index_transformed(theirs, after)]);
        }
    }

    // Whole blocks of about kPositionsPerChunk positions.
    static uint32_t blocks_per_chunk(const SectorIndex& index) {
        return static_cast<uint32_t>(std::max<uint64_t>(
            1, kPositionsPerChunk * index.block_count() / std::max<uint64_t>(index.size(), 1)));
    }

    void settle(Batch& batch) {
        batch.lookups.clear();
        for (uint32_t k = 0; k < batch.count; ++k) {
            const Position& p = batch.position[k];
            Summary& summary = batch.summary[k];
            summary = {};
            // The successor seen from its side to move, worked out from locals
            // rather than through a whole Position: this loop is the hottest.
            const Stones before = stones_of(p);
            const int mine_in_hand = p.in_hand[p.side];
            const int theirs_in_hand = p.in_hand[p.other()];
            const QuietTurns quiet = for_each_loud_turn(variant_, p, [&](const Turn& t) {
                ++summary.turns;
                if (t.removals() == 0 && !t.is_placement()) {
                    ++summary.internal;
                    return;
                }
                Bitboard mine = before.mover | 1u << t.to;
                if (!t.is_placement()) mine &= ~(1u << t.from);
                Bitboard theirs = before.opponent;
                for (int8_t r : t.removed)
                    if (r >= 0) theirs &= ~(1u << r);
                const int theirs_on_board = std::popcount(theirs);
                if (theirs_on_board + theirs_in_hand < kFewestStones) {
                    summary.add_their_loss_for_want_of_stones();
                    return;
                }
                const SectorKey key{static_cast<uint8_t>(theirs_on_board),
                                    static_cast<uint8_t>(std::popcount(mine)),
                                    static_cast<uint8_t>(theirs_in_hand),
                                    static_cast<uint8_t>(mine_in_hand - t.is_placement())};
                const SolvedSectors::Table& table = batch.tables.get(key, solved_);
                batch.lookups.push_back({k, &table, Stones{theirs, mine}, 0});
            });
            summary.turns += quiet.moves;
            summary.internal += quiet.moves;
            if (quiet.placements) settle_quiet_placements(p, quiet.placements, summary, batch);
        }
        for (Lookup& l : batch.lookups) {
            l.index = l.table->index->index(l.stones, batch.classes.get(l.stones.mover));
            __builtin_prefetch(&l.table->entries[l.index]);
        }
        for (const Lookup& l : batch.lookups)
            batch.summary[l.position].add(l.table->entries[l.index]);
        for (uint32_t k = 0; k < batch.count; ++k)
            conclude(batch.unit_position[k], batch.position[k], batch.summary[k], batch);
        batch.count = 0;
    }

    // Placements that close no mill all lead into one block of one solved
    // sector (the block of the opponent's stones, which the batch's
    // positions share), so their values are read at once, in cache.
    void settle_quiet_placements(const Position& p, Bitboard points, Summary& summary,
                                 Batch& batch) const {
        const Stones before = stones_of(p);
        TurnTarget target(sector_of(p), std::popcount(before.opponent), true);
        settle_quiet(target, batch.classes.get(before.opponent), before.mover, points, summary);
    }

    // The state of a position with turns all of whose successors are solved.
    static uint16_t final_state(const Summary& s) {
        return s.best_win() > 0 ? state::decided(s.best_win())
               : s.draw         ? state::kCannotLose
                                : state::decided(s.floor());
    }

    void conclude(uint64_t u, const Position& p, const Summary& s, Batch& batch) {
        state_[u] = concluded(u, p, s, batch);
    }

    // The state of position u as its summary leaves it, entered in the
    // batch's layers and counts (p is looked at only when it has no turn).
    uint16_t concluded(uint64_t u, const Position& p, const Summary& s, Batch& batch) {
        if (s.turns == 0) {
            if (status(variant_, p) == Status::loss) {
                append(batch.decided, 0, u);
                return state::decided(0);
            }
            ++batch.undecided;
            return state::kCannotLose;  // a draw by the full-board rule
        }
        if (only_placements_) return final_state(s);
        // Read before writing: after the first position most find it set.
        if (s.internal > 0 && !has_internal_turns_.load(std::memory_order_relaxed))
            has_internal_turns_.store(true, std::memory_order_relaxed);
        batch.internal_turns += s.internal;
        ++batch.undecided;        // unless it is decided below
        if (s.best_win() == 1) {  // no win is shorter: settled now
            append(batch.decided, 1, u);
            --batch.undecided;
            return state::decided(1);
        }
        if (s.best_win() > 0) {
            append(batch.candidates, s.best_win(), u);
            return state::kCannotLose;
        }
        if (s.draw) return state::kCannotLose;
        if (s.internal == 0) {
            append(batch.decided, s.floor(), u);
            --batch.undecided;
            return state::decided(s.floor());
        }
        if (s.internal > state::kMaxCounter || s.floor() > state::kMaxFloor)
            out_of_range_ = true;  // run() fails
        return state::undecided(s.internal, s.floor());
    }

    // Layer by layer in distance: a loss at d makes its predecessors wins at
    // d + 1; a win at d takes one from each predecessor's count of turns not
    // yet known to lead to the opponent's win, and at zero it is lost.
    void propagate() {
        Progress progress(label("propagation"), 0, progress_);
        for (size_t d = 0; d < std::max(decided_.size(), candidates_.size()); ++d) {
            const int distance = static_cast<int>(d);
            if (d < candidates_.size()) decide_candidates(distance);
            // Without a turn inside the unit (placement sectors of place-only
            // variants) there is nothing to push to: only the win
            // candidates above still had to be settled.
            if (d >= decided_.size() || !has_internal_turns_) continue;
            std::vector<UnitPosition> layer = std::move(decided_[d]);
            decided_[d] = {};
            // A sector's predecessors are all in one sector, its colours
            // swapped: each sector's share of the layer goes there by the
            // cheaper way.
            for (size_t s = 0; s < sectors_.size(); ++s) {
                const int into = sectors_[s].swapped;
                std::vector<UnitPosition> share = take_sector(layer, s);
                if (share.empty() || into < 0) continue;
                if (pull_is_cheaper(share.size(), into, distance))
                    pull(distance, into);
                else
                    push(share, distance, into);
                progress.advance(share.size());
            }
        }
        // Push's buffers are not needed for writing the files.
        bins_ = {};
        pushed_ = {};
        unsorted_ = {};
    }

    // Win candidates at distance d not decided sooner win at d. Their states
    // lie scattered over the unit: each is loaded well before it is read.
    void decide_candidates(int d) {
        constexpr size_t kAhead = 16;
        const std::vector<UnitPosition>& candidates = candidates_[d];
        for (size_t k = 0; k < candidates.size(); ++k) {
            if (k + kAhead < candidates.size())
                __builtin_prefetch(&state_[candidates[k + kAhead]], 1);
            const UnitPosition u = candidates[k];
            if (state::is_decided(state_[u])) continue;
            state_[u] = state::decided(d);
            append(decided_, d, u);
            --undecided_[&sector_holding(u) - sectors_.data()];
        }
        candidates_[d] = {};
    }

    // The positions of sector s in a layer; the layer keeps the others.
    std::vector<UnitPosition> take_sector(std::vector<UnitPosition>& layer, size_t s) const {
        if (sectors_.size() == 1) return std::move(layer);
        const uint64_t first = sectors_[s].offset, last = first + sectors_[s].index->size();
        const auto others = std::partition(layer.begin(), layer.end(),
                                           [&](UnitPosition u) { return u < first || u >= last; });
        std::vector<UnitPosition> share(others, layer.end());
        layer.erase(others, layer.end());
        return share;
    }

    // Whether reading the turns of sector `into`'s undecided positions costs
    // less than the un-turns of `decided` positions of the sector they lead
    // to. The turns between the two sectors were counted in the first pass.
    // Costs are nanoseconds of one core, fitted to nine's units 3-8 and 4-9
    // solved with --propagation push and pull (scripts/bench-units.sh). An
    // un-turn costs an index and an update listed, then applied in cache:
    // 30 ns since push lists by region (45 before; 30 against 45 side by
    // side: 3-8 -11.7%, 4-7 -6.9%, 4-9 -5.9%).
    // Pulling reads every state of the sector in sequence, and for each
    // undecided position an index per turn, and a cache miss per turn unless
    // its successors' block (their mover's class, which all share) has fewer
    // lines than it has turns: then they share lines. A flying mover's
    // turns are counted from bitmaps (its exchanges, and which states of
    // its successors' block count): 2.5 ns a turn, fitted to 3-8 and 3-9
    // when each turn read a state; with bitmaps 1.5 is nearer, but then
    // 3-8 pulls layers that push does faster (side by side, one thread:
    // 3-8 +6.9%, 3-9 -1.0%, 3-7 -5.8%). The few positions whose
    // successors' block is symmetric are ranked as before, at this price
    // too. A miss costs 25 ns, not the 15 fitted on an AMD EPYC: on
    // an Intel Xeon with further memory, 6-9 pulled layers that push does
    // faster (pulling them at 15, against 25: 6-9 -3.1%, 4-9 -3.8%, 5-9
    // and 3-8 the same; side by side, one thread, files identical).
    bool pull_is_cheaper(size_t decided, int into, int d) const {
        if (propagation_ == Propagation::alternate) return d % 4 >= 2;
        if (propagation_ != Propagation::automatic) return propagation_ == Propagation::pull;
        constexpr double kPushPerUnturn = 30, kPullPerPosition = 4;
        constexpr double kPullPerTurn = 3, kPullPerMiss = 25, kPullPerExchange = 2.5;
        const UnitSector& target = sectors_[into];
        const SectorIndex& next = *sectors_[target.swapped].index;
        const auto target_size = static_cast<double>(target.index->size());
        const double turns = static_cast<double>(internal_turns_[into]) / target_size;
        const double unturns =
            static_cast<double>(internal_turns_[into]) / static_cast<double>(next.size());
        const double block_lines =
            static_cast<double>(
                binomial[variant_.board->points - next.mover_stones()][next.opponent_stones()] *
                sizeof(uint16_t)) /
            kCacheLine;
        // The share of a position's turns that miss the cache; squared, as
        // the fit to 3-8 (39 flights into blocks of 17.5 lines: 6 ns a turn)
        // and 4-9 (a block far larger than the turns: 18 ns) asks.
        const double shared = std::min(1.0, block_lines / std::max(turns, 1.0));
        const double push = static_cast<double>(decided) * unturns * kPushPerUnturn;
        const double per_turn =
            exchanges_[into] ? kPullPerExchange : kPullPerTurn + kPullPerMiss * shared * shared;
        const double pull = target_size * kPullPerPosition +
                            static_cast<double>(undecided_[into]) * turns * per_turn;
        return pull < push;
    }

    // Pushes layer d's positions (of the sector swapped from `into`) to their
    // predecessors in sector `into` by un-turns, in two steps (propagation
    // blocking: Beamer, Asanović and Patterson, "Reducing PageRank
    // communication via propagation blocking", IPDPS 2017). The threads
    // first list every update by the region of states it falls in, each
    // list's end staying in cache; then each region's updates are applied by
    // one thread, the region in cache: a layer of millions of positions
    // updates the same lines many times, and updating them where they lie,
    // scattered over the sector, missed the cache once per update. A region
    // is applied by one thread only, so no update needs an atomic.
    void push(const std::vector<UnitPosition>& layer, int d, int into) {
        const UnitSector& target = sectors_[into];
        const UnitSector& sector = sectors_[target.swapped];
        const auto regions = static_cast<uint32_t>(
            (target.index->size() + (uint64_t{1} << region_bits_) - 1) >> region_bits_);
        const size_t chunk = push_chunk(into);
        const bool won = d % 2 == 1;
        for (size_t begin = 0; begin < layer.size(); begin += chunk) {
            const std::span<const UnitPosition> positions(layer.data() + begin,
                                                          std::min(layer.size() - begin, chunk));
            order_by_opponent_class(positions, sector);
            // Whether positions of the sector have predecessors by moves, and
            // whether those moves fly, depends on its counts alone.
            const Position any =
                position_of(sector.key, seen_stones(pushed_[0], sector), sector.side);
            if (!may_have_moved(variant_, any)) return;
            const bool flying = turn_generation::can_fly(variant_, any, any.other());
#pragma omp parallel if (positions.size() >= kParallelWork)
            {
                const auto thread = static_cast<size_t>(omp_get_thread_num());
#pragma omp single
                {
                    if (bins_.size() < static_cast<size_t>(omp_get_num_threads()))
                        bins_.resize(omp_get_num_threads());
                    for (auto& bins : bins_)
                        if (bins.size() < regions) bins.resize(regions);
                }
                ClassUnmoves unmoves(*variant_.board, classes_, flying);
                std::vector<Repeat> repeats;
#pragma omp for schedule(dynamic, kPushGrain)
                for (size_t k = 0; k < pushed_.size(); ++k)
                    list_updates(pushed_[k], sector, won, unmoves, repeats, bins_[thread]);
                Layers local;
#pragma omp for schedule(dynamic, 1)
                for (uint32_t r = 0; r < regions; ++r) apply_updates(r, target, d, local);
                conclude_layer(local, into);
            }
        }
    }

    // Merges what a thread decided in sector `into` while a layer was processed.
    void conclude_layer(Layers& local, int into) {
        uint64_t count = 0;
        for (const auto& l : local) count += l.size();
#pragma omp critical
        {
            undecided_[into] -= count;
            merge(decided_, local);
        }
    }

    // Undecided positions read again by pull, a batch at a time: the
    // indices of all their successors are listed and their states prefetched
    // before any is read.
    struct Rereads {
        static constexpr size_t kSize = 32;
        struct Unread {
            uint64_t u;
            uint16_t seen;
            uint32_t first, last;  // its successors in the list
        };
        std::vector<Unread> positions;
        std::vector<uint64_t> successors;
    };

    // An undecided position of a slice of a sector, waiting to be read again.
    struct Undecided {
        UnitPosition u;
        uint16_t seen;
        Stones stones;
        SymmetryClasses::Class theirs;  // the opponent's class
    };

    // What layer d says about the undecided positions of sector `into`
    // (whose quiet moves lead to the layer's sector), found by reading their
    // turns again. The sector is cut into slices of whole blocks, each walked
    // in index order, so that its states are read in sequence; its undecided
    // positions are then read again in the order of their opponent's class,
    // which is their successors' mover class: those of one class lie in one
    // block of the layer's sector, loaded once for all of them.
    void pull(int d, int into) {
        const UnitSector& sector = sectors_[into];
        const UnitSector& next = sectors_[sector.swapped];
        const SectorIndex& index = *sector.index;
        const ExchangeTable* exchanges = exchanges_[into].get();
        const bool lost = d % 2 == 0;  // the layer's positions: a turn to one wins
        const std::vector<uint32_t> slices = slice_bounds(index);
        const auto slice_count = static_cast<int>(slices.size() - 1);
#pragma omp parallel if (index.size() >= kParallelWork)
        {
            Layers local;
            Rereads rereads;
            FlyingBlock block;
            std::vector<Undecided> found, sorted;
            std::vector<uint32_t> starts;
#pragma omp for schedule(dynamic, 1)
            for (int slice = 0; slice < slice_count; ++slice) {
                found.clear();
                index.for_each_in_blocks(
                    slices[slice], slices[slice + 1], [&](uint64_t i, Stones stones) {
                        const uint64_t u = sector.offset + i;
                        const uint16_t seen = load(state_[u]);
                        if (state::is_decided(seen) || (!lost && seen == state::kCannotLose))
                            return;
                        found.push_back({static_cast<UnitPosition>(u), seen, stones,
                                         classes_.class_of(stones.opponent)});
                    });
                // A counting sort by class: classes are few, positions many.
                starts.assign(index.opponent_class_count() + 1, 0);
                for (const Undecided& p : found) ++starts[p.theirs.rank + 1];
                for (size_t c = 1; c < starts.size(); ++c) starts[c] += starts[c - 1];
                sorted.resize(found.size());
                for (const Undecided& p : found) sorted[starts[p.theirs.rank]++] = p;
                for (const Undecided& p : sorted) {
                    if (exchanges && next.index->is_full_block(p.theirs.rank)) {
                        reread_flying(p, next, *exchanges, block, d, local);
                        continue;
                    }
                    gather(rereads, p, sector);
                    if (rereads.positions.size() == Rereads::kSize) reread(rereads, d, local);
                }
                reread(rereads, d, local);
            }
            conclude_layer(local, into);
        }
    }

    // Block numbers cutting a sector into slices (first and last block
    // included): large, for positions of one opponent class to meet in one,
    // but about kFewest of them in a sector large enough to share out.
    static std::vector<uint32_t> slice_bounds(const SectorIndex& index) {
        constexpr uint64_t kLargest = 1 << 20, kSmallest = 1 << 16, kFewest = 16;
        const uint64_t slice = std::clamp(index.size() / kFewest, kSmallest, kLargest);
        std::vector<uint32_t> bounds{0};
        for (uint32_t b = 1; b < index.block_count(); ++b)
            if (index.block_begin(b) - index.block_begin(bounds.back()) >= slice)
                bounds.push_back(b);
        bounds.push_back(index.block_count());
        return bounds;
    }

    // Lists a position's successors by quiet moves and starts loading their states.
    void gather(Rereads& rereads, const Undecided& p, const UnitSector& sector) const {
        const UnitSector& next = sectors_[sector.swapped];
        // A quiet move keeps the opponent's stones, the successor's mover:
        // move the mover's image under the symmetry that takes them to
        // their class's representative.
        const Bitboard mine = classes_.transform(p.stones.mover, p.theirs.symmetry);
        const auto first = static_cast<uint32_t>(rereads.successors.size());
        __builtin_prefetch(&state_[p.u], 1);
        for_each_quiet_move(
            variant_, position_of(sector.key, p.stones, sector.side), [&](int from, int to) {
                const Bitboard after = mine ^ classes_.transform_point(from, p.theirs.symmetry) ^
                                       classes_.transform_point(to, p.theirs.symmetry);
                const uint64_t s = next.offset + next.index->index_transformed(p.theirs, after);
                __builtin_prefetch(&state_[s]);
                rereads.successors.push_back(s);
            });
        rereads.positions.push_back(
            {p.u, p.seen, first, static_cast<uint32_t>(rereads.successors.size())});
    }

    void reread(Rereads& rereads, int d, Layers& decided) {
        for (const Rereads::Unread& p : rereads.positions) {
            int counted = 0;
            for (uint32_t k = p.first; k < p.last; ++k)
                counted += counts(load(state_[rereads.successors[k]]), d);
            update(p.u, p.seen, reread_state(p.seen, counted, d), decided);
        }
        rereads.positions.clear();
        rereads.successors.clear();
    }

    // The block of the successors of positions whose opponent stones are
    // of one class, seen from a flying mover: by slot, whether that
    // successor counts in the layer being read.
    struct FlyingBlock {
        // The rank of the opponent class whose block this is.
        uint32_t rank = std::numeric_limits<uint32_t>::max();
        std::vector<uint64_t> counting;
    };

    // Reads again a position whose mover flies, its successors' block being
    // full-size: its successors are the exchanges of its mover's stones in
    // that block, and those that count are the bits both of its exchanges
    // and of the block's slots that count.
    void reread_flying(const Undecided& p, const UnitSector& next, const ExchangeTable& exchanges,
                       FlyingBlock& block, int d, Layers& decided) {
        if (block.rank != p.theirs.rank) read_flying_block(p.theirs, next, exchanges, d, block);
        const Bitboard mine = classes_.transform(p.stones.mover, p.theirs.symmetry);
        const std::span<const uint64_t> successors =
            exchanges.of(next.index->slot_in_full_block(p.theirs, mine));
        int counted = 0;
        for (size_t w = 0; w < successors.size(); ++w)
            counted += std::popcount(successors[w] & block.counting[w]);
        update(p.u, p.seen, reread_state(p.seen, counted, d), decided);
    }

    // Which slots of the block of opponent class `theirs` count in layer d:
    // read once for all the positions of the class. A move that closes a
    // mill removes a stone (when the opponent has one to remove) and leaves
    // the unit: a flying mover has three stones, so the slots of mills are
    // reached only that way, and never count.
    void read_flying_block(const SymmetryClasses::Class& theirs, const UnitSector& next,
                           const ExchangeTable& exchanges, int d, FlyingBlock& block) {
        const SectorIndex& index = *next.index;
        block.rank = theirs.rank;
        block.counting.assign(exchanges.words(), 0);
        uint16_t* states = &state_[next.offset + index.block_begin(theirs.rank)];
        const uint32_t slots = exchanges.subsets();
        // Other threads may be writing these states (a sector whose quiet
        // moves lead into itself): then they are loaded one at a time.
        const uint32_t whole = &next == &sectors_[next.swapped] ? 0 : slots / 64 * 64;
        for (uint32_t slot = 0; slot < whole; slot += 64)
            block.counting[slot / 64] = counts_of_32(states + slot, d) |
                                        uint64_t{counts_of_32(states + slot + 32, d)} << 32;
        for (uint32_t slot = whole; slot < slots; ++slot)
            block.counting[slot / 64] |= uint64_t{counts(load(states[slot]), d)} << slot % 64;
        if (!removable(variant_, theirs.representative)) return;
        for (Bitboard mill : variant_.board->mills) {
            if (mill & theirs.representative) continue;
            const uint32_t slot = index.slot_in_full_block(theirs, mill);
            block.counting[slot / 64] &= ~(uint64_t{1} << slot % 64);
        }
    }

    // Other threads may write states while a layer is read (a sector whose
    // quiet moves lead into itself): reads and writes are atomic, relaxed.
    // What they write in layer d, decided(d + 1) or a smaller counter, counts
    // the same as what it replaces, so a state read twice counts once.
    static uint16_t load(uint16_t& state) {
        return std::atomic_ref<uint16_t>(state).load(std::memory_order_relaxed);
    }
    // Whether a successor's state counts when a position is read again after
    // layer d: in a layer of losses (d even), being one of them (the position
    // wins); otherwise, not being known yet as the opponent's win.
    static bool counts(uint16_t after, int d) {
        static_assert(state::kDecided % 2 == 0, "a decided state's parity is its distance's");
        if (d % 2 == 0) return after == state::decided(d);
        // Whether a successor is decided is data: no branch on it. Below
        // kDecided the difference wraps past every distance.
        const uint32_t plies = uint32_t{after} - state::kDecided;
        return (after % 2 == 0) | (plies > static_cast<uint32_t>(d));
    }
    // counts() of 32 states in a row, bit j for states[j]: one vector
    // compare rather than 32 loads.
    static uint32_t counts_of_32(const uint16_t* states, int d) {
        using Words = uint16_t __attribute__((vector_size(64)));
        Words after;
        std::memcpy(&after, states, sizeof after);
        const auto distance = static_cast<uint16_t>(d);
        const auto counting = d % 2 == 0 ? after == state::decided(d)
                                         : (after % 2 == 0) | (after - state::kDecided > distance);
#if defined(__AVX512BW__)
        return _mm512_movepi16_mask(reinterpret_cast<__m512i>(counting));
#else
        uint32_t bits = 0;
        for (int j = 0; j < 32; ++j) bits |= uint32_t{counting[j] != 0} << j;
        return bits;
#endif
    }
    // A position's state after layer d, when `counted` of its successors count.
    static uint16_t reread_state(uint16_t seen, int counted, int d) {
        if (d % 2 == 0) return counted > 0 ? state::decided(d + 1) : seen;
        // The counter pushing would have left after this layer.
        return counted == 0 ? state::decided(std::max(d + 1, state::floor(seen)))
                            : state::undecided(counted, state::floor(seen));
    }
    void update(uint64_t u, uint16_t seen, uint16_t now, Layers& decided) {
        if (now == seen) return;  // no write: the line stays clean
        std::atomic_ref<uint16_t>(state_[u]).store(now, std::memory_order_relaxed);
        if (state::is_decided(now)) append(decided, state::plies(now), u);
    }

    // A pushed position's stones, seen as above.
    Stones seen_stones(const Pushed& q, const UnitSector& sector) const {
        return {q.mover,
                classes_.representatives(sector.index->opponent_stones())[q.opponent_class]};
    }

    // Puts positions of `sector` in the order of their opponent's class, seen
    // as above. A predecessor's mover is the opponent with one stone moved
    // back: positions of one opponent class share those sets and their
    // un-moves (see ClassUnmoves). A counting sort by class: its keys are few
    // (the sector's opponent classes), where a comparison sort took 10% of a
    // unit. Values do not depend on the order.
    void order_by_opponent_class(std::span<const UnitPosition> positions,
                                 const UnitSector& sector) {
        const auto n = static_cast<int64_t>(positions.size());
        const uint32_t key_count = sector.index->opponent_class_count();
        std::vector<Pushed>& found = unsorted_;
        std::vector<Pushed>& sorted = pushed_;
        found.resize(positions.size());
        sorted.resize(positions.size());
        std::vector<std::vector<uint64_t>> starts;  // by thread, then key
#pragma omp parallel if (positions.size() >= kParallelWork)
        {
            const int threads = omp_get_num_threads(), thread = omp_get_thread_num();
            const int64_t first = n * thread / threads, last = n * (thread + 1) / threads;
#pragma omp single
            starts.assign(threads, std::vector<uint64_t>(key_count));
            std::vector<uint64_t>& mine = starts[thread];
            for (int64_t k = first; k < last; ++k) {
                const Stones q = sector.index->stones_at(positions[k] - sector.offset);
                const SymmetryClasses::Class theirs = classes_.class_of(q.opponent);
                found[k] = {positions[k], classes_.transform(q.mover, theirs.symmetry),
                            theirs.rank};
                ++mine[theirs.rank];
            }
#pragma omp barrier
#pragma omp single
            {
                uint64_t start = 0;  // key-major, then thread: a stable sort
                for (uint32_t key = 0; key < key_count; ++key)
                    for (auto& counts : starts) start += std::exchange(counts[key], start);
            }
            for (int64_t k = first; k < last; ++k)
                sorted[mine[found[k].opponent_class]++] = found[k];
        }
    }

    const UnitSector& sector_holding(uint64_t u) const {
        size_t s = sectors_.size() - 1;
        while (sectors_[s].offset > u) --s;
        return sectors_[s];
    }

    // The un-moves of positions whose opponent's stones are one class's
    // representative (seen under the symmetry that makes them so): the stone
    // on a point `to` came from one of the points `froms`, and the
    // predecessor's mover is then of class mover[from]. This is
    // for_each_unmove with what depends on those stones alone worked out
    // once for all the positions of a class, which a layer walked in the
    // order of its opponent classes brings one after another. A position
    // keeps the froms its own mover leaves empty: a mask, not a test per
    // un-move, which on a crowded board fails as often as not and
    // mispredicts.
    class ClassUnmoves {
      public:
        struct Unmoves {
            int to;
            bool closed_mill;  // a move to `to` closed a mill
            Bitboard froms;
            std::array<SymmetryClasses::Class, kMaxPoints> mover;  // by from
        };
        // For one sector: whether its predecessors' movers fly.
        ClassUnmoves(const Board& board, const SymmetryClasses& classes, bool flying)
            : board_(&board), classes_(&classes), flying_(flying) {}
        std::span<const Unmoves> of(uint32_t rank, Bitboard theirs) {
            if (rank == rank_) return {unmoves_.data(), count_};
            rank_ = rank;
            count_ = 0;
            const SymmetryClasses::SetImages images = classes_->images(theirs);
            for (Bitboard tos = theirs; tos; tos &= tos - 1) {
                Unmoves& onto = unmoves_[count_++];
                onto.to = std::countr_zero(tos);
                onto.closed_mill = turn_generation::mills_closed(*board_, theirs, onto.to) > 0;
                onto.froms = (flying_ ? board_->all() : board_->neighbours[onto.to]) & ~theirs;
                for (Bitboard f = onto.froms; f; f &= f - 1) {
                    const int from = std::countr_zero(f);
                    onto.mover[from] = classes_->class_of_moved(images, onto.to, from);
                }
            }
            return {unmoves_.data(), count_};
        }

      private:
        const Board* board_;
        const SymmetryClasses* classes_;
        bool flying_;
        uint32_t rank_ = std::numeric_limits<uint32_t>::max();
        std::array<Unmoves, kMaxPoints> unmoves_;  // by stone of theirs
        size_t count_ = 0;
    };

    // Layer positions pushed at a time: they, sorted, and their updates take
    // about push_bytes_.
    size_t push_chunk(int into) const {
        const UnitSector& target = sectors_[into];
        const double unturns = static_cast<double>(internal_turns_[into]) /
                               static_cast<double>(sectors_[target.swapped].index->size());
        const double bytes = 2 * sizeof(Pushed) + sizeof(uint32_t) * std::max(unturns, 1.0);
        return static_cast<size_t>(static_cast<double>(push_bytes_) / bytes) + 1;
    }

    // An update waiting in its region's list: the predecessor's place in the
    // region, and by how much a win in the layer takes its counter down (at
    // most the predecessor's turns, which its counter holds). A region's
    // states are 2 MiB by default, a core's L2: with 2^18 states listing was
    // 5% slower on 8-8 (more lists, whose ends no longer stay in cache), and
    // 2^22 was no faster.
    static constexpr int kWeightBits = state::kCounterBits;
    static constexpr int kMaxRegionBits = 32 - kWeightBits;
    static_assert(state::kMaxCounter < 1 << kWeightBits, "a weight is at most a counter");
    uint32_t update_of(uint64_t in_sector, int weight) const {
        assert(weight >= 0 && weight <= state::kMaxCounter);
        return static_cast<uint32_t>(in_sector & ((uint64_t{1} << region_bits_) - 1))
                   << kWeightBits |
               static_cast<uint32_t>(weight);
    }

    // A predecessor reached from a position some symmetry fixes: those
    // reached more than once count together.
    struct Repeat {
        uint64_t index;  // in its sector
        Bitboard mover;  // its mover's stones, not necessarily canonical
        bool operator<(const Repeat& other) const { return index < other.index; }
    };

    // Lists the updates that decided position q (won: a win) makes to its
    // predecessors inside the unit, by region. Of its class's un-moves, q
    // has those whose `from` its mover leaves empty and, when its mover has
    // a stone to remove, whose move closed no mill (one that did removed a
    // stone: its position is not in the unit). The predecessors' opponent,
    // q's mover, is moved by each one's symmetry. A loss's predecessors all
    // win; a win takes one from each predecessor's counter, weighed by
    // symmetry: un-turns from the representative of Q reach the class of P
    // k times, and P's turns reach Q's class k times scaled by the ratio of
    // their symmetry groups (orbit counting), so the k repeats of a
    // symmetric Q count together.
    void list_updates(const Pushed& q, const UnitSector& sector, bool won, ClassUnmoves& unmoves,
                      std::vector<Repeat>& repeats,
                      std::vector<std::vector<uint32_t>>& bins) const {
        const UnitSector& target = sectors_[sector.swapped];
        const Stones seen = seen_stones(q, sector);
        const Bitboard theirs = seen.opponent;
        const bool may_remove = removable(variant_, seen.mover) != 0;
        const int q_fixers = won ? sector.index->stabiliser_size(q.u - sector.offset, seen) : 1;
        // Images of the predecessors' opponent, q's mover.
        const SymmetryClasses::SetImages predecessor_opponent = classes_.images(seen.mover);
        auto bin = [&](uint64_t p, int weight) {
            bins[p >> region_bits_].push_back(update_of(p, weight));
        };
        repeats.clear();
        for (const auto& onto : unmoves.of(q.opponent_class, theirs)) {
            if (may_remove && onto.closed_mill) continue;
            for (Bitboard f = onto.froms & ~seen.mover; f; f &= f - 1) {
                const int from = std::countr_zero(f);
                const SymmetryClasses::Class& m = onto.mover[from];
                const uint64_t p = target.index->index_transformed(
                    m, SymmetryClasses::image(predecessor_opponent, m.symmetry));
                const Bitboard mover = (theirs & ~(1u << onto.to)) | 1u << from;
                if (q_fixers > 1)
                    repeats.push_back({p, mover});
                else
                    bin(p, won ? target.index->stabiliser_size(p, {mover, seen.mover}) : 1);
            }
        }
        std::sort(repeats.begin(), repeats.end());
        for (size_t a = 0, b = 0; a < repeats.size(); a = b) {
            while (b < repeats.size() && repeats[b].index == repeats[a].index) ++b;
            const int p_fixers =
                target.index->stabiliser_size(repeats[a].index, {repeats[a].mover, seen.mover});
            bin(repeats[a].index, static_cast<int>(b - a) * p_fixers / q_fixers);
        }
    }

    // Applies every thread's updates of region r of sector `target` after
    // layer d, and empties their lists.
    void apply_updates(uint32_t r, const UnitSector& target, int d, Layers& decided) {
        constexpr size_t kAhead = 16;  // updates whose state is loading
        const bool lost = d % 2 == 0;
        const uint64_t base = target.offset + (uint64_t{r} << region_bits_);
        uint16_t* states = &state_[base];
        for (auto& bins : bins_) {
            std::vector<uint32_t>& updates = bins[r];
            for (size_t k = 0; k < updates.size(); ++k) {
                if (k + kAhead < updates.size())
                    __builtin_prefetch(&states[updates[k + kAhead] >> kWeightBits], 1);
                const uint32_t at = updates[k] >> kWeightBits;
                const uint16_t seen = states[at];
                if (state::is_decided(seen)) continue;
                if (lost) {
                    states[at] = state::decided(d + 1);  // any undecided predecessor wins
                    append(decided, d + 1, base + at);
                    continue;
                }
                if (seen == state::kCannotLose) continue;
                // Its counter goes down by the weight; at zero it is lost.
                const int weight = static_cast<int>(updates[k] & ((1 << kWeightBits) - 1));
                if (state::counter(seen) == weight) {
                    states[at] = state::decided(std::max(d + 1, state::floor(seen)));
                    append(decided, state::plies(states[at]), base + at);
                } else {
                    states[at] = static_cast<uint16_t>(seen - weight);
                }
            }
            updates.clear();
        }
    }

    const Variant& variant_;
    const SymmetryClasses& classes_;  // looked up once: the lookup takes a lock
    const SolvedSectors& solved_;
    bool progress_;
    Propagation propagation_;
    MovingWalk moving_walk_;
    int region_bits_;      // of push's regions
    uint64_t push_bytes_;  // for push's buffers
    std::vector<UnitSector> sectors_;
    std::vector<std::unique_ptr<ExchangeTable>> exchanges_;  // by sector, if its mover flies
    uint64_t size_ = 0;
    HugeArray<uint16_t> state_;
    // Every position of the unit places a stone and cannot move (placement
    // sectors of place-only variants): one pass decides all, without
    // counters or layers.
    bool only_placements_ = false;
    std::atomic<bool> has_internal_turns_{false};
    std::atomic<bool> out_of_range_{false};
    Layers decided_, candidates_;
    // By sector: quiet moves counted in the first pass (those of its
    // positions, into the swapped sector), and positions not yet decided.
    std::vector<uint64_t> internal_turns_, undecided_;
    // By thread, then region of states: updates push has listed (their
    // capacity is kept from layer to layer).
    std::vector<std::vector<std::vector<uint32_t>>> bins_;
    // A chunk of a layer being pushed, and the same in order (their capacity
    // is kept too: pages the kernel gives anew cost it a clearing each).
    std::vector<Pushed> unsorted_, pushed_;
};

bool written(const Variant& v, const std::filesystem::path& dir, const SectorKey& key) {
    return std::filesystem::exists(dir / sector_file_name(v.name, key));
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

uint64_t unit_memory(const Variant& v, const SectorGraph& graph, const std::vector<SectorKey>& unit,
                     const SolveOptions& options) {
    auto size = [&](const SectorKey& k) {
        return sector_index(*v.board, k.mover_on_board, k.opponent_on_board).size();
    };
    uint64_t positions = 0;
    for (const SectorKey& k : unit) positions += size(k);
    // Its states, and as much again for its files' compressed blocks, which
    // are held until written (incompressible entries would take as much).
    uint64_t bytes = 2 * sizeof(uint16_t) * positions;
    for (const SectorKey& c : unit_children(graph, unit)) bytes += sizeof(Entry) * size(c);
    if (!only_places(v, unit)) {
        bytes += sizeof(UnitPosition) * positions;  // each enters one layer at most
        // Push's buffers, which grow up to twice push_bytes: a chunk of a
        // layer as found and in order, and an update per un-move.
        constexpr uint64_t kPushBytesPerPosition =
            2 * sizeof(Pushed) + sizeof(uint32_t) * kMostUnmoves;
        bytes += std::min(2 * options.push_bytes, kPushBytesPerPosition * positions);
    }
    return bytes;
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
    PagePool pool;  // outlives the arrays it hands out
    SolvedSectors solved(v, options.directory, pool);
    for (const auto& unit : graph.units) {
        if (std::none_of(unit.begin(), unit.end(), [&](const SectorKey& k) {
                return std::find(wanted.begin(), wanted.end(), k) != wanted.end();
            }))
            continue;
        if (unit_written(unit)) {
            for (const SectorKey& k : unit) report({.key = k, .skipped = true});
            continue;
        }
        if (const uint64_t need = unit_memory(v, graph, unit, options); need > limit)
            throw std::runtime_error(fmt::format(
                "sector {} needs about {:.0f} MiB, more than the memory limit of {:.0f} MiB",
                to_string(unit.front()), need / double(1 << 20), limit / double(1 << 20)));
        const auto started = std::chrono::steady_clock::now();
        const std::vector<SectorKey> children = unit_children(graph, unit);
        solved.keep_only(children);
        for (const SectorKey& c : children) solved.load(c);

        UnitSolver solver(v, unit, solved, options, pool);
        // The unit's arrays are all taken: pages left over would only add to
        // the memory its other buffers take.
        pool.release();
        solver.run();
        {
            const auto entries = solver.finish();
            for (size_t s = 0; s < unit.size(); ++s) {
                const auto path = options.directory / sector_file_name(v.name, unit[s]);
                const SectorFileInfo written =
                    write_sector_file(path, v.name, v.rule_hash(), unit[s], entries[s]);
                SectorReport r{.key = unit[s],
                               .positions = entries[s].size(),
                               .wins = written.wins,
                               .draws = written.draws,
                               .losses = written.losses,
                               .bytes_on_disk = written.file_bytes};
                r.seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                        .count();
                r.peak_memory = peak_memory_bytes();
                report(r);
            }
        }  // the spans of finish() end here: the entries may be kept below
        // The next unit often needs the sector just solved (the units come
        // in depth-first order): nine's run would otherwise read back 19 of
        // the 47 billion entries it loads. The next unit's keep_only drops
        // it when not. Units of two sectors share one array: read back.
        if (unit.size() == 1) solved.adopt(unit.front(), std::move(solver).release_entries());
    }
    return reports;
}

uint64_t verify(const Variant& v, const std::filesystem::path& directory,
                const std::vector<SectorKey>& sectors, bool progress) {
    const SectorGraph graph = sector_graph(v);
    const std::vector<SectorKey> keys = sectors.empty() ? graph.sectors : sectors;
    uint64_t inconsistent = 0;
    PagePool pool;
    for (const SectorKey& key : keys) {
        if (!graph.contains(key))
            throw std::runtime_error("sector " + to_string(key) + " is not a sector of " + v.name);
        SolvedSectors solved(v, directory, pool);
        solved.load(key);
        for (const SectorKey& s : graph.successors.at(key)) solved.load(s);
        const HugeArray<Entry>& stored = solved.entries(key);
        const SectorIndex& index =
            sector_index(*v.board, key.mover_on_board, key.opponent_on_board);
        const Colour side = side_to_move(v, key);
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
                        bool all_wins = true;
                        for (const Turn& t : turns) {
                            Outcome o = solved.lookup(apply_turn(v, p, t));
                            if (o.value == Value::loss && (best_win < 0 || o.plies + 1 < best_win))
                                best_win = o.plies + 1;
                            if (o.value != Value::win)
                                all_wins = false;
                            else
                                longest_loss = std::max(longest_loss, o.plies + 1);
                        }
                        if (best_win > 0)
                            expected = {Value::win, best_win};
                        else if (all_wins)
                            expected = {Value::loss, longest_loss};
                    }
                    if (decode(stored[i]) != expected) bad.fetch_add(1, std::memory_order_relaxed);
                    ++visited;
                });
                bar.advance(visited);
            }
        }
        inconsistent += bad.load();
    }
    return inconsistent;
}

}  // namespace morris
