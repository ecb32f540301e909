#include "indexing/perfect_hash.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace morris {

void SymmetryClasses::RankBitmap::count() {
    uint32_t running = 0;
    for (Line& line : lines_) {
        line.before = running;
        for (unsigned w = 0; w < kWords; ++w) {
            line.before_word[w] = static_cast<uint16_t>(running - line.before);
            running += std::popcount(line.words[w]);
        }
    }
}

SymmetryClasses::SymmetryClasses(const Board& board)
    : board_(&board),
      symmetry_count_(static_cast<int>(board.symmetries.size())),
      image_rows_(3 * 256),
      point_images_(board.points),
      sizes_(board.points + 1) {
    const int n = symmetry_count_;
    if (n > kMaxSymmetries)
        throw std::invalid_argument("board " + board.name + " has more symmetries than fit");
    for (int byte = 0; byte < 3; ++byte)
        for (Bitboard value = 0; value < 256; ++value)
            for (int s = 0; s < kMaxSymmetries; ++s)
                image_rows_[byte * 256 + value].image[s] =
                    board.transform((value << (8 * byte)) & board.all(),
                                    board.symmetries[s < n ? s : 0])
                        << kSymmetryBits |
                    static_cast<uint32_t>(s);

    for (int point = 0; point < board.points; ++point)
        for (int s = 0; s < kMaxSymmetries; ++s)
            point_images_[point].image[s] =
                board.transform(Bitboard{1} << point, board.symmetries[s < n ? s : 0])
                << kSymmetryBits;
}

void SymmetryClasses::build_size(int size) const {
    std::lock_guard lock(build_mutex_);
    SizeTables& t = sizes_[size];
    if (t.built.load(std::memory_order_relaxed)) return;  // another thread did
    const uint64_t sets = binomial[board_->points][size];
    t.asymmetric_bits = RankBitmap(sets);
    t.symmetric_bits = RankBitmap(sets);
    // Walking the sets in increasing order (Gosper's, the colex order) meets
    // each class first at its smallest member, which is therefore the
    // representative; its images are marked seen by colex rank.
    std::vector<uint64_t> seen((sets + 63) / 64, 0);
    std::vector<uint16_t> stabilisers;  // by representative
    t.representatives.reserve(orbit_count(*board_, size, 0));
    stabilisers.reserve(t.representatives.capacity());
    Bitboard set = (Bitboard{1} << size) - 1;
    for (uint64_t r = 0; r < sets; ++r, set = next_subset(set)) {
        if (seen[r / 64] >> (r % 64) & 1) continue;
        Lanes images;
        images_of(set, images);
        uint16_t stabiliser = 0;
        for (int s = 0; s < symmetry_count_; ++s) {
            const Bitboard image = images[s] >> kSymmetryBits;
            if (image == set) stabiliser |= 1u << s;
            const uint32_t rank = colex().rank(image);
            seen[rank / 64] |= uint64_t{1} << (rank % 64);
        }
        t.representatives.push_back(set);
        (stabiliser == 1 ? t.asymmetric_bits : t.symmetric_bits).set(r);
        stabilisers.push_back(stabiliser);
    }

    // Rank the classes asymmetric first, order kept within each group.
    t.asymmetric_bits.count();
    t.symmetric_bits.count();
    t.asymmetric_count =
        static_cast<uint32_t>(std::count(stabilisers.begin(), stabilisers.end(), uint16_t{1}));
    const size_t classes = t.representatives.size();
    std::vector<Bitboard> by_rank(classes);
    t.stabilisers.assign(classes, 0);
    for (size_t c = 0; c < classes; ++c) {
        const uint32_t rank = t.class_rank(colex().rank(t.representatives[c]));
        by_rank[rank] = t.representatives[c];
        t.stabilisers[rank] = stabilisers[c];
    }
    t.representatives = std::move(by_rank);
    t.built.store(true, std::memory_order_release);
}

const SymmetryClasses& symmetry_classes(const Board& board) {
    static std::mutex mutex;
    static std::map<const Board*, std::unique_ptr<SymmetryClasses>> cache;
    std::lock_guard lock(mutex);
    auto& slot = cache[&board];
    if (!slot) slot = std::make_unique<SymmetryClasses>(board);
    return *slot;
}

namespace {

// How many placements of `mover` and `opponent` stones on `points` the
// symmetry `perm` (which maps `points` onto themselves) fixes: those in which
// each of its cycles on `points` is all mover, all opponent or all empty,
// counted by dynamic programming over the cycles. Burnside's lemma averages
// this over a group for its number of orbits.
uint64_t fixed_placements(const Permutation& perm, Bitboard points, int mover, int opponent) {
    std::array<std::array<uint64_t, kMaxPoints + 1>, kMaxPoints + 1> ways{};  // by stones placed
    ways[0][0] = 1;
    for (Bitboard left = points; left;) {
        int length = 0;
        for (int p = std::countr_zero(left); left >> p & 1; p = perm[p])
            left &= ~(Bitboard{1} << p), ++length;
        for (int m = mover; m >= 0; --m)
            for (int o = opponent; o >= 0; --o) {
                if (m >= length) ways[m][o] += ways[m - length][o];
                if (o >= length) ways[m][o] += ways[m][o - length];
            }
    }
    return ways[mover][opponent];
}

// How many orbits the symmetries in `group` (a mask of board.symmetries; a
// group fixing `points`) make of the `size`-point subsets of `points`.
uint64_t orbits_of_subsets(const Board& board, uint32_t group, Bitboard points, int size) {
    uint64_t fixed = 0;
    for (uint32_t s = group; s; s &= s - 1)
        fixed += fixed_placements(board.symmetries[std::countr_zero(s)], points, size, 0);
    return fixed / std::popcount(group);
}

}  // namespace

SectorIndex::SectorIndex(const SymmetryClasses& classes, int mover_stones, int opponent_stones)
    : classes_(&classes),
      all_(classes.board().all()),
      mover_stones_(mover_stones),
      opponent_stones_(opponent_stones) {
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

    // A symmetric block's offsets come from its count (Burnside's, above);
    // its bitmap is filled when first read (fill_block).
    const uint64_t words = (block_size_ + 63) / 64;
    symmetric_blocks_ = std::vector<SymmetricBlock>(block_count() - asymmetric_count_);
    uint64_t hints = 0;
    for (uint32_t b = asymmetric_count_; b < block_count(); ++b) {
        SymmetricBlock& block = symmetric_blocks_[b - asymmetric_count_];
        block.first_index = size_;
        block.stabiliser = classes.stabiliser(mover_stones, b);
        block.canonical_count = orbits_of_subsets(
            board, block.stabiliser, board.all() & ~(*representatives_)[b], opponent_stones);
        block.bitmap_word = static_cast<uint32_t>((b - asymmetric_count_) * words);
        block.first_hint = static_cast<uint32_t>(hints);
        size_ += block.canonical_count;
        hints += (block.canonical_count + 63) / 64;  // one for each 64th slot
    }
    canonical_bits_ = std::make_unique_for_overwrite<uint64_t[]>(symmetric_blocks_.size() * words);
    bits_before_ = std::make_unique_for_overwrite<uint32_t[]>(symmetric_blocks_.size() * words);
    select_hints_ = std::make_unique_for_overwrite<uint32_t[]>(hints);
}

void SectorIndex::fill_block(const SymmetricBlock& block) const {
    std::lock_guard lock(fill_mutex_);
    if (block.filled.load(std::memory_order_relaxed)) return;  // another thread did
    const uint32_t b = asymmetric_count_ + static_cast<uint32_t>(&block - symmetric_blocks_.data());
    const Bitboard free = all_ & ~(*representatives_)[b];
    uint32_t packed = (1u << opponent_stones_) - 1;
    uint32_t running = 0;
    uint32_t* hint = &select_hints_[block.first_hint];
    for (uint64_t w = 0; w * 64 < block_size_; ++w) {
        uint64_t word = 0;
        for (uint64_t r = w * 64; r < std::min(block_size_, w * 64 + 64);
             ++r, packed = next_subset(packed)) {
            // Canonical: no symmetry fixing the mover's stones makes it smaller.
            Bitboard opponent = deposit_bits(packed, free);
            bool smallest = true;
            for (uint32_t s = block.stabiliser & (block.stabiliser - 1); s; s &= s - 1)
                smallest &= classes_->transform(opponent, std::countr_zero(s)) >= opponent;
            word |= uint64_t{smallest} << (r % 64);
        }
        canonical_bits_[block.bitmap_word + w] = word;
        bits_before_[block.bitmap_word + w] = running;
        const auto here = static_cast<uint32_t>(std::popcount(word));
        // Hints for the slots n = 64k with running <= n < running + here,
        // within the count the block's hints were laid out by.
        for (uint64_t n = (running + 63) / 64 * 64; n < running + here && n < block.canonical_count;
             n += 64)
            *hint++ = static_cast<uint32_t>(w);
        running += here;
    }
    // The offsets of every block after it were laid out by that count.
    if (running != block.canonical_count)
        throw std::logic_error("symmetric block " + std::to_string(b) + " holds " +
                               std::to_string(running) + " positions, not Burnside's " +
                               std::to_string(block.canonical_count));
    block.filled.store(true, std::memory_order_release);
}

uint64_t SectorIndex::block_begin(uint32_t block) const {
    return block < asymmetric_count_ ? block * block_size_ : symmetric_block(block).first_index;
}

uint64_t SectorIndex::symmetric_slot(const SymmetricBlock& block, Bitboard free,
                                     Bitboard opponent) const {
    return canonical_slot(block,
                          extract_bits(classes_->smallest_image(opponent, block.stabiliser), free));
}

PackedBlockIndex::PackedImage::PackedImage(const SymmetryClasses& classes, Bitboard free,
                                           Bitboard block_free, int first_symmetry,
                                           int then_symmetry) {
    std::array<uint32_t, kBytes * 8> of_bit{};
    int bit = 0;
    for (Bitboard f = free; f; f &= f - 1) {
        const int moved =
            std::countr_zero(classes.transform_point(std::countr_zero(f), first_symmetry));
        of_bit[bit++] = extract_bits(classes.transform_point(moved, then_symmetry), block_free);
    }
    for (int b = 0; b < kBytes; ++b) {
        bytes_[b][0] = 0;
        for (uint32_t x = 1; x < 256; ++x)
            bytes_[b][x] = bytes_[b][x & (x - 1)] | of_bit[8 * b + std::countr_zero(x)];
    }
}

PackedBlockIndex::PackedBlockIndex(const SectorIndex& index, const SymmetryClasses::Class& block,
                                   Bitboard free)
    : index_(&index), block_(block.rank) {
    const SymmetryClasses& classes = index.classes();
    assert((classes.transform(free, block.symmetry) & block.representative) == 0);
    const Bitboard block_free = classes.board().all() & ~block.representative;
    const uint32_t stabiliser = index.stabiliser_of(block.rank);
    images_.reserve(std::popcount(stabiliser));
    for (uint32_t s = stabiliser; s; s &= s - 1)  // the identity, bit 0, first
        images_.emplace_back(classes, free, block_free, block.symmetry, std::countr_zero(s));
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
        const SymmetricBlock& b = filled(*(after - 1));
        block = asymmetric_count_ + static_cast<uint32_t>(after - 1 - symmetric_blocks_.begin());
        // The slot is the n-th set bit of the block's bitmap.
        uint64_t n = index - b.first_index;
        const uint32_t* before = &bits_before_[b.bitmap_word];
        const uint64_t words = (block_size_ + 63) / 64;
        uint64_t w = select_hints_[b.first_hint + n / 64];
        while (w + 1 < words && before[w + 1] <= n) ++w;
        slot = w * 64 +
               select_bit(canonical_bits_[b.bitmap_word + w], static_cast<int>(n - before[w]));
    }
    const Bitboard mover = (*representatives_)[block];
    const Bitboard free = all_ & ~mover;
    return {mover, deposit_bits(subset_of_rank_[slot], free)};
}

uint64_t orbit_count(const Board& board, int mover, int opponent) {
    uint64_t fixed = 0;
    for (const Permutation& perm : board.symmetries)
        fixed += fixed_placements(perm, board.all(), mover, opponent);
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
