// Pull: where few positions are left undecided, a layer reaches them by
// reading their turns inside the unit again, rather than by un-turns from
// each decided position (push.hpp). Both leave the same states. A flying
// mover's turns are counted with bitmaps: an exchange table
// (indexing/bits.hpp) gives, for each set of its three stones among its
// successors' block, the sets one exchange away, and the block's states are
// read once per opponent class into a bitmap of those that count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "game/turns.hpp"
#include "indexing/bits.hpp"
#include "solver/unit.hpp"

namespace morris {

class Pull {
  public:
    explicit Pull(Unit& unit);

    // What layer d says about the undecided positions of sector `into`,
    // whose quiet moves lead to the layer's sector.
    void run(int d, int into);
    // Whether sector s's turns inside the unit are counted as exchanges.
    bool counts_exchanges(int s) const { return exchanges_[s] != nullptr; }

  private:
    // Undecided positions read again by pull, a batch at a time: the
    // indices of all their successors are listed and their states prefetched
    // before any is read.
    struct Rereads {
        static constexpr size_t kSize = 32;
        struct Unread {
            uint64_t u;
            State seen;
            uint32_t first, last;  // its successors in the list
        };
        std::vector<Unread> positions;
        std::vector<uint64_t> successors;
        uint64_t far_reads = 0;  // successors read so far (stats.hpp)
    };

    // An undecided position of a slice of a sector, waiting to be read again.
    struct Undecided {
        UnitPosition u;
        State seen;
        Stones stones;
        SymmetryClasses::Class theirs;  // the opponent's class
    };

    // The block of the successors of positions whose opponent stones are
    // of one class, seen from a flying mover: by slot, whether that
    // successor counts in the layer being read.
    struct FlyingBlock {
        // The rank of the opponent class whose block this is.
        uint32_t rank = std::numeric_limits<uint32_t>::max();
        std::vector<uint64_t> counting;
        uint64_t lines_read = 0;  // of every block read so far (stats.hpp)
    };

    static std::vector<uint32_t> slice_bounds(const SectorIndex& index);
    void gather(Rereads& rereads, const Undecided& p, const UnitSector& sector) const;
    void reread(Rereads& rereads, int d, Layers& decided);
    void reread_flying(const Undecided& p, const UnitSector& next, const ExchangeTable& exchanges,
                       FlyingBlock& block, int d, Layers& decided);
    void read_flying_block(const SymmetryClasses::Class& theirs, const UnitSector& next,
                           const ExchangeTable& exchanges, int d, FlyingBlock& block);
    void update(uint64_t u, State seen, State now, Layers& decided);

    Unit& unit_;
    std::vector<std::unique_ptr<ExchangeTable>> exchanges_;  // by sector, if its mover flies
};

}  // namespace morris
