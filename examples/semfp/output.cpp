#include "output.hpp"

#include "diagnostics.hpp"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define SEMFP_CLI_POSIX 1
#else
#define SEMFP_CLI_POSIX 0
#endif

namespace semfp::cli {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t flush_size = std::size_t{1} << 20;

std::string error_text(int err) { return std::strerror(err); }

// `p` with symbolic links in its last component followed (bounded, so a loop cannot hang):
// the file a link names is replaced, the link itself stays.
fs::path resolve_links(fs::path p) {
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(p, ec)) return p;
        fs::path next = fs::read_symlink(p, ec);
        if (ec) return p;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    return p;
}

// A name no other run (or other output of this run) uses: pid, a per-process counter and
// random bits. Creation is exclusive anyway, so a collision only costs a retry.
std::string temp_name(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    static const unsigned long long seed = [] {
        std::random_device rd;
        return (static_cast<unsigned long long>(rd()) << 32) ^ rd();
    }();
    char suffix[64];
#if SEMFP_CLI_POSIX
    const long pid = static_cast<long>(::getpid());
#else
    const long pid = 0;
#endif
    std::snprintf(suffix, sizeof suffix, ".semfp-%ld-%u-%llx", pid, counter.fetch_add(1),
                  seed ^ (static_cast<unsigned long long>(std::random_device{}()) << 16));
    const fs::path dir = target.parent_path();
    std::string name = ".";  // appended piecewise: g++ 12 warns (-Wrestrict) on "." + string&&
    name += target.filename().string();
    name += suffix;
    return (dir / name).string();
}

// Creates `temp` exclusively with the mode the target has (a new target: 0666 less the umask,
// as fopen would). Returns nullptr with errno set on failure.
std::FILE* create_exclusive(const std::string& temp, const fs::path& target) {
#if SEMFP_CLI_POSIX
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return nullptr;
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) (void)::fchmod(fd, st.st_mode & 07777);
    std::FILE* f = ::fdopen(fd, "wb");
    if (f == nullptr) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        errno = err;
    }
    return f;
#else
    (void)target;
    return std::fopen(temp.c_str(), "wbx");  // C11 exclusive mode
#endif
}

// Pushes the file's data to the disk before it is renamed, so a crash cannot publish an empty
// or partial file under the target's name. Returns 0 or an errno value.
int sync_file(std::FILE* f) {
#if SEMFP_CLI_POSIX
    if (::fsync(::fileno(f)) != 0 && errno != EINVAL && errno != EROFS) return errno;
#else
    (void)f;
#endif
    return 0;
}

// Makes the rename itself durable (best effort: some file systems refuse to sync a directory).
void sync_directory(const fs::path& dir) {
#if SEMFP_CLI_POSIX
    const std::string name = dir.empty() ? std::string(".") : dir.string();
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
#else
    (void)dir;
#endif
}
}  // namespace

void append_json_string(std::string& out, std::string_view s, json_escape mode) {
    static constexpr char hex[] = "0123456789abcdef";
    const auto escape = [&](std::uint32_t u) {  // \uxxxx, u < 0x10000
        const char e[6] = {'\\', 'u', hex[(u >> 12) & 15], hex[(u >> 8) & 15], hex[(u >> 4) & 15], hex[u & 15]};
        out.append(e, sizeof e);
    };
    const bool pass_utf8 = mode == json_escape::utf8;
    out += '"';
    std::size_t run = 0;  // start of the pending run of bytes copied as they are
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80 ? pass_utf8 : c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
            ++i;
            continue;
        }
        out.append(s.substr(run, i - run));
        if (c < 0x80) {
            ++i;
            switch (c) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                case '\b': out += "\\b"; break;
                case '\f': out += "\\f"; break;
                default: escape(c);
            }
        } else {
            // json_escape::ascii: one character, decoded leniently (overlong forms and surrogates
            // pass, a lead byte from 0xF8 up counts as a 4-byte lead) so that every digest ever
            // stamped stays the same; valid UTF-8 gives exactly Python's escapes.
            const std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            std::uint32_t u = len == 4 ? c & 0x07u : len == 3 ? c & 0x0Fu : c & 0x1Fu;
            bool ok = len > 1 && i + len <= s.size();
            for (std::size_t j = 1; ok && j < len; ++j) {
                const auto cc = static_cast<unsigned char>(s[i + j]);
                ok = (cc & 0xC0) == 0x80;
                u = (u << 6) | (cc & 0x3Fu);
            }
            if (!ok) u = 0xFFFD;
            i += ok ? len : 1;
            if (u >= 0x10000) {
                u -= 0x10000;
                escape(0xD800 + (u >> 10));
                escape(0xDC00 + (u & 0x3FF));
            } else {
                escape(u);
            }
        }
        run = i;
    }
    out.append(s.substr(run));
    out += '"';
}

AtomicOutput::AtomicOutput(const std::string& path) : m_path(path) {
    m_buffer.reserve(flush_size + flush_size / 4);
    if (path == "-") {
        m_file = stdout;
        m_path = "<stdout>";
        return;
    }
    const fs::path target = resolve_links(fs::path(path));
    std::error_code ec;
    const auto st = fs::status(target, ec);
    if (fs::exists(st) && !fs::is_regular_file(st)) {
        // /dev/null, a FIFO, a terminal: written in place (renaming over them would be wrong).
        if (fs::is_directory(st)) throw output_error("cannot write " + path + ": it is a directory");
        m_file = std::fopen(target.string().c_str(), "wb");
        if (m_file == nullptr) throw output_error("cannot open " + path + " for writing: " + error_text(errno));
        m_owned = true;
        return;
    }
    m_target = target.string();
    for (int attempt = 0; attempt < 16 && m_file == nullptr; ++attempt) {
        m_temp = temp_name(target);
        m_file = create_exclusive(m_temp, target);
        if (m_file == nullptr && errno != EEXIST) break;
    }
    if (m_file == nullptr) {
        const int err = errno;
        m_temp.clear();
        throw output_error("cannot open " + path + " for writing: " + error_text(err));
    }
    m_owned = true;
}

AtomicOutput::~AtomicOutput() { discard(); }

void AtomicOutput::discard() noexcept {
    if (m_file != nullptr) {
        if (m_owned) {
            std::fclose(m_file);
        } else {
            std::fflush(m_file);
        }
        m_file = nullptr;
    }
    if (!m_temp.empty()) {
        std::error_code ignored;
        fs::remove(fs::path(m_temp), ignored);
        m_temp.clear();
    }
    m_buffer.clear();
}

void AtomicOutput::write(std::string_view text) {
    m_buffer.append(text);
    commit();
}

void AtomicOutput::commit() {
    if (m_buffer.size() >= flush_size) flush();
}

void AtomicOutput::flush() {
    if (m_file == nullptr || m_buffer.empty()) return;
    const std::size_t n = std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file);
    if (n != m_buffer.size()) {
        const int err = errno;
        discard();
        throw output_error("cannot write " + m_path + ": " + error_text(err));
    }
    m_buffer.clear();
}

void AtomicOutput::close() {
    if (m_file == nullptr) return;
    flush();
    std::FILE* f = m_file;
    if (std::fflush(f) != 0 || std::ferror(f)) {
        const int err = errno;
        discard();
        throw output_error("cannot write " + m_path + ": " + error_text(err));
    }
    if (!m_owned) {
        m_file = nullptr;
        return;
    }
    if (!m_temp.empty()) {
        if (const int err = sync_file(f); err != 0) {
            discard();
            throw output_error("cannot write " + m_path + ": " + error_text(err));
        }
    }
    m_file = nullptr;
    if (std::fclose(f) != 0) {
        const int err = errno;
        discard();
        throw output_error("cannot write " + m_path + ": " + error_text(err));
    }
    if (m_temp.empty()) return;
    std::error_code ec;
    fs::rename(fs::path(m_temp), fs::path(m_target), ec);
    if (ec) {
        discard();
        throw output_error("cannot replace " + m_path + ": " + ec.message());
    }
    m_temp.clear();
    sync_directory(fs::path(m_target).parent_path());
}

}  // namespace semfp::cli
