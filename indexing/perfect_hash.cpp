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
        uint32_t rank = static_cast<uint32_t>(representatives_[size].size());
        representatives_[size].push_back(set);
        uint16_t stabiliser = 0;
        for (int s = 0; s < n; ++s) {
            Bitboard image = transform(set, s);
            if (image == set) stabiliser |= 1u << s;
            // s takes the representative to `image`, so its inverse takes `image` back.
            uint32_t& entry = class_of_[size][colex().rank(image)];
            if (entry == kUnset) entry = rank << kSymmetryBits | static_cast<uint32_t>(inverse[s]);
        }
        stabilisers_[size].push_back(stabiliser);
        if (set == board.all()) break;
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
    block_size_ = binomial[free_points][opponent_stones];
    const auto& reps = classes.representatives(mover_stones);
    block_of_rank_.resize(reps.size());

    std::vector<uint32_t> symmetric;
    for (uint32_t rank = 0; rank < reps.size(); ++rank) {
        uint32_t stabiliser = classes.stabiliser(mover_stones, rank);
        if (stabiliser == 1) {
            block_of_rank_[rank] = static_cast<uint32_t>(blocks_.size());
            blocks_.push_back({reps[rank], size_, 1, 0});
            size_ += block_size_;
        } else {
            symmetric.push_back(rank);
        }
    }
    asymmetric_count_ = static_cast<uint32_t>(blocks_.size());

    const uint64_t words = (block_size_ + 63) / 64;
    for (uint32_t rank : symmetric) {
        Block block{reps[rank], size_, classes.stabiliser(mover_stones, rank),
                    static_cast<uint32_t>(canonical_bits_.size())};
        block_of_rank_[rank] = static_cast<uint32_t>(blocks_.size());
        canonical_bits_.resize(canonical_bits_.size() + words, 0);
        bits_before_.resize(canonical_bits_.size(), 0);
        const Bitboard free = board.all() & ~block.mover;
        uint32_t packed = (1u << opponent_stones) - 1;
        uint64_t canonical_count = 0;
        for (uint64_t r = 0; r < block_size_; ++r, packed = next_subset(packed)) {
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
        blocks_.push_back(block);
        size_ += canonical_count;
    }
}

uint64_t SectorIndex::opponent_slot(const Block& block, Bitboard free, Bitboard opponent) const {
    if (block.stabiliser == 1) return colex().rank(extract_bits(opponent, free));
    Bitboard smallest = opponent;
    for (uint32_t s = block.stabiliser & (block.stabiliser - 1); s; s &= s - 1)
        smallest = std::min(smallest, classes_->transform(opponent, std::countr_zero(s)));
    uint64_t r = colex().rank(extract_bits(smallest, free));
    uint64_t word = block.bitmap_word + r / 64;
    uint64_t below = canonical_bits_[word] & ((uint64_t{1} << (r % 64)) - 1);
    return bits_before_[word] + std::popcount(below);
}

uint64_t SectorIndex::index(Stones stones) const {
    const auto [rank, symmetry] = classes_->class_of(stones.mover);
    const Block& block = blocks_[block_of_rank_[rank]];
    const Bitboard opponent = classes_->transform(stones.opponent, symmetry);
    const Bitboard free = classes_->board().all() & ~block.mover;
    return block.first_index + opponent_slot(block, free, opponent);
}

Stones SectorIndex::stones_at(uint64_t index) const {
    uint32_t b;
    const uint64_t asymmetric_end = uint64_t{asymmetric_count_} * block_size_;
    if (index < asymmetric_end) {
        b = static_cast<uint32_t>(index / block_size_);
    } else {
        auto after = std::upper_bound(
            blocks_.begin() + asymmetric_count_, blocks_.end(), index,
            [](uint64_t i, const Block& block) { return i < block.first_index; });
        b = static_cast<uint32_t>(after - blocks_.begin()) - 1;
    }
    const Block& block = blocks_[b];
    const Bitboard free = classes_->board().all() & ~block.mover;
    uint64_t slot = index - block.first_index;
    if (block.stabiliser != 1) {
        // Select the slot-th set bit of the block's bitmap.
        const uint32_t* before = &bits_before_[block.bitmap_word];
        const uint64_t words = (block_size_ + 63) / 64;
        uint64_t w = std::upper_bound(before, before + words, slot) - before - 1;
        uint64_t word = canonical_bits_[block.bitmap_word + w];
        slot = w * 64 + select_bit(word, static_cast<int>(slot - before[w]));
    }
    return {block.mover, deposit_bits(ColexRanker::unrank(slot, opponent_stones_), free)};
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
