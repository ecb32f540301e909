// The lookup library: open a solved database directory, probe any position.
//
//   morris::Database db("db-nine", morris::find_variant("nine"));
//   morris::ProbeResult r = db.probe(position);
//   if (r.ok()) use(r.outcome); else report(r.error);
//   morris::WdlResult w = db.probe_wdl(position);  // also on WDL-only files
//
// Symmetry and colour are handled inside; every error is a result naming
// the file and the problem, never a crash. Thread-safe.
#pragma once

#include <cstddef>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "db/sector_file.hpp"
#include "db/value.hpp"
#include "game/variant.hpp"

namespace morris {

struct ProbeResult {
    Outcome outcome;
    std::string error;  // empty on success
    // The error is that the file holds win, draw or loss only (morris compact).
    bool needs_full_database = false;
    bool ok() const { return error.empty(); }
};

struct WdlResult {
    Value value = Value::draw;
    std::string error;  // empty on success
    bool ok() const { return error.empty(); }
};

class Database {
  public:
    static constexpr size_t kDefaultCacheBytes = size_t{64} << 20;

    Database(std::filesystem::path directory, Variant variant,
             size_t cache_bytes = kDefaultCacheBytes);
    ~Database();

    // The value and distance; an error on files written by `morris compact`,
    // which hold win, draw or loss only.
    ProbeResult probe(const Position& position) const;
    // The value only, from full or WDL-only files; under the N-move rule, at
    // counter 0.
    WdlResult probe_wdl(const Position& position) const;

    const Variant& variant() const { return variant_; }
    const std::filesystem::path& directory() const { return directory_; }

  private:
    struct BlockKey {
        SectorKey sector;
        uint32_t block;
        bool operator==(const BlockKey&) const = default;
    };
    struct BlockKeyHash {
        size_t operator()(const BlockKey& k) const;
    };
    using Block = std::shared_ptr<const std::vector<Entry>>;

    const SectorFile& file(const SectorKey& key) const;  // opens on first use
    Block block(const SectorKey& key, uint32_t block) const;
    // A valid position where its entry is: ranked once, however often read.
    struct Located {
        Position position;
        SectorKey sector;
        uint64_t index = 0;
    };
    Located locate(const Position& position) const;
    // A located position's stored entry and its file; throws DatabaseError.
    struct Stored {
        Entry entry;
        const SectorFile& file;
    };
    Stored stored(const Located& position) const;
    // The rest throw DatabaseError.
    Value wdl(const Position& position) const;
    // Whether a located position's value is at most `bound`.
    bool at_most(const Located& position, Value bound) const;
    // Whether no turn of `position` that removes a stone gives it more than
    // `bound`, which is below win.
    bool removals_at_most(const Position& position, Value bound) const;

    std::filesystem::path directory_;
    Variant variant_;
    size_t cache_entries_limit_;

    mutable std::mutex mutex_;
    mutable std::map<SectorKey, std::unique_ptr<SectorFile>> files_;
    // Least recently used blocks at the back.
    mutable std::list<std::pair<BlockKey, Block>> lru_;
    mutable std::unordered_map<BlockKey, decltype(lru_)::iterator, BlockKeyHash> cached_;
    mutable size_t cached_entries_ = 0;
};

}  // namespace morris
