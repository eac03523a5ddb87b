#include "output.hpp"

#include "diagnostics.hpp"

#include <cerrno>
#include <cstring>

namespace semfp::cli {

namespace {
constexpr std::size_t flush_size = std::size_t{1} << 20;
}

void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t run = 0;  // start of the pending run of bytes copied as they are
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) continue;
        out.append(s.substr(run, i - run));
        run = i + 1;
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
        }
    }
    out.append(s.substr(run));
    out += '"';
}

OutputFile::OutputFile(const std::string& path) : m_path(path) {
    if (path == "-") {
        m_file = stdout;
        m_path = "<stdout>";
    } else {
        m_file = std::fopen(path.c_str(), "wb");
        if (m_file == nullptr) throw output_error("cannot open " + path + " for writing: " + std::strerror(errno));
        m_owned = true;
    }
    m_buffer.reserve(flush_size + flush_size / 4);
}

OutputFile::~OutputFile() {
    if (m_file == nullptr) return;
    try {
        close();
    } catch (...) {
        // Destructors do not throw; the explicit close() reports errors.
    }
}

void OutputFile::write(std::string_view text) {
    m_buffer.append(text);
    commit();
}

void OutputFile::commit() {
    if (m_buffer.size() >= flush_size) flush();
}

void OutputFile::flush() {
    if (m_file == nullptr || m_buffer.empty()) return;
    const std::size_t n = std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file);
    if (n != m_buffer.size()) {
        const int err = errno;
        m_buffer.clear();
        throw output_error("cannot write " + m_path + ": " + std::strerror(err));
    }
    m_buffer.clear();
}

void OutputFile::close() {
    if (m_file == nullptr) return;
    std::FILE* f = m_file;
    flush();
    m_file = nullptr;
    const bool flush_failed = std::fflush(f) != 0;
    const int err = errno;
    const bool close_failed = m_owned && std::fclose(f) != 0;
    if (flush_failed || close_failed || (!m_owned && std::ferror(f))) {
        throw output_error("cannot write " + m_path + ": " + std::strerror(flush_failed ? err : errno));
    }
}

}  // namespace semfp::cli
