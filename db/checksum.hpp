// FNV-1a, 64 bits: the rule-set hash a database records and the checksum of
// its file headers. Stable across builds and machines, which std::hash is not.
#pragma once

#include <cstddef>
#include <cstdint>

namespace morris {

inline uint64_t fnv1a(const void* data, size_t size) {
    constexpr uint64_t kOffsetBasis = 14695981039346656037ull;
    constexpr uint64_t kPrime = 1099511628211ull;
    const auto* bytes = static_cast<const unsigned char*>(data);
    uint64_t hash = kOffsetBasis;
    for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * kPrime;
    return hash;
}

}  // namespace morris
