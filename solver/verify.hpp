// Verify: whether a database's stored values agree with each other.
#pragma once

#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "game/sector.hpp"
#include "game/variant.hpp"

namespace morris {

// What verify found.
struct VerifyReport {
    uint64_t inconsistent = 0;  // entries that do not follow from their successors'
    std::vector<SectorKey> verified;
    std::vector<SectorKey> missing;  // asked for (or of the variant), but not in the directory
    // In the directory, but not verified: a successor's file is missing.
    std::vector<std::pair<SectorKey, SectorKey>> without_successor;
};

// Re-derives every stored value of the listed sectors (all of the variant's
// when empty) from its successors' stored values, and counts the entries that
// differ. A partial database is verified as far as it goes: sectors whose
// file or a successor's file is missing are reported, not verified. Throws
// DatabaseError for a file that is there but cannot be read.
VerifyReport verify(const Variant& variant, const std::filesystem::path& directory,
                    const std::vector<SectorKey>& sectors, bool progress);

}  // namespace morris
