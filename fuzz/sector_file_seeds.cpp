// Writes a few small, valid sector files into the directory given: seeds for
// sector_file_fuzz.
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "db/sector_file.hpp"
#include "db/sector_writer.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: sector_file_seeds DIRECTORY\n");
        return 2;
    }
    using namespace morris;
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    std::mt19937_64 rng(1);
    auto entries = [&](size_t n, Entry limit) {
        std::vector<Entry> e(n);
        for (auto& x : e) x = static_cast<Entry>(rng() % (uint32_t{limit} + 1));
        return e;
    };
    const SectorKey key{3, 3, 0, 0};
    write_sector_file(dir / "empty.mdb", "five", 1, key, {}, 16);
    write_sector_file(dir / "one.mdb", "six", 2, key, entries(1, 0xffff), 16);
    write_sector_file(dir / "draws.mdb", "seven", 3, key, std::vector<Entry>(200, 0), 64);
    write_sector_file(dir / "short.mdb", "nine", 4, key, entries(100, 30), 16);
    write_sector_file(dir / "blocks.mdb", "twelve", 5, key, entries(300, 0xffff), 64);
    write_sector_file(dir / "one-block.mdb", "lasker", 6, SectorKey{9, 9, 0, 0}, entries(700, 200));
    return 0;
}
