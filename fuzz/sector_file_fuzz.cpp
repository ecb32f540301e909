// Fuzzes the sector file reader: the input bytes as a file, opened without
// expectations and read whole. The only failure allowed is a DatabaseError
// naming the file; anything else (a crash, a sanitizer report, another
// exception, an allocation beyond libFuzzer's limit) is a finding.
#include <omp.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "db/sector_file.hpp"

namespace {

std::string file_path;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // One file per fuzzing process (libFuzzer may run several with -jobs).
    const char* tmp = std::getenv("TMPDIR");
    file_path = std::string(tmp && *tmp ? tmp : "/tmp") + "/morris-sector-file-fuzz-" +
                std::to_string(::getpid()) + ".mdb";
    omp_set_num_threads(1);  // a team per input would only slow the fuzzer down
    std::atexit([] { std::remove(file_path.c_str()); });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FILE* out = std::fopen(file_path.c_str(), "wb");
    if (!out) __builtin_trap();
    if (size && std::fwrite(data, 1, size, out) != size) __builtin_trap();
    std::fclose(out);
    try {
        auto file = morris::SectorFile::open_any(file_path);
        const morris::SectorFileInfo& info = file->info();
        std::vector<morris::Entry> all = file->read_all();
        if (all.size() != info.entries) __builtin_trap();
        // The same file with its own expectations opens too.
        morris::SectorFile::open(file_path, info.variant, info.rule_hash, info.key);
    } catch (const morris::DatabaseError& e) {
        if (std::string(e.what()).find(file_path) == std::string::npos) __builtin_trap();
    }
    return 0;
}
