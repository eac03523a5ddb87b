#pragma once
// Pieces shared by the batch commands: batch sizes, a phase stopwatch, id sanitizing, and the
// summary's number formatting.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace semfp::cli {

/// Documents read, then processed in parallel, per batch (bounded memory, ordered output).
inline constexpr std::size_t batch_docs = 2048;
/// Approximate input bytes per batch.
inline constexpr std::size_t batch_bytes = std::size_t{4} << 20;

/// Accumulates the time spent in one phase.
class Stopwatch {
public:
    using clock = std::chrono::steady_clock;
    void start() noexcept { m_start = clock::now(); }
    void stop() noexcept { m_total += clock::now() - m_start; }
    [[nodiscard]] double seconds() const noexcept { return std::chrono::duration<double>(m_total).count(); }

private:
    clock::time_point m_start{};
    clock::duration m_total{};
};

/// Appends `id` with tabs, line breaks and other controls replaced by spaces (for TSV output).
inline void append_tsv_field(std::string& out, std::string_view id) {
    for (char c : id) out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
}

/// "12,345".
inline std::string with_commas(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace semfp::cli
