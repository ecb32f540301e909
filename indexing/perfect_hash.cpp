#include "indexing/perfect_hash.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace morris {

SymmetryClasses::SymmetryClasses(const Board& board)
    : board_(&board),
      class_of_(board.points + 1),
      representatives_(board.points + 1),
      stabilisers_(board.points + 1),
      byte_images_(board.symmetries.size()) {
    const int n = static_cast<int>(board.symmetries.size());
    for (int s = 0; s < n; ++s)
        for (int byte = 0; byte < 3; ++byte)
            for (Bitboard value = 0; value < 256; ++value)
                byte_images_[s][byte][value] =
                    board.transform((value << (8 * byte)) & board.all(), board.symmetries[s]);

    std::vector<int> inverse(n);
    for (int s = 0; s < n; ++s)
        for (int t = 0; t < n; ++t) {
            bool identity = true;
            for (int p = 0; p < board.points; ++p)
                identity &= board.symmetries[t][board.symmetries[s][p]] == p;
            if (identity) inverse[s] = t;
        }

    // Walking the sets in increasing order meets each class first at its
    // smallest member, which is therefore the representative.
    constexpr uint32_t kUnset = ~0u;
    for (int size = 0; size <= board.points; ++size)
        class_of_[size].assign(binomial[board.points][size], kUnset);
    for (Bitboard set = 0; set <= board.all(); ++set) {
        int size = std::popcount(set);
        if (class_of_[size][colex().rank(set)] != kUnset) continue;
        uint32_t found = static_cast<uint32_t>(representatives_[size].size());
        representatives_[size].push_back(set);
        uint16_t stabiliser = 0;
        for (int s = 0; s < n; ++s) {
            Bitboard image = transform(set, s);
            if (image == set) stabiliser |= 1u << s;
            // s takes the representative to `image`, so its inverse takes `image` back.
            uint32_t& entry = class_of_[size][colex().rank(image)];
            if (entry == kUnset) entry = found << kSymmetryBits | static_cast<uint32_t>(inverse[s]);
        }
        stabilisers_[size].push_back(stabiliser);
        if (set == board.all()) break;
    }

    // Re-rank each size's classes: asymmetric first, order kept within each group.
    asymmetric_counts_.resize(board.points + 1);
    for (int size = 0; size <= board.points; ++size) {
        auto& reps = representatives_[size];
        auto& stabs = stabilisers_[size];
        std::vector<uint32_t> order(reps.size());
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        auto symmetric_at = std::stable_partition(order.begin(), order.end(),
                                                  [&](uint32_t i) { return stabs[i] == 1; });
        asymmetric_counts_[size] = static_cast<uint32_t>(symmetric_at - order.begin());
        std::vector<uint32_t> new_rank(order.size());
        std::vector<Bitboard> sorted_reps(order.size());
        std::vector<uint16_t> sorted_stabs(order.size());
        for (uint32_t r = 0; r < order.size(); ++r) {
            new_rank[order[r]] = r;
            sorted_reps[r] = reps[order[r]];
            sorted_stabs[r] = stabs[order[r]];
        }
        reps = std::move(sorted_reps);
        stabs = std::move(sorted_stabs);
        for (uint32_t& entry : class_of_[size])
            entry = new_rank[entry >> kSymmetryBits] << kSymmetryBits | (entry & kSymmetryMask);
    }
}

const SymmetryClasses& symmetry_classes(const Board& board) {
    static std::mutex mutex;
    static std::map<const Board*, std::unique_ptr<SymmetryClasses>> cache;
    std::lock_guard lock(mutex);
    auto& slot = cache[&board];
    if (!slot) slot = std::make_unique<SymmetryClasses>(board);
    return *slot;
}

SectorIndex::SectorIndex(const SymmetryClasses& classes, int mover_stones, int opponent_stones)
    : classes_(&classes), mover_stones_(mover_stones), opponent_stones_(opponent_stones) {
    const Board& board = classes.board();
    const int free_points = board.points - mover_stones;
    if (mover_stones < 0 || opponent_stones < 0 || free_points < opponent_stones)
        throw std::invalid_argument("no sector with " + std::to_string(mover_stones) + " and " +
                                    std::to_string(opponent_stones) + " stones on board " +
                                    board.name);
    representatives_ = &classes.representatives(mover_stones);
    block_size_ = binomial[free_points][opponent_stones];
    asymmetric_count_ = classes.asymmetric_count(mover_stones);
    size_ = uint64_t{asymmetric_count_} * block_size_;
    subset_of_rank_.resize(block_size_);
    uint32_t subset = (1u << opponent_stones) - 1;
    for (uint32_t& entry : subset_of_rank_) entry = subset, subset = next_subset(subset);

    const uint64_t words = (block_size_ + 63) / 64;
    for (uint32_t b = asymmetric_count_; b < block_count(); ++b) {
        SymmetricBlock block{size_, classes.stabiliser(mover_stones, b),
                             static_cast<uint32_t>(canonical_bits_.size())};
        canonical_bits_.resize(canonical_bits_.size() + words, 0);
        bits_before_.resize(canonical_bits_.size(), 0);
        const Bitboard free = board.all() & ~(*representatives_)[b];
        uint32_t packed = (1u << opponent_stones) - 1;
        uint64_t canonical_count = 0;
        for (uint64_t r = 0; r < block_size_; ++r, packed = next_subset(packed)) {
            // Canonical: no symmetry fixing the mover's stones makes it smaller.
            Bitboard opponent = deposit_bits(packed, free);
            bool smallest = true;
            for (uint32_t s = block.stabiliser & (block.stabiliser - 1); s; s &= s - 1)
                smallest &= classes.transform(opponent, std::countr_zero(s)) >= opponent;
            if (!smallest) continue;
            canonical_bits_[block.bitmap_word + r / 64] |= uint64_t{1} << (r % 64);
            ++canonical_count;
        }
        uint32_t running = 0;
        for (uint64_t w = 0; w < words; ++w) {
            bits_before_[block.bitmap_word + w] = running;
            running += std::popcount(canonical_bits_[block.bitmap_word + w]);
        }
        symmetric_blocks_.push_back(block);
        size_ += canonical_count;
    }
}

uint64_t SectorIndex::block_begin(uint32_t block) const {
    return block < asymmetric_count_ ? block * block_size_ : symmetric_block(block).first_index;
}

uint64_t SectorIndex::symmetric_slot(const SymmetricBlock& block, Bitboard free,
                                     Bitboard opponent) const {
    Bitboard smallest = opponent;
    for (uint32_t s = block.stabiliser & (block.stabiliser - 1); s; s &= s - 1)
        smallest = std::min(smallest, classes_->transform(opponent, std::countr_zero(s)));
    uint64_t r = colex().rank(extract_bits(smallest, free));
    uint64_t word = block.bitmap_word + r / 64;
    uint64_t below = canonical_bits_[word] & ((uint64_t{1} << (r % 64)) - 1);
    return block.first_index + bits_before_[word] + std::popcount(below);
}

uint64_t SectorIndex::index(Stones stones) const {
    return index_in_class(classes_->class_of(stones.mover), stones);
}

void SectorIndex::index_many(std::span<const Stones> stones, std::span<uint64_t> indices) const {
    // Enough lookups in flight to hide the latency of the class tables.
    constexpr size_t kBatch = 16;
    const uint32_t* entries[kBatch];
    for (size_t first = 0; first < stones.size(); first += kBatch) {
        const size_t n = std::min(kBatch, stones.size() - first);
        for (size_t i = 0; i < n; ++i) {
            entries[i] = classes_->class_entry(stones[first + i].mover);
            __builtin_prefetch(entries[i]);
        }
        for (size_t i = 0; i < n; ++i)
            indices[first + i] =
                index_in_class(SymmetryClasses::decode(*entries[i]), stones[first + i]);
    }
}

uint64_t SectorIndex::index_in_class(SymmetryClasses::Class c, Stones stones) const {
    const auto [block, symmetry] = c;
    const Bitboard free = classes_->board().all() & ~classes_->transform(stones.mover, symmetry);
    const Bitboard opponent = classes_->transform(stones.opponent, symmetry);
    if (block < asymmetric_count_)
        return block * block_size_ + colex().rank(extract_bits(opponent, free));
    return symmetric_slot(symmetric_block(block), free, opponent);
}

Stones SectorIndex::stones_at(uint64_t index) const {
    uint32_t block;
    uint64_t slot;
    if (index < uint64_t{asymmetric_count_} * block_size_) {
        block = static_cast<uint32_t>(index / block_size_);
        slot = index - block * block_size_;
    } else {
        auto after =
            std::upper_bound(symmetric_blocks_.begin(), symmetric_blocks_.end(), index,
                             [](uint64_t i, const SymmetricBlock& b) { return i < b.first_index; });
        const SymmetricBlock& b = *(after - 1);
        block = asymmetric_count_ + static_cast<uint32_t>(after - 1 - symmetric_blocks_.begin());
        // The slot is the n-th set bit of the block's bitmap.
        uint64_t n = index - b.first_index;
        const uint32_t* before = &bits_before_[b.bitmap_word];
        const uint64_t words = (block_size_ + 63) / 64;
        uint64_t w = std::upper_bound(before, before + words, n) - before - 1;
        slot = w * 64 +
               select_bit(canonical_bits_[b.bitmap_word + w], static_cast<int>(n - before[w]));
    }
    const Bitboard mover = (*representatives_)[block];
    const Bitboard free = classes_->board().all() & ~mover;
    return {mover, deposit_bits(subset_of_rank_[slot], free)};
}

int SectorIndex::stabiliser_size(uint64_t index) const {
    if (index < uint64_t{asymmetric_count_} * block_size_) return 1;
    const Stones s = stones_at(index);
    const uint32_t fixing_mover =
        classes_->stabiliser(mover_stones_, classes_->class_of(s.mover).rank);
    int count = 0;
    for (uint32_t m = fixing_mover; m; m &= m - 1)
        count += classes_->transform(s.opponent, std::countr_zero(m)) == s.opponent;
    return count;
}

uint64_t orbit_count(const Board& board, int mover, int opponent) {
    // A symmetry fixes a placement when each of its cycles is all mover, all
    // opponent or all empty: count those by dynamic programming over cycles.
    uint64_t fixed = 0;
    for (const Permutation& perm : board.symmetries) {
        std::vector<std::vector<uint64_t>> ways(mover + 1, std::vector<uint64_t>(opponent + 1, 0));
        ways[0][0] = 1;
        std::vector<bool> seen(board.points, false);
        for (int start = 0; start < board.points; ++start) {
            if (seen[start]) continue;
            int length = 0;
            for (int p = start; !seen[p]; p = perm[p]) seen[p] = true, ++length;
            for (int m = mover; m >= 0; --m)
                for (int o = opponent; o >= 0; --o) {
                    uint64_t w = 0;
                    if (m >= length) w += ways[m - length][o];
                    if (o >= length) w += ways[m][o - length];
                    ways[m][o] += w;
                }
        }
        fixed += ways[mover][opponent];
    }
    return fixed / board.symmetries.size();
}

const SectorIndex& sector_index(const Board& board, int mover_stones, int opponent_stones) {
    static std::mutex mutex;
    static std::map<std::tuple<const Board*, int, int>, std::unique_ptr<SectorIndex>> cache;
    const SymmetryClasses& classes = symmetry_classes(board);
    std::lock_guard lock(mutex);
    auto& slot = cache[{&board, mover_stones, opponent_stones}];
    if (!slot) slot = std::make_unique<SectorIndex>(classes, mover_stones, opponent_stones);
    return *slot;
}

}  // namespace morris
