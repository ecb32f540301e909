#include "db/database.hpp"

#include "indexing/perfect_hash.hpp"

namespace morris {

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
        slot = SectorFile::open(path, variant_.name, rule_hash(variant_), key);
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

ProbeResult Database::probe(const Position& position) const {
    if (auto why = invalid_reason(variant_, position); !why.empty())
        return {{}, "invalid position: " + why};
    // The side to move with fewer than 3 stones has lost: no file holds these.
    if (position.total(position.side) < kFewestStones) return {{Value::loss, 0}, ""};
    try {
        const SectorKey key = sector_of(position);
        const SectorIndex& index =
            sector_index(*variant_.board, key.mover_on_board, key.opponent_on_board);
        const uint64_t i = index.index(stones_of(position));
        const SectorFile& f = [&]() -> const SectorFile& {
            std::lock_guard lock(mutex_);
            return file(key);
        }();
        if (f.info().entries != index.size())
            throw DatabaseError((directory_ / sector_file_name(variant_.name, key)).string() +
                                ": holds " + std::to_string(f.info().entries) +
                                " entries, sector " + to_string(key) + " has " +
                                std::to_string(index.size()) +
                                " (entry count does not match the index: foreign file)");
        const uint32_t b = static_cast<uint32_t>(i / f.info().block_entries);
        Block entries = block(key, b);
        return {decode((*entries)[i - uint64_t{b} * f.info().block_entries], f.info().code), ""};
    } catch (const std::exception& e) {
        return {{}, e.what()};
    }
}

}  // namespace morris
