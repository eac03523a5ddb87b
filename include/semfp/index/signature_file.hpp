#pragma once
/// \file
/// Saving and loading `Signature<Bits>`s (fingerprint + sketch) with their ids, in the
/// library's checksummed format (serialization.hpp).
///
/// Why a file of its own: a signature is a core value and core/ knows nothing of persistence;
/// the format helpers live here, with the other saved types. A two-stage run keeps the
/// signatures of what it has seen (a few hundred bytes each) and reloads them on the next run.
///
/// Body after the common header (magic "SEMFPSIG", version, bits):
///
/// | field | type |
/// |---|---|
/// | count | u64 |
/// | per entry: id | u64 |
/// | per entry: fingerprint | Bits / 64 x u64, most significant word first |
/// | per entry: sketch features | u32 |
/// | per entry: sketch bins | 128 bytes |
///
/// then the CRC-32C of everything before it.

#include <semfp/core/signature.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// A signature with the caller's id.
template <std::size_t Bits>
struct signature_entry {
    std::uint64_t id;
    Signature<Bits> signature;

    friend constexpr bool operator==(const signature_entry&, const signature_entry&) noexcept = default;
};

namespace detail {
inline constexpr std::string_view signature_magic = "SEMFPSIG";
}  // namespace detail

/// Writes `entries` to `os`. Throws `io_error`.
template <std::size_t Bits>
void save_signatures(std::ostream& os, std::span<const signature_entry<Bits>> entries) {
    detail::binary_writer w(os);
    w.header(detail::signature_magic, static_cast<std::uint32_t>(Bits));
    w.u64(entries.size());
    for (const auto& e : entries) {
        w.u64(e.id);
        w.fingerprint(e.signature.fingerprint);
        w.u32(e.signature.sketch.features());
        w.bytes(e.signature.sketch.values().data(), MinHashSketch::bins);
    }
    w.finish();
}

/// Writes `entries` to `path` through a temporary file and a rename. Throws `io_error`.
template <std::size_t Bits>
void save_signatures(const std::filesystem::path& path, std::span<const signature_entry<Bits>> entries) {
    detail::save_file_atomically(path, [&](std::ostream& os) { save_signatures<Bits>(os, entries); });
}

/// Reads signatures written by `save_signatures<Bits>`, in the order written. Throws
/// `format_error` with the byte offset (truncated, corrupted, other version or width, an id
/// repeated) or `io_error`.
template <std::size_t Bits>
[[nodiscard]] std::vector<signature_entry<Bits>> load_signatures(std::istream& is) {
    detail::binary_reader r(is);
    r.header(detail::signature_magic, static_cast<std::uint32_t>(Bits));
    const std::uint64_t n = r.u64();
    std::vector<signature_entry<Bits>> out;
    // No reserve from the count: a corrupted count must not allocate before the data ends.
    for (std::uint64_t i = 0; i < n; ++i) {
        signature_entry<Bits> e{};
        e.id = r.u64();
        e.signature.fingerprint = r.template fingerprint<Bits>();
        const std::uint32_t features = r.u32();
        MinHashSketch::bins_type bins{};
        r.bytes(bins.data(), bins.size());
        e.signature.sketch = MinHashSketch(bins, features);
        out.push_back(e);
    }
    r.finish();
    std::vector<std::pair<std::uint64_t, std::size_t>> ids;
    ids.reserve(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) ids.emplace_back(out[i].id, i);
    std::sort(ids.begin(), ids.end());
    constexpr std::size_t header_bytes = 8 + 4 + 4 + 8;
    constexpr std::size_t entry_bytes = 8 + Bits / 8 + 4 + MinHashSketch::bins;
    for (std::size_t i = 1; i < ids.size(); ++i)
        if (ids[i].first == ids[i - 1].first)
            detail::throw_format_error("semfp::load_signatures: duplicate id " + std::to_string(ids[i].first),
                                       header_bytes + std::max(ids[i].second, ids[i - 1].second) * entry_bytes);
    return out;
}

/// Reads the signatures saved at `path`. Throws `io_error`, `format_error`.
template <std::size_t Bits>
[[nodiscard]] std::vector<signature_entry<Bits>> load_signatures(const std::filesystem::path& path) {
    std::vector<signature_entry<Bits>> out;
    detail::load_file(path, [&](std::istream& is) { out = load_signatures<Bits>(is); });
    return out;
}

}  // namespace v0
}  // namespace semfp
