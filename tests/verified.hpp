// verify's count of inconsistent entries for the tests, once it has verified
// every sector asked for (all of the variant's for none): a partial database
// would otherwise pass for want of sectors.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <vector>

#include "game/sector.hpp"
#include "game/variant.hpp"
#include "solver/verify.hpp"

namespace morris::test_support {

inline uint64_t inconsistencies(const Variant& v, const std::filesystem::path& directory,
                                const std::vector<SectorKey>& sectors) {
    const VerifyReport report = verify(v, directory, sectors, false);
    EXPECT_TRUE(report.missing.empty()) << report.missing.size() << " sectors missing";
    EXPECT_TRUE(report.without_successor.empty()) << "a sector's successor is missing";
    EXPECT_FALSE(report.verified.empty());
    return report.inconsistent;
}

}  // namespace morris::test_support
