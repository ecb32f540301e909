// The solver's sort by a key of few values (solver/counting_sort.hpp:
// regions of a unit, opponent classes) puts items in the order
// std::stable_sort puts them, whatever the key's range.
#include "solver/counting_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace morris {
namespace {

struct Item {
    uint32_t key;
    uint32_t serial;  // its place before sorting: stability shows in it
    bool operator==(const Item&) const = default;
};

std::vector<Item> random_items(size_t count, uint64_t key_count, uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<uint64_t> key(0, key_count - 1);
    std::vector<Item> items(count);
    for (size_t k = 0; k < count; ++k)
        items[k] = {static_cast<uint32_t>(key(random)), static_cast<uint32_t>(k)};
    return items;
}

std::vector<Item> stably_sorted(std::vector<Item> items) {
    std::stable_sort(items.begin(), items.end(),
                     [](const Item& a, const Item& b) { return a.key < b.key; });
    return items;
}

auto key_of = [](const Item& item) { return item.key; };

TEST(CountingSort, PutsItemsInStableOrderByKey) {
    for (uint64_t key_count : {1, 2, 100, 46'000})
        for (size_t count : {0, 1, 20'000}) {
            const std::vector<Item> items = random_items(count, key_count, 7);
            std::vector<uint64_t> starts;
            std::vector<Item> sorted(3);  // what it held before is replaced
            counting_sort<Item>(items, key_count, key_of, starts, sorted);
            EXPECT_EQ(sorted, stably_sorted(items)) << key_count << " keys, " << count << " items";
        }
}

}  // namespace
}  // namespace morris
