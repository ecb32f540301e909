// The solved sectors a unit reads (its children), held in memory whole for
// looking up its successors' values; and a small cache of the two last asked
// for. The driver (solve.cpp) loads them, the first pass (first_pass.hpp)
// and verify (verify.hpp) read them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "db/sector_writer.hpp"
#include "db/value.hpp"
#include "game/position.hpp"
#include "game/sector.hpp"
#include "game/variant.hpp"
#include "indexing/huge_array.hpp"
#include "indexing/perfect_hash.hpp"

namespace morris {

// How children's entries are held.
enum class ChildView : uint8_t {
    stored,  // as their files hold them
    // As a resetting turn into them sees them under the N-move rule (see
    // Distances in unit.hpp): a loss 3, a win 2, a draw 0, whatever the plies.
    reset,
};

// A child as ChildView::reset holds it: lost (odd, as a loss in both entry
// codes) or won, whatever its plies.
inline constexpr Entry kResetLost = 3, kResetWon = 2;

// Solved sectors held in memory, for looking up successors' values. A unit
// has a handful of them: a flat list searched linearly beats a map here.
class SolvedSectors {
  public:
    // Their arrays' memory comes from `pool` and goes back to it.
    SolvedSectors(const Variant& v, std::filesystem::path directory, PagePool& pool,
                  ChildView view = ChildView::stored)
        : variant_(v), directory_(std::move(directory)), pool_(&pool), view_(view) {}

    // Whether `key` is held, so that load reads no file.
    bool holds(const SectorKey& key) const { return find(key) != nullptr; }
    void load(const SectorKey& key) {
        if (holds(key)) return;
        auto file = SectorFile::open(directory_ / sector_file_name(variant_.name, key),
                                     variant_.name, rule_hash(variant_), key);
        const SectorIndex& index =
            sector_index(*variant_.board, key.mover_on_board, key.opponent_on_board);
        if (file->info().entries != index.size())
            throw DatabaseError(to_string(key) + ": entry count does not match the index");
        if (file->info().code != entry_code(variant_))
            throw DatabaseError(file->path().string() +
                                ": holds win, draw or loss only (morris compact); the solver "
                                "needs the full database");
        HugeArray<Entry> entries(index.size(), kUninitialized, pool_);
        read_whole_sector(*file, entries);  // every entry, in parallel
        view(entries);
        tables_.push_back({key, &index, std::move(entries)});
    }
    // A sector just solved, kept rather than read back from its file.
    void adopt(const SectorKey& key, HugeArray<Entry> entries) {
        if (find(key)) return;
        view(entries);
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

    // The stored outcome of a position (ChildView::stored).
    Outcome lookup(const Position& p) const {
        if (p.total(p.side) < kFewestStones) return {Value::loss, 0};
        const Table& t = table_of(p);
        return decode(t.entries[t.index->index(stones_of(p))], entry_code(variant_));
    }

  private:
    void view(HugeArray<Entry>& entries) const {
        if (view_ == ChildView::stored) return;
#pragma omp parallel for schedule(static) if (entries.size() > (1 << 16))
        for (size_t i = 0; i < entries.size(); ++i)
            entries[i] = entries[i] == kDrawEntry ? kDrawEntry
                         : entries[i] % 2         ? kResetLost
                                                  : kResetWon;
    }

    const Table* find(const SectorKey& key) const {
        for (const Table& t : tables_)
            if (t.key == key) return &t;
        return nullptr;
    }

    const Variant& variant_;
    std::filesystem::path directory_;
    PagePool* pool_;
    ChildView view_;
    std::vector<Table> tables_;
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
            keys[1] = keys[0], tables[1] = tables[0], keys[0] = key, tables[0] = &solved.table(key);
        return *tables[0];
    }
};

}  // namespace morris
