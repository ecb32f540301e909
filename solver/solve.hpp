// The retrograde solver: exact values and distances for every sector of a
// variant, unit by unit, each written to the database directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "indexing/sector.hpp"
#include "indexing/variant.hpp"

namespace morris {

struct SolveOptions {
    std::filesystem::path directory;
    int threads = 0;                 // 0: OpenMP's default
    std::vector<SectorKey> targets;  // empty: every sector of the variant
    bool progress = true;            // a progress line on standard error
};

struct SectorReport {
    SectorKey key;
    uint64_t positions = 0;
    uint64_t wins = 0, draws = 0, losses = 0;
    double seconds = 0;  // for its whole unit
    bool skipped = false;  // already in the directory
};

// Solves what `options` asks for, skipping sectors already written, and
// returns a report per sector. Throws DatabaseError or std::runtime_error.
std::vector<SectorReport> solve(const Variant& variant, const SolveOptions& options);

// Re-derives every stored value of the listed sectors (all when empty) from
// its successors' stored values; returns the number of inconsistent entries.
uint64_t verify(const Variant& variant, const std::filesystem::path& directory,
                const std::vector<SectorKey>& sectors, bool progress);

}  // namespace morris
