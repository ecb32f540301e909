// A fresh directory for one test, removed at the end: in memory (/dev/shm)
// where there is one, since the tests write thousands of small files and a
// disk shared with fsyncing solvers makes each write slow; else in the
// system's temporary directory.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

namespace morris::test_support {

class TempDir {
  public:
    explicit TempDir(const std::string& name) {
        namespace fs = std::filesystem;
        std::random_device rd;
        const fs::path base = ::access("/dev/shm", W_OK | X_OK) == 0 ? fs::path("/dev/shm")
                                                                     : fs::temp_directory_path();
        path_ = base / ("morris-test-" + name + "-" + std::to_string(rd()) + std::to_string(rd()));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace morris::test_support
