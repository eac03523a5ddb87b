#pragma once
// The binary fingerprint file of `semfp fingerprint --out-format bin` (one shard of the input),
// which `semfp cluster` reads back. Little-endian, checksummed like the library's saved types:
//
//     offset  size  field
//     0       8     magic "SEMFPFPB"
//     8       4     format version (4; versions 1-3, whose sketches are not comparable, are refused)
//     12      4     fingerprint width in bits (64 or 128)
//     16      4+n   options digest (16 hex digits of the SHA-256 of the identity, digest.hpp)
//     ...     4+n   identity: the pipeline and input options as canonical JSON, with the version
//     ...     4     shard index I
//     ...     4     shard count N
//     ...     4     flags: 1 = every entry carries a MinHash sketch (--verify sketch)
//     then per document, in input order:
//             1     tag 1
//             8     ordinal: the document's position among all records of the input (valid or
//                   not), the same in every shard; this shard holds the ordinals with ordinal mod N == I
//             4+n   id (UTF-8)
//             8*k   fingerprint, most significant 64-bit word first (k = bits / 64)
//             4+128 with flag 1: the sketch (MinHashSketch::state(), then payload(): 132 bytes)
//     then
//             1     tag 0
//             8     number of documents in this file
//             8     records of the whole input (every shard reads them all, so all shards agree)
//             4     CRC-32C of every preceding byte

#include "engine.hpp"
#include "output.hpp"

#include <semfp/core/sketch.hpp>

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

namespace semfp::cli {

struct fp_file_header {
    unsigned bits = 64;
    std::string digest;
    std::string identity;
    std::uint32_t shard = 0;
    std::uint32_t shards = 1;
    bool sketches = false;
};

struct fp_file_entry {
    std::uint64_t ordinal = 0;
    std::string id;
    fp_value fp;
    MinHashSketch sketch;
};

/// Writes a fingerprint file into an AtomicOutput (which publishes it on close).
class FpFileWriter {
public:
    FpFileWriter(AtomicOutput& out, const fp_file_header& header);
    void add(std::uint64_t ordinal, std::string_view id, const fp_value& fp, const MinHashSketch& sketch);
    /// Writes the trailer (`records`: all records of the input) and the checksum.
    void finish(std::uint64_t records);

private:
    void bytes(const void* p, std::size_t n);
    void u8(unsigned v);
    void u32(std::uint32_t v);
    void u64(std::uint64_t v);
    void str(std::string_view s);

    AtomicOutput& m_out;
    unsigned m_bits;
    bool m_sketches;
    std::uint64_t m_count = 0;
    std::uint32_t m_crc = 0;
};

/// Reads a fingerprint file entry by entry. Every failure is a semfp::format_error naming the
/// file and the byte offset (or semfp::io_error when it cannot be opened).
class FpFileReader {
public:
    explicit FpFileReader(const std::string& path);
    ~FpFileReader();
    FpFileReader(const FpFileReader&) = delete;
    FpFileReader& operator=(const FpFileReader&) = delete;

    [[nodiscard]] const fp_file_header& header() const noexcept { return m_header; }
    [[nodiscard]] const std::string& path() const noexcept { return m_path; }
    /// The next entry; false at the end (after the trailer and checksum were checked).
    bool next(fp_file_entry& e);
    /// Records of the whole input (after `next` returned false).
    [[nodiscard]] std::uint64_t records() const noexcept { return m_records; }

private:
    struct impl;
    std::string m_path;
    fp_file_header m_header;
    std::unique_ptr<impl> m_impl;
    std::uint64_t m_records = 0;
    std::uint64_t m_count = 0;
    std::uint64_t m_last = 0;
    bool m_done = false;
};

}  // namespace semfp::cli
