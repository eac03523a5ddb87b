#pragma once
// A progress line on stderr (bytes, documents, rate, ETA), shown only when stderr is a terminal,
// the run has lasted over a second and --quiet is not given.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace semfp::cli {

class Progress {
public:
    /// `enabled` false (--quiet) keeps it silent; it is also silent unless stderr is a terminal.
    explicit Progress(bool enabled);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    /// Reports `bytes` of `total_bytes` (0: unknown) read and `docs` documents done. Cheap when
    /// called often: redraws at most ten times a second.
    void update(std::uint64_t bytes, std::uint64_t total_bytes, std::size_t docs);
    /// Erases the line.
    void finish();

private:
    using clock = std::chrono::steady_clock;
    bool m_enabled;
    bool m_drawn = false;
    clock::time_point m_start;
    clock::time_point m_last;
};

}  // namespace semfp::cli
