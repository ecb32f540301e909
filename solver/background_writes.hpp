// A unit's files written on a thread of their own while the next unit is
// solved. Compressing them takes the cores; writing them takes the disk
// (a quarter-gigabyte file took a second to write and sync on host A5, both
// cores idle meanwhile: docs/performance.md, "The files"). One unit's files
// are written at a time: the next unit's wait for them, which bounds the
// memory they hold to one unit's compressed files.
#pragma once

#include <algorithm>
#include <future>
#include <utility>
#include <vector>

#include "db/sector_writer.hpp"

namespace morris {

class BackgroundWrites {
  public:
    BackgroundWrites() = default;
    BackgroundWrites(const BackgroundWrites&) = delete;
    BackgroundWrites& operator=(const BackgroundWrites&) = delete;
    // Waits for the files being written (a failure goes unreported here:
    // the solve is already leaving by an exception of its own).
    ~BackgroundWrites() {
        if (writing_.valid()) writing_.wait();
    }

    // Waits for the files before, then writes these, each as
    // PendingSectorFile::write does, on another thread.
    void start(std::vector<PendingSectorFile> files) {
        finish();
        for (const PendingSectorFile& f : files)
            bytes_ += f.info().file_bytes, keys_.push_back(f.info().key);
        // Each file's memory goes back as soon as it is written.
        writing_ = std::async(std::launch::async, [files = std::move(files)]() mutable {
            for (PendingSectorFile& f : files) f.write(), f = {};
        });
    }
    // Waits until every file started is written. Throws the first failure
    // (DatabaseError).
    void finish() {
        keys_.clear();
        bytes_ = 0;
        if (writing_.valid()) writing_.get();
    }
    // Waits for the files being written if `key`'s is one of them: before
    // it is read back.
    void finish_if_writing(const SectorKey& key) {
        if (std::find(keys_.begin(), keys_.end(), key) != keys_.end()) finish();
    }
    // The memory the files being written hold.
    uint64_t bytes_held() const { return bytes_; }

  private:
    std::vector<SectorKey> keys_;  // of the files being written
    uint64_t bytes_ = 0;
    std::future<void> writing_;
};

}  // namespace morris
