#include "solver/prove.hpp"

#include <fmt/core.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>

#include "db/sector_file.hpp"
#include "game/notation.hpp"
#include "game/turns.hpp"
#include "indexing/perfect_hash.hpp"
#include "solver/progress.hpp"
#include "solver/sector_graph.hpp"
#include "solver/solve.hpp"

namespace morris {
namespace {

constexpr int kMaxExamples = 5;

int score(Value v) { return v == Value::win ? 1 : v == Value::loss ? -1 : 0; }

bool in_placement(const Position& p) { return p.in_hand[white] > 0 || p.in_hand[black] > 0; }

// The values (win, draw or loss: no distances) of the sectors' positions,
// two bits a position, read a file block at a time on first use. The search
// asks for millions of positions all over the placement phase: a block
// cache would decompress a block for most of them, and whole sectors would
// not fit (twelve's values take 28 GB), while the blocks the search meets
// do. The moving-phase sectors' blocks (the leaves, whose values the proof
// takes as exact) are always read; the placement sectors' (only hints for
// the order of the search) are read until `hint_budget` bytes of them are
// in memory, and after that their positions have no rating.
class SectorValues {
    struct Slot;

  public:
    SectorValues(const Variant& v, const std::vector<SectorKey>& sectors,
                 std::filesystem::path directory, uint64_t hint_budget)
        : variant_(v), directory_(std::move(directory)), slots_(kSlots), hint_budget_(hint_budget) {
        for (const SectorKey& k : sectors) {
            auto slot = std::make_unique<Slot>();
            slot->key = k;
            slot->index = &sector_index(*v.board, k.mover_on_board, k.opponent_on_board);
            slot->number = static_cast<uint16_t>(slot_number(k));
            slots_[slot->number] = std::move(slot);
        }
    }

    // Where a position (whose side to move has at least three stones) is.
    struct Place {
        Slot* sector;
        uint64_t index;
        // Unique to the position's symmetry class, below 2^56; never 0, as
        // every sector has a stone somewhere.
        uint64_t key() const { return index << 16 | sector->number; }
    };
    Place place(const Position& p) const {
        Slot& s = slot(sector_of(p));
        return {&s, s.index->index(stones_of(p))};
    }

    // The position's score; nothing when its sector file is missing, or
    // when it is a placement sector's and its block would pass the budget.
    std::optional<int> score_at(const Place& place) const {
        Slot& s = *place.sector;
        std::call_once(s.opened, [&] { open(s); });
        if (!s.file) return std::nullopt;
        const uint64_t block_entries = s.file->info().block_entries;
        const uint64_t i = place.index % block_entries;
        const uint64_t* words =
            s.blocks[place.index / block_entries].load(std::memory_order_acquire);
        if (!words && !(words = read_block(s, place.index / block_entries))) return std::nullopt;
        return static_cast<int>(words[i / kPerWord] >> (i % kPerWord * kBits) & kMask) - 1;
    }
    std::string missing(const Position& p) const {
        return (directory_ / sector_file_name(variant_.name, sector_of(p))).string() +
               ": missing (the proof needs every moving-phase sector it reaches)";
    }

    uint64_t leaf_bytes() const { return leaf_bytes_; }
    uint64_t hint_bytes() const { return hint_bytes_; }
    // Look-ups of placement positions whose block did not fit the budget
    // (a position may be looked up more than once).
    uint64_t hints_refused() const { return hints_refused_; }

    // What a sector's values take once every block of it is read.
    static uint64_t bytes_of(uint64_t positions) {
        return (positions + kPerWord - 1) / kPerWord * sizeof(uint64_t);
    }

  private:
    static constexpr int kBits = 2;  // score + 1: 0 loss, 1 draw, 2 win
    static constexpr uint64_t kMask = 3;
    static constexpr uint64_t kPerWord = 64 / kBits;
    // Slots by sector key, a nibble a count: counts stay below 16.
    static constexpr int kNibble = 4;
    static constexpr size_t kSlots = size_t{1} << (4 * kNibble);

    struct Slot {
        SectorKey key;
        const SectorIndex* index = nullptr;
        uint16_t number;  // in slots_
        std::once_flag opened;
        std::unique_ptr<SectorFile> file;  // null when the file is missing
        // By block: its values once read, for lock-free lookups; `owned`
        // holds them, appended to under `reading`.
        std::vector<std::atomic<const uint64_t*>> blocks;
        std::mutex reading;
        std::vector<std::unique_ptr<uint64_t[]>> owned;
    };

    static size_t slot_number(const SectorKey& k) {
        return size_t{k.mover_on_board} << 3 * kNibble |
               size_t{k.opponent_on_board} << 2 * kNibble | size_t{k.mover_in_hand} << kNibble |
               k.opponent_in_hand;
    }
    Slot& slot(const SectorKey& k) const {
        Slot* s = slots_[slot_number(k)].get();
        if (!s) throw std::logic_error("position in no sector of " + variant_.name);
        return *s;
    }

    void open(Slot& s) const {
        const auto path = directory_ / sector_file_name(variant_.name, s.key);
        if (!std::filesystem::exists(path)) return;
        auto file = SectorFile::open(path, variant_.name, rule_hash(variant_), s.key);
        if (file->info().entries != s.index->size())
            throw DatabaseError(path.string() + ": entry count does not match the index");
        s.blocks = std::vector<std::atomic<const uint64_t*>>(file->info().blocks);
        s.file = std::move(file);
    }

    // Reads block b of s into memory, or returns null when it is a hint
    // that the budget has no room for. The slot's lock is held while the
    // block is read: another thread that wants it waits rather than reads
    // it too, and threads seldom want the same sector at once.
    const uint64_t* read_block(Slot& s, uint64_t b) const {
        const bool hint = s.key.mover_in_hand + s.key.opponent_in_hand > 0;
        if (hint && budget_spent_.load(std::memory_order_relaxed)) return refuse();
        std::lock_guard lock(s.reading);
        if (const uint64_t* words = s.blocks[b].load(std::memory_order_relaxed)) return words;
        const SectorFileInfo& info = s.file->info();
        const uint64_t first = b * info.block_entries;
        const uint64_t bytes =
            bytes_of(std::min<uint64_t>(info.block_entries, info.entries - first));
        if (hint && (hint_bytes_ += bytes) > hint_budget_) {
            hint_bytes_ -= bytes;
            budget_spent_ = true;
            return refuse();
        }
        if (!hint) leaf_bytes_ += bytes;
        thread_local std::vector<Entry> entries;
        s.file->read_block(static_cast<uint32_t>(b), entries);
        auto words = std::make_unique<uint64_t[]>(bytes / sizeof(uint64_t));
        for (size_t i = 0; i < entries.size(); ++i)
            words[i / kPerWord] |=
                static_cast<uint64_t>(score(decode(entries[i], info.code).value) + 1)
                << (i % kPerWord * kBits);
        s.blocks[b].store(words.get(), std::memory_order_release);
        s.owned.push_back(std::move(words));
        return s.owned.back().get();
    }
    const uint64_t* refuse() const {
        hints_refused_.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }

    const Variant& variant_;
    std::filesystem::path directory_;
    std::vector<std::unique_ptr<Slot>> slots_;
    const uint64_t hint_budget_;
    mutable std::atomic<uint64_t> leaf_bytes_{0}, hint_bytes_{0}, hints_refused_{0};
    mutable std::atomic<bool> budget_spent_{false};
};

// What the search proved, by position and threshold: a fixed table of words
// that threads read and write without locks. A full neighbourhood evicts,
// which only costs searching a position again.
class ProofTable {
  public:
    explicit ProofTable(uint64_t capacity)
        : shift_(64 - std::countr_zero(std::bit_ceil(capacity))),
          mask_(std::bit_ceil(capacity) - 1),
          slots_(mask_ + 1) {}

    std::optional<bool> find(uint64_t key) const {
        const uint64_t tag = tag_of(key);
        for (int probe = 0; probe < kProbes; ++probe) {
            const uint64_t word = slot(key, probe).load(std::memory_order_relaxed);
            if ((word & ~kHolds) == tag) return (word & kHolds) != 0;
            if (word == 0) return std::nullopt;
        }
        return std::nullopt;
    }
    void store(uint64_t key, bool holds) {
        const uint64_t word = tag_of(key) | (holds ? kHolds : 0);
        for (int probe = 0; probe < kProbes; ++probe) {
            std::atomic<uint64_t>& s = slot(key, probe);
            uint64_t seen = 0;
            if (s.compare_exchange_strong(seen, word, std::memory_order_relaxed) ||
                (seen & ~kHolds) == tag_of(key))
                return;
        }
        slot(key, 0).store(word, std::memory_order_relaxed);
    }

  private:
    static constexpr int kProbes = 8;
    static constexpr uint64_t kHolds = 1;
    static constexpr uint64_t kMixer = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio
    // Keys are whole: a tag is the key moved up past the result bit, and
    // never 0 (a key has its threshold or sector bits set).
    static uint64_t tag_of(uint64_t key) { return key << 1; }
    std::atomic<uint64_t>& slot(uint64_t key, int probe) const {
        // The product's top bits depend on all of the key's.
        return slots_[(((key * kMixer) >> shift_) + probe) & mask_];
    }

    int shift_;
    uint64_t mask_;
    mutable std::vector<std::atomic<uint64_t>> slots_;
};

// Null-window tests over win (1), draw (0) and loss (-1): "is the value at
// least t?", for t = 0 (not lost) and t = 1 (won); the start's value takes
// two (Pearl's Test, as in SCOUT). A test holds when some child's value is at
// most -t, which is the child's test for 1 - t failing: an OR over children
// whose opposite is an AND over grandchildren, down to the moving-phase
// leaves, whose values are the only ones the proof takes from the database.
//
// The placement sectors only order the children: those rated at most -t
// first, each searched as soon as it is found, so that an OR node usually
// probes and searches one child. Otherwise children come in the turn
// generator's point order, which makes a side's replies depend on the stones
// more than on the order they came in, so the search meets positions again.
// A wrong rating costs time, not soundness. Children of a node that should
// fail (an AND node, all of whose children must be searched) are searched in
// parallel near the root.
class PlacementSearch {
  public:
    PlacementSearch(const Variant& v, const SectorValues& values, uint64_t table_capacity,
                    Progress& progress, uint64_t max_nodes)
        : variant_(v),
          values_(values),
          table_(table_capacity),
          progress_(progress),
          max_nodes_(max_nodes) {
        const Position start = start_position(v);
        stones_to_place_ = start.in_hand[white] + start.in_hand[black];
    }

    // `rated` is the database's score of p when the caller looked it up.
    bool at_least(const Position& p, int t, std::optional<int> rated) {
        if (stopped_.load(std::memory_order_relaxed)) return false;
        if (!in_placement(p)) return leaf(p) >= t;
        switch (status(variant_, p)) {
            case Status::loss: return -1 >= t;
            case Status::draw: return 0 >= t;
            case Status::playing: break;
        }
        const SectorValues::Place place = values_.place(p);
        const uint64_t key = place.key() << 1 | static_cast<uint64_t>(t > 0);
        if (auto known = table_.find(key)) return *known;
        if (!count_node()) return false;

        const bool holds = some_child_at_most(p, -t);
        if (stopped_.load(std::memory_order_relaxed)) return false;
        table_.store(key, holds);
        check(p, place, t, holds, rated);
        return holds;
    }

    // Stops the search for an exception, to be rethrown once it has ended.
    void stop_with(std::exception_ptr error) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::move(error);
        stopped_ = true;
    }
    bool stopped() const { return stopped_; }
    std::exception_ptr error() const { return error_; }

    void fill(ProofReport& r) const {
        r.nodes = std::min(nodes_.load(), max_nodes_ > 0 ? max_nodes_ : ~uint64_t{0});
        r.leaf_probes = leaf_probes_;
        r.checked = checked_;
        r.disagreements = disagreements_;
        r.examples = examples_;
    }

  private:
    static constexpr uint64_t kProgressStep = 1024;
    // AND nodes this close to the start hand their children to other threads.
    static constexpr int kParallelPlies = 4;

    bool count_node() {
        const uint64_t n = nodes_.fetch_add(1, std::memory_order_relaxed) + 1;
        if (max_nodes_ > 0 && n > max_nodes_) {
            stopped_ = true;
            return false;
        }
        if (n % kProgressStep == 0) progress_.advance(kProgressStep);
        return true;
    }

    bool some_child_at_most(const Position& p, int bound) {
        std::vector<Turn> turns;
        generate_turns(variant_, p, turns);
        std::vector<std::pair<Position, std::optional<int>>> doubtful;
        for (const Turn& turn : turns) {
            const Position child = apply_turn(variant_, p, turn);
            if (!in_placement(child)) {  // a leaf: its value is exact
                if (leaf(child) <= bound) return true;
                continue;
            }
            const std::optional<int> rated = rating(child);
            if (rated && *rated > bound) {
                doubtful.emplace_back(child, rated);
                continue;
            }
            if (!at_least(child, bound + 1, rated)) return true;
        }
        if (plies(p) < kParallelPlies && doubtful.size() > 1) {
            std::atomic<bool> found{false};
            for (const auto& candidate : doubtful) {
                const Position child = candidate.first;
                const std::optional<int> rated = candidate.second;
#pragma omp task firstprivate(child, rated, bound) shared(found)
                try {
                    if (!found.load(std::memory_order_relaxed) &&
                        !at_least(child, bound + 1, rated))
                        found = true;
                } catch (...) {
                    stop_with(std::current_exception());
                }
            }
#pragma omp taskwait
            return found;
        }
        for (const auto& [child, rated] : doubtful)
            if (!at_least(child, bound + 1, rated)) return true;
        return false;
    }

    int plies(const Position& p) const {
        return stones_to_place_ - p.in_hand[white] - p.in_hand[black];
    }

    // The database's score of a placement position reached by a turn, a
    // hint (nothing when the sector file is missing: placement sectors are
    // optional for the proof).
    std::optional<int> rating(const Position& p) {
        if (p.total(p.side) < kFewestStones) return -1;
        return values_.score_at(values_.place(p));
    }

    int leaf(const Position& p) {
        if (p.total(p.side) < kFewestStones) return -1;
        leaf_probes_.fetch_add(1, std::memory_order_relaxed);
        const std::optional<int> s = values_.score_at(values_.place(p));
        if (!s) throw DatabaseError(values_.missing(p));
        return *s;
    }

    // The stored value must be on the side of t the search proved.
    void check(const Position& p, const SectorValues::Place& place, int t, bool holds,
               std::optional<int> rated) {
        if (!rated) rated = values_.score_at(place);
        if (!rated) return;
        checked_.fetch_add(1, std::memory_order_relaxed);
        if ((*rated >= t) == holds) return;
        disagreements_.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(mutex_);
        if (examples_.size() < kMaxExamples)
            examples_.push_back(
                fmt::format("{}: the search proved its value {} {}, the database "
                            "says {}",
                            to_string(variant_, p), holds ? ">=" : "<", t > 0 ? "win" : "draw",
                            *rated > 0   ? "win"
                            : *rated < 0 ? "loss"
                                         : "draw"));
    }

    const Variant& variant_;
    const SectorValues& values_;
    ProofTable table_;
    Progress& progress_;
    uint64_t max_nodes_;
    int stones_to_place_;  // at the start
    std::atomic<bool> stopped_{false};
    std::atomic<uint64_t> nodes_{0}, leaf_probes_{0}, checked_{0}, disagreements_{0};
    std::mutex mutex_;
    std::vector<std::string> examples_;
    std::exception_ptr error_;
};

constexpr uint64_t kFewestSlots = uint64_t{1} << 16, kMostSlots = uint64_t{1} << 28;

// Room for every placement position under both thresholds, within bounds:
// a proof of nine meets a few hundred million positions.
uint64_t proof_table_capacity(const Variant& v, const std::vector<SectorKey>& sectors) {
    uint64_t placement = 0;
    for (const SectorKey& k : sectors)
        if (k.mover_in_hand + k.opponent_in_hand > 0)
            placement += orbit_count(*v.board, k.mover_on_board, k.opponent_on_board);
    return std::clamp(2 * placement, kFewestSlots, kMostSlots);
}

// The most the leaves' values may take: every moving-phase sector's, read
// whole, and a pointer per block of every sector (at the default block
// size, which files written by morris solve have).
uint64_t leaf_bytes(const Variant& v, const std::vector<SectorKey>& sectors) {
    uint64_t bytes = 0;
    for (const SectorKey& k : sectors) {
        const uint64_t positions = orbit_count(*v.board, k.mover_on_board, k.opponent_on_board);
        if (k.mover_in_hand + k.opponent_in_hand == 0) bytes += SectorValues::bytes_of(positions);
        bytes += (positions / kDefaultBlockEntries + 1) * sizeof(void*);
    }
    return bytes;
}

}  // namespace

ProofReport prove(const Database& db, bool progress_line, uint64_t max_nodes,
                  uint64_t memory_limit) {
    const Variant& v = db.variant();
    if (v.rules.placement != Placement::place_only)
        throw std::runtime_error(
            "prove needs a place-only variant: under place-or-move the "
            "placement phase has cycles that alpha-beta cannot settle");
    const uint64_t limit = memory_limit ? memory_limit : default_memory_limit();
    const std::vector<SectorKey> sectors = sector_graph(v).sectors;
    const uint64_t leaves = leaf_bytes(v, sectors);
    constexpr uint64_t kSlotBytes = sizeof(uint64_t);
    uint64_t capacity = proof_table_capacity(v, sectors);
    while (capacity > kFewestSlots && leaves + capacity * kSlotBytes > limit) capacity /= 2;
    if (leaves + capacity * kSlotBytes > limit)
        throw std::runtime_error(fmt::format(
            "prove for {} needs about {:.0f} MiB, more than the memory limit of {:.0f} MiB", v.name,
            (leaves + capacity * kSlotBytes) / double(1 << 20), limit / double(1 << 20)));
    // What is left holds the placement sectors' values the search meets.
    SectorValues values(v, sectors, db.directory(), limit - leaves - capacity * kSlotBytes);
    Progress progress(v.name + " prove: placement positions", 0, progress_line);
    PlacementSearch search(v, values, capacity, progress, max_nodes);
    const Position start = start_position(v);
    int value = 0;
#pragma omp parallel default(none) shared(search, start, value)
#pragma omp single
    try {
        value = search.at_least(start, 1, std::nullopt)   ? 1
                : search.at_least(start, 0, std::nullopt) ? 0
                                                          : -1;
    } catch (...) {
        search.stop_with(std::current_exception());
    }
    if (search.error()) std::rethrow_exception(search.error());
    ProofReport report;
    search.fill(report);
    report.complete = !search.stopped();
    report.value = value > 0 ? Value::win : value < 0 ? Value::loss : Value::draw;
    report.leaf_bytes = values.leaf_bytes();
    report.hint_bytes = values.hint_bytes();
    report.hints_refused = values.hints_refused();
    return report;
}

}  // namespace morris
