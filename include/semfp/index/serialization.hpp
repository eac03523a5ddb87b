#pragma once
/// \file
/// Binary persistence shared by `HammingIndex` and `SinglePassClusterer`.
///
/// Format (all integers little-endian, independent of the host):
///
///     offset  size  field
///     0       8     magic: "SEMFPHIX" (HammingIndex) or "SEMFPSPC" (SinglePassClusterer)
///     8       4     format version (currently 1)
///     12      4     fingerprint width in bits (64 or 128)
///     16      ...   body, described by each class
///     end-4   4     CRC-32C (Castagnoli) of every preceding byte
///
/// A fingerprint is written as its 64-bit words, most significant word first. Loading reads the
/// whole stream into a new object and only then replaces the target, so a truncated, corrupted
/// or foreign stream throws `semfp::format_error` (whose `offset()` is the byte where the
/// problem was found) and leaves the target unchanged. Saving to a path writes a uniquely named
/// temporary file in the same directory, syncs it and renames it over the target, so an earlier
/// good file survives a failed save and two concurrent saves never write the same temporary.

#include <semfp/core/fingerprint.hpp>
#include <semfp/detail/crc32c.hpp>
#include <semfp/error.hpp>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <random>
#include <string_view>
#include <system_error>

#if __has_include(<unistd.h>) && __has_include(<fcntl.h>)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace semfp {
inline namespace v0 {
namespace detail {

/// Current version of the saved formats.
inline constexpr std::uint32_t index_format_version = 1;

/// Writes little-endian integers to a stream, accumulating the CRC-32C.
class binary_writer {
public:
    explicit binary_writer(std::ostream& os) : m_os(os) {}

    void bytes(const unsigned char* p, std::size_t n) {
        m_crc = crc32c_update(m_crc, p, n);
        m_os.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(n));
        if (!m_os) throw_io_error("semfp: write failed");
    }
    void u32(std::uint32_t v) {
        unsigned char b[4];
        for (int i = 0; i < 4; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
        bytes(b, 4);
    }
    void u64(std::uint64_t v) {
        unsigned char b[8];
        for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
        bytes(b, 8);
    }
    template <std::size_t Bits>
    void fingerprint(const Fingerprint<Bits>& fp) {
        for (std::size_t w = 0; w < Bits / 64; ++w) u64(fp.word(w));
    }
    /// Writes the header: magic (8 characters), version, bits.
    void header(std::string_view magic, std::uint32_t bits) {
        bytes(reinterpret_cast<const unsigned char*>(magic.data()), 8);
        u32(index_format_version);
        u32(bits);
    }
    /// Writes the checksum of everything written so far and flushes.
    void finish() {
        const std::uint32_t crc = m_crc;
        u32(crc);
        m_os.flush();
        if (!m_os) throw_io_error("semfp: write failed");
    }

private:
    std::ostream& m_os;
    std::uint32_t m_crc = 0;
};

/// Reads little-endian integers from a stream, accumulating the CRC-32C and the offset; every
/// failure is a `format_error` carrying the offset.
class binary_reader {
public:
    explicit binary_reader(std::istream& is) : m_is(is) {}

    [[nodiscard]] std::size_t offset() const noexcept { return m_offset; }

    void bytes(unsigned char* p, std::size_t n) {
        m_is.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(n));
        const auto got = static_cast<std::size_t>(m_is.gcount());
        if (got != n) throw_format_error("semfp: unexpected end of data", m_offset + got);
        m_crc = crc32c_update(m_crc, p, n);
        m_offset += n;
    }
    [[nodiscard]] std::uint32_t u32() {
        unsigned char b[4];
        bytes(b, 4);
        std::uint32_t v = 0;
        for (int i = 3; i >= 0; --i) v = (v << 8) | b[i];
        return v;
    }
    [[nodiscard]] std::uint64_t u64() {
        unsigned char b[8];
        bytes(b, 8);
        std::uint64_t v = 0;
        for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
        return v;
    }
    template <std::size_t Bits>
    [[nodiscard]] Fingerprint<Bits> fingerprint() {
        std::array<std::uint64_t, Bits / 64> w{};
        for (auto& x : w) x = u64();
        return Fingerprint<Bits>(w);
    }
    /// Reads and checks the header written by `binary_writer::header`.
    void header(std::string_view magic, std::uint32_t bits) {
        unsigned char m[8];
        bytes(m, 8);
        if (std::string_view(reinterpret_cast<const char*>(m), 8) != magic)
            throw_format_error("semfp: not a saved " + std::string(magic) + " stream (bad magic)", 0);
        const std::size_t at = m_offset;
        if (const auto v = u32(); v != index_format_version)
            throw_format_error("semfp: unsupported format version " + std::to_string(v), at);
        if (const auto b = u32(); b != bits)
            throw_format_error("semfp: saved for " + std::to_string(b) + "-bit fingerprints, expected " +
                                   std::to_string(bits),
                               at + 4);
    }
    /// Reads the trailing checksum and compares it with the data read so far.
    void finish() {
        const std::uint32_t expected = m_crc;
        const std::size_t at = m_offset;
        if (u32() != expected) throw_format_error("semfp: checksum mismatch (corrupted data)", at);
    }

private:
    std::istream& m_is;
    std::uint32_t m_crc = 0;
    std::size_t m_offset = 0;
};

/// Creates a file named `path` + ".<unique>.tmp" exclusively (never an existing file, so two
/// concurrent saves to one target cannot share a temporary) and returns its name. Throws
/// `io_error` when no such file can be created (missing or read-only directory).
inline std::filesystem::path create_unique_temporary(const std::filesystem::path& path) {
    static std::atomic<std::uint64_t> counter{0};
    std::uint64_t salt = 0;
    try {
        std::random_device rd;
        salt = (std::uint64_t{rd()} << 32) ^ rd();
    } catch (const std::exception&) {
        // No entropy source: the counter and the address of a local still separate this call
        // from the others of this process; exclusive creation settles the rest.
        salt = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&salt));
    }
    int err = 0;
    for (int attempt = 0; attempt < 32; ++attempt) {
        const std::uint64_t n = salt ^ (counter.fetch_add(1, std::memory_order_relaxed) * 0x9E3779B97F4A7C15ull);
        char suffix[24];
        static constexpr char hex[] = "0123456789abcdef";
        suffix[0] = '.';
        for (int i = 0; i < 16; ++i) suffix[1 + i] = hex[(n >> (60 - 4 * i)) & 15];
        std::memcpy(suffix + 17, ".tmp", 5);
        std::filesystem::path tmp = path;
        tmp += suffix;
#if __has_include(<unistd.h>) && __has_include(<fcntl.h>)
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            return tmp;
        }
        err = errno;
        if (err != EEXIST) break;
#else
        // C11 exclusive mode ("x"), which C++17 <cstdio> inherits.
        if (std::FILE* f = std::fopen(tmp.string().c_str(), "wbx")) {
            std::fclose(f);
            return tmp;
        }
        err = errno;
        std::error_code ec;
        if (!std::filesystem::exists(tmp, ec)) break;
#endif
    }
    throw_io_error("semfp: cannot create a temporary file beside '" + path.string() +
                   "': " + std::generic_category().message(err));
}

/// Pushes a written file's data to the storage device (fsync where POSIX offers it; elsewhere
/// the close that preceded this call is all there is). Throws `io_error` when the device
/// reports a failure.
inline void sync_file(const std::filesystem::path& file) {
#if __has_include(<unistd.h>) && __has_include(<fcntl.h>)
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw_io_error("semfp: cannot reopen '" + file.string() + "' to sync it");
    const bool failed = ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS;
    const int err = errno;
    ::close(fd);
    if (failed) throw_io_error("semfp: cannot sync '" + file.string() + "': " + std::generic_category().message(err));
#else
    (void)file;
#endif
}

/// Saves through `write(std::ostream&)` to `path` atomically: a uniquely named temporary file
/// next to `path` (see `create_unique_temporary`) is written, flushed, closed, synced to disk
/// and renamed over `path`. Concurrent saves to one path never share a temporary; the last
/// rename wins and every reader sees one complete file. Throws `io_error` (or what `write`
/// throws); on failure the temporary is removed and `path` is untouched.
template <class Write>
void save_file_atomically(const std::filesystem::path& path, Write&& write) {
    const std::filesystem::path tmp = create_unique_temporary(path);
    try {
        {
            std::ofstream os(tmp, std::ios::binary | std::ios::trunc);
            if (!os) throw_io_error("semfp: cannot open '" + tmp.string() + "' for writing");
            write(os);
            os.close();
            if (!os) throw_io_error("semfp: cannot write '" + tmp.string() + "'");
        }
        sync_file(tmp);
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) throw_io_error("semfp: cannot rename '" + tmp.string() + "' to '" + path.string() + "': " + ec.message());
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw;
    }
}

/// Opens `path` for reading and calls `read(std::istream&)`. Throws `io_error` if it cannot be
/// opened.
template <class Read>
void load_file(const std::filesystem::path& path, Read&& read) {
    std::ifstream is(path, std::ios::binary);
    if (!is) throw_io_error("semfp: cannot open '" + path.string() + "' for reading");
    read(is);
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
