#pragma once
/// \file
/// Saving and loading `Signature<Bits>`s (fingerprint + sketch) with their ids, in the
/// library's checksummed format (serialization.hpp).
///
/// Why a file of its own: a signature is a core value and core/ knows nothing of persistence;
/// the format helpers live here, with the other saved types. A two-stage run keeps the
/// signatures of what it has seen (a few hundred bytes each) and reloads them on the next run.
///
/// Layout (little-endian), after the magic "SEMFPSIG", the version (5) and the bits:
///
/// | field | type |
/// |---|---|
/// | count | u64 |
/// | per entry: id | u64 |
/// | per entry: fingerprint | Bits / 64 x u64, most significant word first |
/// | per entry: sketch state | u32 (`MinHashSketch::state()`) |
/// | per entry: sketch payload | 128 bytes (`MinHashSketch::payload()`) |
///
/// then the CRC-32C of everything before it. Versions 1 to 4 (other sketches: before the hybrid
/// sketch, other short-text features, other token hashes; see `signature_format_version`) are
/// refused with a `format_error` that says so: their sketches are not comparable with today's,
/// the signatures must be computed again.

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
/// Version of the signature format (2: the hybrid sketch of core/sketch.hpp; 3: the same layout,
/// short texts' ASCII words sketched as character bigrams; 4: short texts sketched as the
/// character bigrams of their normalized text, `MinHashSketcher::for_each_text_bigram`; 5: long
/// texts' tokens and short texts' bigrams hashed by the high word of their MurmurHash3 digest,
/// `MinHashSketcher::token_hash`).
inline constexpr std::uint32_t signature_format_version = 5;
}  // namespace detail

/// Writes `entries` to `os`. Throws `io_error`.
template <std::size_t Bits>
void save_signatures(std::ostream& os, std::span<const signature_entry<Bits>> entries) {
    detail::binary_writer w(os);
    w.bytes(reinterpret_cast<const unsigned char*>(detail::signature_magic.data()), detail::signature_magic.size());
    w.u32(detail::signature_format_version);
    w.u32(static_cast<std::uint32_t>(Bits));
    w.u64(entries.size());
    for (const auto& e : entries) {
        w.u64(e.id);
        w.fingerprint(e.signature.fingerprint);
        w.u32(e.signature.sketch.state());
        w.bytes(e.signature.sketch.payload().data(), MinHashSketch::bins);
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
    {
        unsigned char m[8];
        r.bytes(m, 8);
        if (std::string_view(reinterpret_cast<const char*>(m), 8) != detail::signature_magic)
            detail::throw_format_error("semfp: not a saved SEMFPSIG stream (bad magic)", 0);
        const std::uint32_t v = r.u32();
        if (v >= 1 && v < detail::signature_format_version)
            detail::throw_format_error(
                "semfp::load_signatures: signature format " + std::to_string(v) +
                    " (sketches of an earlier semfp, not comparable with this version's); compute the signatures again",
                8);
        if (v != detail::signature_format_version)
            detail::throw_format_error("semfp::load_signatures: unsupported signature format version " + std::to_string(v), 8);
        if (const std::uint32_t b = r.u32(); b != Bits)
            detail::throw_format_error("semfp: saved for " + std::to_string(b) + "-bit fingerprints, expected " +
                                           std::to_string(Bits),
                                       12);
    }
    const std::uint64_t n = r.u64();
    std::vector<signature_entry<Bits>> out;
    // No reserve from the count: a corrupted count must not allocate before the data ends.
    for (std::uint64_t i = 0; i < n; ++i) {
        signature_entry<Bits> e{};
        e.id = r.u64();
        e.signature.fingerprint = r.template fingerprint<Bits>();
        const std::size_t at = r.offset();
        const std::uint32_t state = r.u32();
        MinHashSketch::bins_type payload{};
        r.bytes(payload.data(), payload.size());
        if (!MinHashSketch::from_saved(payload, state, e.signature.sketch))
            detail::throw_format_error("semfp::load_signatures: invalid sketch", at);
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
