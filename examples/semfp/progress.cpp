#include "progress.hpp"

#include <cstdio>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace semfp::cli {

namespace {
bool stderr_is_terminal() {
#ifdef _WIN32
    return ::_isatty(::_fileno(stderr)) != 0;
#else
    return ::isatty(STDERR_FILENO) == 1;
#endif
}

void format_duration(char* out, std::size_t size, double seconds) {
    const auto s = static_cast<long long>(seconds + 0.5);
    if (s >= 3600) {
        std::snprintf(out, size, "%lldh%02lldm", s / 3600, (s / 60) % 60);
    } else {
        std::snprintf(out, size, "%lldm%02llds", s / 60, s % 60);
    }
}
}  // namespace

Progress::Progress(bool enabled)
    : m_enabled(enabled && stderr_is_terminal()), m_start(clock::now()), m_last(m_start) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t bytes, std::uint64_t total_bytes, std::size_t docs) {
    if (!m_enabled) return;
    const auto now = clock::now();
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    if (elapsed < 1.0 || now - m_last < std::chrono::milliseconds(100)) return;
    m_last = now;
    const double mb = static_cast<double>(bytes) / 1e6;
    const double rate = static_cast<double>(docs) / elapsed;
    char line[160];
    if (total_bytes != 0 && bytes <= total_bytes) {
        const double fraction = static_cast<double>(bytes) / static_cast<double>(total_bytes);
        constexpr int width = 24;
        char bar[width + 1];
        const int filled = static_cast<int>(fraction * width);
        for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
        bar[width] = '\0';
        char eta[32] = "--";
        if (fraction > 0.0) format_duration(eta, sizeof eta, elapsed * (1.0 - fraction) / fraction);
        std::snprintf(line, sizeof line, "\r[%s] %5.1f%%  %zu docs  %.1f MB  %.0f docs/s  %.1f MB/s  ETA %s ", bar,
                      fraction * 100.0, docs, mb, rate, mb / elapsed, eta);
    } else {
        std::snprintf(line, sizeof line, "\r%zu docs  %.1f MB  %.0f docs/s  %.1f MB/s ", docs, mb, rate,
                      mb / elapsed);
    }
    std::fputs(line, stderr);
    std::fflush(stderr);
    m_drawn = true;
}

void Progress::finish() {
    if (!m_drawn) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    m_drawn = false;
}

}  // namespace semfp::cli
