#include "db/database.hpp"

#include <algorithm>
#include <tuple>

#include "game/turns.hpp"
#include "indexing/perfect_hash.hpp"

namespace morris {
namespace {

// Whether `file` holds its positions' values themselves: all but the WDL
// files that may store less.
bool stored_exactly(const SectorFile& file) { return file.info().code != EntryCode::wdl_at_most; }

}  // namespace

size_t Database::BlockKeyHash::operator()(const BlockKey& k) const {
    uint64_t h = uint64_t{k.sector.mover_on_board} | uint64_t{k.sector.opponent_on_board} << 8 |
                 uint64_t{k.sector.mover_in_hand} << 16 |
                 uint64_t{k.sector.opponent_in_hand} << 24 | uint64_t{k.block} << 32;
    return std::hash<uint64_t>{}(h * 0x9e3779b97f4a7c15ull);
}

Database::Database(std::filesystem::path directory, Variant variant, size_t cache_bytes)
    : directory_(std::move(directory)),
      variant_(std::move(variant)),
      cache_entries_limit_(cache_bytes / sizeof(Entry)) {}

Database::~Database() = default;

const SectorFile& Database::file(const SectorKey& key) const {
    auto& slot = files_[key];
    if (!slot) {
        auto path = directory_ / sector_file_name(variant_.name, key);
        if (!std::filesystem::exists(path))
            throw DatabaseError(path.string() + ": missing (sector " + to_string(key) +
                                " is not in the database)");
        auto opened = SectorFile::open(path, variant_.name, rule_hash(variant_), key);
        const uint64_t size =
            sector_index(*variant_.board, key.mover_on_board, key.opponent_on_board).size();
        if (opened->info().entries != size)
            throw DatabaseError(path.string() + ": holds " +
                                std::to_string(opened->info().entries) + " entries, sector " +
                                to_string(key) + " has " + std::to_string(size) +
                                " (entry count does not match the index: foreign file)");
        slot = std::move(opened);
    }
    return *slot;
}

Database::Block Database::block(const SectorKey& key, uint32_t block) const {
    std::unique_lock lock(mutex_);
    BlockKey id{key, block};
    if (auto it = cached_.find(id); it != cached_.end()) {
        lru_.splice(lru_.begin(), lru_, it->second);
        return it->second->second;
    }
    const SectorFile& f = file(key);
    lock.unlock();  // decompress without holding the lock
    auto entries = std::make_shared<std::vector<Entry>>();
    f.read_block(block, *entries);
    lock.lock();
    if (auto it = cached_.find(id); it != cached_.end()) return it->second->second;
    lru_.emplace_front(id, entries);
    cached_[id] = lru_.begin();
    cached_entries_ += entries->size();
    while (cached_entries_ > cache_entries_limit_ && lru_.size() > 1) {
        cached_entries_ -= lru_.back().second->size();
        cached_.erase(lru_.back().first);
        lru_.pop_back();
    }
    return entries;
}

Database::Located Database::locate(const Position& position) const {
    const SectorKey key = sector_of(position);
    return {position, key,
            sector_index(*variant_.board, key.mover_on_board, key.opponent_on_board)
                .index(stones_of(position))};
}

Database::Stored Database::stored(const Located& p) const {
    const SectorFile& f = [&]() -> const SectorFile& {
        std::lock_guard lock(mutex_);
        return file(p.sector);
    }();
    const uint32_t b = static_cast<uint32_t>(p.index / f.info().block_entries);
    Block entries = block(p.sector, b);
    return {(*entries)[p.index - uint64_t{b} * f.info().block_entries], f};
}

ProbeResult Database::probe(const Position& position) const {
    if (auto why = invalid_reason(variant_, position); !why.empty())
        return {{}, "invalid position: " + why};
    // The side to move with fewer than 3 stones has lost: no file holds these.
    if (position.total(position.side) < kFewestStones) return {{Value::loss, 0}, ""};
    try {
        const Stored s = stored(locate(position));
        if (is_wdl(s.file.info().code))
            return {{},
                    s.file.path().string() +
                        ": holds win, draw or loss only (written by morris compact): "
                        "distances need the full database",
                    true};
        return {decode(s.entry, s.file.info().code), ""};
    } catch (const std::exception& e) {
        return {{}, e.what()};
    }
}

// A WDL file may store, for a position whose value one of its turns that
// remove a stone reaches, any smaller value (solver/compact.hpp): the value
// is the better of the stored one and those turns'. Compact chooses the
// sectors that may (EntryCode::wdl_at_most) so that those turns lead into
// sectors that store exactly: the search is one ply. It asks only "at most this?"
// (a null window), which a stored value above the bound, or one reply
// beating it, answers at once.
bool Database::at_most(const Located& p, Value bound) const {
    if (bound == Value::win || p.position.total(p.position.side) < kFewestStones) return true;
    const Stored s = stored(p);
    if (decode(s.entry, s.file.info().code).value > bound) return false;
    return stored_exactly(s.file) || removals_at_most(p.position, bound);
}

bool Database::removals_at_most(const Position& position, Value bound) const {
    // A turn gives the opposite of the value after it: above `bound` unless
    // the position after it is worth opposite(bound) or more to its side,
    // that is, more than the value just below opposite(bound).
    const Value below_opposite = bound == Value::loss ? Value::draw : Value::loss;
    // Read in the order they are stored, so that replies sharing a block
    // (those removing the same stone, in a placement) decompress it once
    // even when the cache holds less than two blocks: a cold probe reads
    // each block its search needs once.
    std::vector<Located> replies;
    for_each_loud_turn(variant_, position, [&](const Turn& turn) {
        if (turn.removals() == 0) return;
        const Position after = apply_turn(variant_, position, turn);
        // A reply with too few stones is lost: at_most needs no entry for it.
        replies.push_back(after.total(after.side) < kFewestStones ? Located{after, {}, 0}
                                                                  : locate(after));
    });
    std::ranges::sort(replies, [](const Located& a, const Located& b) {
        return std::tie(a.sector, a.index) < std::tie(b.sector, b.index);
    });
    return std::ranges::none_of(replies,
                                [&](const Located& r) { return at_most(r, below_opposite); });
}

Value Database::wdl(const Position& position) const {
    if (position.total(position.side) < kFewestStones) return Value::loss;
    const Stored s = stored(locate(position));
    const Value least = decode(s.entry, s.file.info().code).value;
    if (least == Value::win || stored_exactly(s.file)) return least;
    if (least == Value::loss && removals_at_most(position, Value::loss)) return Value::loss;
    return removals_at_most(position, Value::draw) ? Value::draw : Value::win;
}

WdlResult Database::probe_wdl(const Position& position) const {
    if (auto why = invalid_reason(variant_, position); !why.empty())
        return {{}, "invalid position: " + why};
    try {
        return {wdl(position), ""};
    } catch (const std::exception& e) {
        return {{}, e.what()};
    }
}

}  // namespace morris
