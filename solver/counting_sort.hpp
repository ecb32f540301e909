// A stable counting sort, for the solver's sorts by a key that takes few
// values (opponent classes, regions of a unit) over many items.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace morris {

// Puts `items` into `sorted` in increasing order of key(item), which is
// below `key_count`, items of one key in their order; `starts` is scratch.
template <typename T, typename Key>
void counting_sort(std::span<const T> items, uint64_t key_count, Key&& key,
                   std::vector<uint64_t>& starts, std::vector<T>& sorted) {
    starts.assign(key_count + 1, 0);
    for (const T& item : items) ++starts[key(item) + 1];
    for (size_t k = 1; k < starts.size(); ++k) starts[k] += starts[k - 1];
    sorted.resize(items.size());
    for (const T& item : items) sorted[starts[key(item)]++] = item;
}

}  // namespace morris
