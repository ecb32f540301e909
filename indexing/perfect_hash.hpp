// The perfect hash: a bijection between the positions of a sector that are
// distinct under the board's symmetries and the indices 0..size-1.
//
// A position is the mover's stones M and the opponent's stones O. The board
// symmetry that brings M to its class representative (the smallest image as
// an integer) is applied to both; the index is then
//   block of M's class  +  colex rank of O among the points M leaves free.
// Most classes have a trivial stabiliser and a block of C(free, |O|) slots.
// When the representative is fixed by some symmetries, O is also brought to
// the smallest of its images under them, and only those smallest images get a
// slot (a bitmap with per-word prefix counts ranks them), so every sector's
// size is exactly its number of orbits.
//
// Index order is class-major, asymmetric classes first, so that a sector can
// be walked in index order with Gosper's next-combination and one deposit.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <type_traits>
#include <vector>

#include "game/board.hpp"
#include "game/sector.hpp"
#include "indexing/bits.hpp"

namespace morris {

static_assert(kMaxPoints <= ColexRanker::kPoints, "the colex ranker must cover every board");

// Classes of point sets under a board's symmetry group, for every set size.
// Within a size, classes are ranked asymmetric ones first (those whose
// representative only the identity fixes), each group by representative.
//
// class_of() sits on every indexing, so it computes rather than looks up
// (a table of class numbers by set takes 5 MiB for nine stones and misses the
// caches): the set's images under all symmetries come from three 64-byte rows,
// the representative is their minimum, and its class number one bit rank in a
// bitmap of representatives that stays in the L2 cache.
class SymmetryClasses {
  public:
    static constexpr int kMaxSymmetries = 16;  // the most a board may have

    explicit SymmetryClasses(const Board& board);

    struct Class {
        uint32_t rank;
        int symmetry;  // takes the set to its class representative
        Bitboard representative;
    };
    Class class_of(Bitboard set) const {
        Lanes images;
        images_of(set, images);
        return class_of_images(images, std::popcount(set));
    }

    // A set's images under every symmetry, kept to class sets that differ
    // from it by a stone moved (the predecessors of a position: one un-move
    // each) without looking the images up again.
    struct SetImages {
        // One lane per symmetry, as in the image rows below.
        alignas(64) uint32_t lanes[kMaxSymmetries];
        int size;
    };
    SetImages images(Bitboard set) const {
        SetImages result;
        Lanes images;
        images_of(set, images);
        std::memcpy(result.lanes, &images, sizeof images);
        result.size = std::popcount(set);
        return result;
    }
    // The class of that set with the stone on point `out` moved to point `in`.
    Class class_of_moved(const SetImages& set, int out, int in) const {
        Lanes images;
        std::memcpy(&images, set.lanes, sizeof images);
        // Images of single points carry no symmetry number, so the XOR
        // leaves the lanes' numbers as they were.
        images ^= point_images_[out].image ^ point_images_[in].image;
        return class_of_images(images, set.size);
    }
    // The image of the set under symmetry `symmetry`.
    static Bitboard image(const SetImages& set, int symmetry) {
        return set.lanes[symmetry] >> kSymmetryBits;
    }
    const std::vector<Bitboard>& representatives(int size) const {
        return tables(size).representatives;
    }
    uint32_t asymmetric_count(int size) const { return tables(size).asymmetric_count; }
    // Mask of the symmetries (bit i: board.symmetries[i]) that fix class `rank`'s representative.
    uint32_t stabiliser(int size, uint32_t rank) const { return tables(size).stabilisers[rank]; }

    Bitboard transform(Bitboard set, int symmetry) const {
        return (image_rows_[set & 0xff].image[symmetry] |
                image_rows_[256 + (set >> 8 & 0xff)].image[symmetry] |
                image_rows_[512 + (set >> 16 & 0xff)].image[symmetry]) >>
               kSymmetryBits;
    }
    // The same for a set of one point.
    Bitboard transform_point(int point, int symmetry) const {
        return point_images_[point].image[symmetry] >> kSymmetryBits;
    }
    // The smallest image of `set` under the symmetries in the mask `symmetries`
    // (bit i: board.symmetries[i]; the identity's bit must be among them).
    Bitboard smallest_image(Bitboard set, uint32_t symmetries) const {
        constexpr Lanes kLaneBits = {1 << 0,  1 << 1,  1 << 2,  1 << 3, 1 << 4,  1 << 5,
                                     1 << 6,  1 << 7,  1 << 8,  1 << 9, 1 << 10, 1 << 11,
                                     1 << 12, 1 << 13, 1 << 14, 1 << 15};
        // Lanes of other symmetries become all ones, which lose every minimum.
        Lanes images;
        images_of(set, images);
        static_assert(std::is_same_v<Lanes, PointLanes>, "mask_zero_lanes takes PointLanes");
        Lanes others = kLaneBits & symmetries;
        mask_zero_lanes(others);
        images |= others;
        return smallest_lane(images) >> kSymmetryBits;
    }
    // How many symmetries map both sets to themselves.
    int fixing_count(Bitboard a, Bitboard b) const {
        Lanes images_a, images_b;
        images_of(a, images_a);
        images_of(b, images_b);
        const auto fixing = (images_a >> kSymmetryBits == a) & (images_b >> kSymmetryBits == b);
        int count = 0;
        for (int s = 0; s < symmetry_count_; ++s) count += fixing[s] != 0;
        return count;
    }
    int symmetry_count() const { return symmetry_count_; }
    const Board& board() const { return *board_; }

  private:
    // The images of one byte of a set under every symmetry, one lane each,
    // shifted up to make room for the lane's symmetry number below: so the
    // smallest of the three rows' OR is the representative and the first
    // symmetry that gives it at once. Lanes past the board's symmetries
    // repeat the identity's image with a larger number, so they never win.
    static constexpr int kSymmetryBits = 4;
    using Lanes = uint32_t __attribute__((vector_size(4 * kMaxSymmetries)));
    struct alignas(64) ImageRow {
        Lanes image;
    };
    // Vectors go by reference: passed by value their ABI depends on the
    // target's vector extensions.
    void images_of(Bitboard set, Lanes& images) const {
        images = image_rows_[set & 0xff].image | image_rows_[256 + (set >> 8 & 0xff)].image |
                 image_rows_[512 + (set >> 16 & 0xff)].image;
    }
    static uint32_t smallest_lane(Lanes& lanes) {  // overwrites `lanes`
        fold_lanes(lanes, [](Lanes& a, const Lanes& b) { a = a < b ? a : b; });
        return lanes[0];
    }
    Class class_of_images(Lanes& images, int size) const {  // overwrites `images`
        const uint32_t smallest = smallest_lane(images);
        const Bitboard representative = smallest >> kSymmetryBits;
        return {tables(size).class_rank(colex().rank(representative)),
                static_cast<int>(smallest & (kMaxSymmetries - 1)), representative};
    }

    // A bitmap over colex ranks that counts the set bits before a position
    // with one cache line and no branch: each line holds four words, the
    // count before the line and the count before each word within it. Six
    // words would fit, but dividing by 384 costs about 10% of an indexing.
    class RankBitmap {
      public:
        explicit RankBitmap(uint64_t bits = 0) : lines_((bits + kBitsPerLine - 1) / kBitsPerLine) {}
        void set(uint64_t i) { lines_[i / kBitsPerLine].words[i % kBitsPerLine / 64] |= bit(i); }
        bool test(uint64_t i) const {
            return lines_[i / kBitsPerLine].words[i % kBitsPerLine / 64] & bit(i);
        }
        void count();  // fills the counts once every bit is set
        // Set bits before i.
        uint32_t rank(uint64_t i) const {
            const Line& line = lines_[i / kBitsPerLine];
            const unsigned word = i % kBitsPerLine / 64;
            return line.before + line.before_word[word] +
                   static_cast<uint32_t>(std::popcount(line.words[word] & (bit(i) - 1)));
        }

      private:
        static constexpr unsigned kWords = 4;
        static constexpr uint64_t kBitsPerLine = kWords * 64;
        struct alignas(64) Line {
            uint64_t words[kWords] = {};
            uint32_t before = 0;
            uint16_t before_word[kWords] = {};
        };
        static uint64_t bit(uint64_t i) { return uint64_t{1} << (i % 64); }
        std::vector<Line> lines_;
    };

    struct SizeTables {
        // Whether the tables below are built (build_size).
        std::atomic<bool> built{false};
        // Set at the colex rank of each representative that only the identity
        // fixes, and of each that other symmetries fix too: the first bitmap
        // alone ranks almost every class, with one cache line.
        RankBitmap asymmetric_bits;
        RankBitmap symmetric_bits;
        uint32_t asymmetric_count = 0;
        std::vector<Bitboard> representatives;  // by class rank
        std::vector<uint16_t> stabilisers;      // by class rank

        // The class rank of the representative of colex rank `colex_rank`.
        uint32_t class_rank(uint32_t colex_rank) const {
            if (asymmetric_bits.test(colex_rank)) [[likely]]
                return asymmetric_bits.rank(colex_rank);
            return asymmetric_count + symmetric_bits.rank(colex_rank);
        }
    };

    // A size's tables are built when first asked for, not with the rest:
    // building every size's took 107 ms for nine's board, most of a
    // one-shot `morris query`, which asks for two or three sizes.
    const SizeTables& tables(int size) const {
        const SizeTables& t = sizes_[size];
        if (!t.built.load(std::memory_order_acquire)) [[unlikely]]
            build_size(size);
        return t;
    }
    void build_size(int size) const;

    const Board* board_;
    int symmetry_count_;
    std::vector<ImageRow> image_rows_;    // by byte of the set (3) and its value (256)
    std::vector<ImageRow> point_images_;  // by point: its images, symmetry numbers 0
    // By set size, each built once under build_mutex_ and read only after
    // its flag is set.
    mutable std::vector<SizeTables> sizes_;
    mutable std::mutex build_mutex_;
};

// Built once per board and kept; thread-safe.
const SymmetryClasses& symmetry_classes(const Board& board);

// The index of one board-stone configuration: mover and opponent counts.
// Block b of the index holds the positions whose mover stones are in class b.
class SectorIndex {
  public:
    SectorIndex(const SymmetryClasses& classes, int mover_stones, int opponent_stones);

    uint64_t size() const { return size_; }
    const SymmetryClasses& classes() const { return *classes_; }
    int mover_stones() const { return mover_stones_; }
    int opponent_stones() const { return opponent_stones_; }

    uint64_t index(Stones stones) const { return index(stones, classes_->class_of(stones.mover)); }
    // The same for a caller who knows the class of the mover's stones.
    uint64_t index(Stones stones, const SymmetryClasses::Class& mover_class) const {
        return index_transformed(mover_class,
                                 classes_->transform(stones.opponent, mover_class.symmetry));
    }
    // The index given the mover's class and the opponent's stones moved by
    // the same symmetry.
    uint64_t index_transformed(const SymmetryClasses::Class& mover_class, Bitboard opponent) const {
        if (is_full_block(mover_class.rank)) [[likely]]
            return mover_class.rank * block_size_ + slot_in_full_block(mover_class, opponent);
        return symmetric_slot(symmetric_block(mover_class.rank), all_ & ~mover_class.representative,
                              opponent);
    }
    // The canonical stones at `index` (< size()).
    Stones stones_at(uint64_t index) const;
    // How many symmetries map the position at `index` to itself, given the
    // stones of any position symmetric to it (those at `index` or another).
    int stabiliser_size(uint64_t index, Stones symmetric) const {
        // Only the identity fixes a mover's stones of an asymmetric class.
        if (index < uint64_t{asymmetric_count_} * block_size_) return 1;
        return classes_->fixing_count(symmetric.mover, symmetric.opponent);
    }

    // Calls visit(index, stones) for every index in increasing order.
    template <typename Visit>
    void for_each(Visit&& visit) const;
    // The same for the blocks in [first_block, last_block) of block_count().
    template <typename Visit>
    void for_each_in_blocks(uint32_t first_block, uint32_t last_block, Visit&& visit) const;
    uint32_t block_count() const { return static_cast<uint32_t>(representatives_->size()); }

    // Calls visit(index, stones) once for every position, grouped by the
    // opponent's stones: those whose opponent stones are the representative
    // of opponent class c, for c in [first_class, last_class). After a turn
    // that removes nothing the opponent becomes the mover, so all successors
    // of a group fall in one block of the successor sector: this is the
    // cache-friendly order for reading successors' values.
    template <typename Visit>
    void for_each_by_opponent(uint32_t first_class, uint32_t last_class, Visit&& visit) const;
    // How many classes of opponent stones for_each_by_opponent numbers.
    uint32_t opponent_class_count() const {
        return static_cast<uint32_t>(classes_->representatives(opponent_stones_).size());
    }
    uint64_t block_begin(uint32_t block) const;
    // One past the block's last index.
    uint64_t block_end(uint32_t block) const {
        return block + 1 < block_count() ? block_begin(block + 1) : size_;
    }
    // A block whose mover class only the identity fixes holds every placement
    // of the opponent's stones among the free points, at the colex rank of
    // those stones packed (what ExchangeTable ranks): the opponent's
    // stones `opponent`, moved by the class's symmetry, are at
    // block_begin(mover_class.rank) + slot_in_full_block(mover_class, opponent).
    bool is_full_block(uint32_t block) const { return block < asymmetric_count_; }
    uint32_t slot_in_full_block(const SymmetryClasses::Class& mover_class,
                                Bitboard opponent) const {
        return colex().rank(packed_in_full_block(mover_class, opponent));
    }
    // The opponent's stones packed to the full block's free points (the
    // board's points less the mover class's representative), as ranked.
    uint32_t packed_in_full_block(const SymmetryClasses::Class& mover_class,
                                  Bitboard opponent) const {
        return extract_bits(opponent, all_ & ~mover_class.representative);
    }
    // The index of the position of `block` whose opponent's stones, packed
    // among the block's free points, are `packed`: in a symmetric block the
    // smallest of their images under stabiliser_of(block), as only those
    // have an index.
    uint64_t index_of_packed(uint32_t block, uint32_t packed) const {
        if (is_full_block(block)) [[likely]]
            return block * block_size_ + colex().rank(packed);
        return canonical_slot(symmetric_block(block), packed);
    }
    // The symmetries fixing the representative of `block`'s mover class, as
    // a mask (SymmetryClasses::smallest_image's): the identity alone for a
    // full block.
    uint32_t stabiliser_of(uint32_t block) const {
        return is_full_block(block) ? 1u : symmetric_block(block).stabiliser;
    }

  private:
    struct SymmetricBlock {
        uint64_t first_index;
        uint64_t canonical_count;  // its positions
        uint32_t stabiliser;
        uint32_t bitmap_word;  // where its canonical-opponent bitmap starts
        uint32_t first_hint;   // where its select hints start
        // Whether its bitmap, counts and hints are filled (fill_block).
        mutable std::atomic<bool> filled{false};
    };

    const SymmetricBlock& symmetric_block(uint32_t block) const {
        return symmetric_blocks_[block - asymmetric_count_];
    }
    // The block with its bitmap filled. A symmetric block's bitmap is filled
    // when it is first read, not when the index is built: building them all
    // took 64-74 ms for nine's 8-8 and 8-7, most of a one-shot `morris
    // query`, which reads one or two blocks of each sector it opens.
    const SymmetricBlock& filled(const SymmetricBlock& block) const {
        if (!block.filled.load(std::memory_order_acquire)) [[unlikely]]
            fill_block(block);
        return block;
    }
    void fill_block(const SymmetricBlock& block) const;
    uint64_t symmetric_slot(const SymmetricBlock& block, Bitboard free, Bitboard opponent) const;
    // The slot of canonical opponent stones, packed: the rank of their bit
    // among the block's bitmap's.
    uint64_t canonical_slot(const SymmetricBlock& unfilled, uint32_t packed) const {
        const SymmetricBlock& block = filled(unfilled);
        const uint64_t r = colex().rank(packed);
        const uint64_t word = block.bitmap_word + r / 64;
        const uint64_t below = canonical_bits_[word] & ((uint64_t{1} << (r % 64)) - 1);
        return block.first_index + bits_before_[word] + std::popcount(below);
    }

    const SymmetryClasses* classes_;
    const std::vector<Bitboard>* representatives_;
    Bitboard all_;  // every point of the board
    int mover_stones_;
    int opponent_stones_;
    uint64_t block_size_;        // C(free points, opponent stones)
    uint32_t asymmetric_count_;  // blocks [0, asymmetric_count_) are full-size
    uint64_t size_ = 0;
    std::vector<SymmetricBlock> symmetric_blocks_;
    // For symmetric blocks, filled a block at a time under fill_mutex_ (each
    // block's words are written once, whole, before its flag is set, and
    // read only after; left uninitialised until then, so that the pages of
    // blocks never read are never touched: zeroing them was most of what
    // building nine's 8-8 index still cost): bit r set when opponent colex
    // rank r is canonical, with the count of set bits before each word.
    std::unique_ptr<uint64_t[]> canonical_bits_;
    std::unique_ptr<uint32_t[]> bits_before_;
    // For symmetric blocks: the word (from the block's first) holding each
    // 64th canonical slot, so that unindexing scans a few words, not a
    // binary search through the block's counts.
    std::unique_ptr<uint32_t[]> select_hints_;
    mutable std::mutex fill_mutex_;
    // The opponent's stones (packed among the free points) by colex rank: a
    // table of C(free, opponent) entries makes unindexing a lookup.
    std::vector<uint32_t> subset_of_rank_;
};

// Many sets of the opponent's stones indexed in one block of a sector, each
// given packed among one set of points, `free`, and moved by the symmetry of
// the block's mover class (as SectorIndex::index_transformed takes them):
// the first pass reads a successor block so for every set of a group's free
// points. The free points' images are tabled a byte at a time, so that a set
// costs three table loads an image where index_transformed deposits,
// transforms and extracts. A symmetric block indexes the smallest of a set's images under
// the symmetries fixing its representative: one image is tabled for each,
// and the smallest packed image is the canonical one, as packing keeps the
// order of sets and those symmetries map the block's free points onto
// themselves.
class PackedBlockIndex {
  public:
    // `free`'s image under block.symmetry must miss block.representative.
    PackedBlockIndex(const SectorIndex& index, const SymmetryClasses::Class& block, Bitboard free);

    // How many sets pay for the tables. An image's tables cost about as
    // much as indexing one set a table entry through the index; a set of a
    // symmetric block costs about twice a full block's there, so its images
    // pay after half as many sets each.
    static uint64_t worth_from(const SectorIndex& index, uint32_t block) {
        const int images = std::popcount(index.stabiliser_of(block));
        return PackedImage::kEntries * std::max(1, images / 2);
    }

    uint64_t operator()(uint32_t packed) const {
        uint32_t smallest = images_[0](packed);
        for (size_t s = 1; s < images_.size(); ++s)
            smallest = std::min(smallest, images_[s](packed));
        return index_->index_of_packed(block_, smallest);
    }

  private:
    // The image of a packed set under one symmetry, an OR of its bytes'.
    class PackedImage {
      public:
        PackedImage(const SymmetryClasses& classes, Bitboard free, Bitboard block_free,
                    int first_symmetry, int then_symmetry);
        uint32_t operator()(uint32_t packed) const {
            return bytes_[0][packed & 0xff] | bytes_[1][packed >> 8 & 0xff] |
                   bytes_[2][packed >> 16 & 0xff];
        }

        static constexpr int kBytes = 3;  // operator() reads three
        static constexpr uint64_t kEntries = kBytes * 256;

      private:
        static_assert(kBytes * 8 >= kMaxPoints, "a packed set has a bit per point");
        uint32_t bytes_[kBytes][256];
    };

    const SectorIndex* index_;
    uint32_t block_;
    std::vector<PackedImage> images_;  // the identity's first
};

// The number of (mover, opponent) stone placements distinct under the board's
// symmetries, by Burnside's lemma: a sector's size (hash_test proves it equal
// to sector_index's size for every sector), found in microseconds without
// the index's or the symmetry classes' tables: for what needs only sizes.
uint64_t orbit_count(const Board& board, int mover_stones, int opponent_stones);

// Built on first use and kept for the program's life; thread-safe.
const SectorIndex& sector_index(const Board& board, int mover_stones, int opponent_stones);

// Gosper's step, keeping the empty set (one subset only) well defined.
inline uint32_t next_subset(uint32_t set) { return set ? next_combination(set) : 0; }

template <typename Visit>
void SectorIndex::for_each(Visit&& visit) const {
    for_each_in_blocks(0, block_count(), visit);
}

template <typename Visit>
void SectorIndex::for_each_in_blocks(uint32_t first_block, uint32_t last_block,
                                     Visit&& visit) const {
    const Bitboard all = classes_->board().all();
    const uint64_t count = block_size_;
    for (uint32_t b = first_block; b < last_block; ++b) {
        const Bitboard mover = (*representatives_)[b];
        const Bitboard free = all & ~mover;
        uint64_t index = block_begin(b);
        uint32_t packed = (1u << opponent_stones_) - 1;
        if (b < asymmetric_count_) {
            for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed))
                visit(index++, Stones{mover, deposit_bits(packed, free)});
        } else {
            // Only the canonical slots: walk the bitmap's set bits and take
            // each one's opponent stones from the rank table.
            const uint64_t* bits = &canonical_bits_[filled(symmetric_block(b)).bitmap_word];
            for (uint64_t w = 0; w * 64 < count; ++w)
                for (uint64_t word = bits[w]; word; word &= word - 1) {
                    const uint64_t r = w * 64 + std::countr_zero(word);
                    visit(index++, Stones{mover, deposit_bits(subset_of_rank_[r], free)});
                }
        }
    }
}

template <typename Visit>
void SectorIndex::for_each_by_opponent(uint32_t first_class, uint32_t last_class,
                                       Visit&& visit) const {
    const Bitboard all = classes_->board().all();
    const auto& opponents = classes_->representatives(opponent_stones_);
    const uint64_t count = binomial[classes_->board().points - opponent_stones_][mover_stones_];
    for (uint32_t c = first_class; c < last_class; ++c) {
        const Bitboard opponent = opponents[c];
        const Bitboard free = all & ~opponent;
        // Symmetries fixing the opponent's stones make some mover sets twins:
        // only the smallest of each is the sector's position.
        const uint32_t others = classes_->stabiliser(opponent_stones_, c) & ~1u;
        uint32_t packed = (1u << mover_stones_) - 1;
        for (uint64_t r = 0; r < count; ++r, packed = next_subset(packed)) {
            const Bitboard mover = deposit_bits(packed, free);
            bool smallest = true;
            for (uint32_t s = others; s && smallest; s &= s - 1)
                smallest = classes_->transform(mover, std::countr_zero(s)) >= mover;
            if (smallest) visit(index(Stones{mover, opponent}), Stones{mover, opponent});
        }
    }
}

}  // namespace morris
