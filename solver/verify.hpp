// Verify: whether a database's stored values agree with each other.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "game/sector.hpp"
#include "game/variant.hpp"

namespace morris {

// Re-derives every stored value of the listed sectors (all when empty) from
// its successors' stored values; returns the number of inconsistent entries.
uint64_t verify(const Variant& variant, const std::filesystem::path& directory,
                const std::vector<SectorKey>& sectors, bool progress);

}  // namespace morris
