#include "input.hpp"

#include "json_line.hpp"

#include <semfp/text/article.hpp>
#include <semfp/detail/list_lines.hpp>
#include <semfp/text/encoding.hpp>
#include <semfp/text/html.hpp>
#include <semfp/text/utf8.hpp>

#if defined(SEMFP_HAVE_SIMDJSON)
#include <simdjson.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <system_error>

namespace semfp::cli {

namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return ext;
}

// The format of a file found in a directory, or `detect` when the file is skipped.
input_format directory_member_format(const fs::path& p, input_format forced) {
    if (forced != input_format::detect) return forced;
    const std::string ext = lower_extension(p);
    if (ext == ".txt" || ext == ".text") return input_format::text;
    if (ext == ".html" || ext == ".htm" || ext == ".xhtml") return input_format::html;
    return input_format::detect;
}

// 1-based line of byte offset `pos`.
std::size_t line_of(std::string_view s, std::size_t pos) {
    return 1 + static_cast<std::size_t>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

bool is_blank(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

// Sets `buffer` (a reused Document's) to `bytes` followed by line_slack bytes of spare capacity.
// The buffer is kept while it fits, but given back when it is more than twice the size needed
// (above a small floor): otherwise each reused Document would keep the capacity of the longest
// line it ever held, and a pipeline with several blocks in flight would hold, and fault in,
// several times the memory its blocks need (183 MB more at 2 threads than at 1 on a 100 k
// document run, before this). `bytes` must not point into `buffer`.
void assign_line(std::string& buffer, std::string_view bytes) {
    constexpr std::size_t kept_floor = 4096;
    const std::size_t need = bytes.size() + line_slack;
    if (buffer.capacity() > 2 * need && buffer.capacity() > kept_floor) std::string().swap(buffer);
    buffer.clear();
    if (buffer.capacity() < need) buffer.reserve(need);
    buffer.assign(bytes);
}

struct unit {
    std::string path;      // to open
    std::string name;      // in messages and line ids
    std::string id;        // document id of whole-file units
    input_format format = input_format::lines;
    bool is_stdin = false;
};

}  // namespace

input_format format_of_path(std::string_view path) {
    if (path == "-") return input_format::jsonl;
    std::error_code ec;
    if (fs::is_directory(fs::path(path), ec)) return input_format::detect;
    const std::string ext = lower_extension(fs::path(path));
    if (ext == ".jsonl" || ext == ".json" || ext == ".ndjson") return input_format::jsonl;
    if (ext == ".html" || ext == ".htm" || ext == ".xhtml") return input_format::html;
    return input_format::lines;
}

std::string decode_file_bytes(std::string_view bytes, input_encoding encoding, bool html, bool& from_legacy,
                              std::vector<input_problem>& problems) {
    charset cs = charset::utf8;
    switch (encoding) {
        case input_encoding::utf8: cs = charset::utf8; break;
        case input_encoding::gb18030: cs = charset::gb18030; break;
        case input_encoding::detect: {
            // A BOM, then (for HTML) a <meta> declaration, then the bytes themselves.
            cs = charset_from_bom(bytes);
            if (cs == charset::unknown && html) cs = charset_from_meta(bytes);
            if (cs == charset::unknown) cs = sniff_charset(bytes);
            break;
        }
    }
    decode_result r = to_utf8(bytes, cs);
    from_legacy = r.cs == charset::gb18030 || r.cs == charset::gbk || r.cs == charset::gb2312;
    if (r.replaced != 0) {
        const bool utf = r.cs == charset::utf8;
        std::string msg = utf ? "invalid UTF-8" : "undecodable " + std::string(charset_name(r.cs));
        msg += " (" + std::to_string(r.replaced) + " byte sequence(s) replaced by U+FFFD)";
        problems.push_back({utf ? line_of(bytes, utf8::valid_prefix(bytes)) : 0, std::move(msg)});
    }
    return std::move(r.text);
}

namespace {

// True when a whole line is well-formed UTF-8: simdjson's vectorized check when the tool is built
// with it (the same rule, RFC 3629; about 16 GB/s against 1.9 for `utf8::is_valid`, which was a
// fifth of `dedup`'s CPU on a JSON Lines corpus), else the library's.
bool line_is_utf8(std::string_view s) noexcept {
#if defined(SEMFP_HAVE_SIMDJSON)
    return simdjson::validate_utf8(s.data(), s.size());
#else
    return utf8::is_valid(s);
#endif
}

// Decodes one line to UTF-8: as is when valid, else GB18030 when that decodes it cleanly (with
// --encoding auto), else with U+FFFD replacements (a problem).
void decode_line(Document& doc, const input_options& opt) {
    if (opt.encoding == input_encoding::gb18030) {
        doc.text = to_utf8(doc.text, charset::gb18030).text;
        doc.legacy = true;
        return;
    }
    if (line_is_utf8(doc.text)) return;
    if (opt.encoding == input_encoding::detect) {
        decode_result gb = to_utf8(doc.text, charset::gb18030);
        if (gb.replaced == 0) {
            doc.legacy = true;
            doc.text = std::move(gb.text);
            return;
        }
    }
    const std::size_t bad = utf8::valid_prefix(doc.text);
    decode_result r = to_utf8(doc.text, charset::utf8);
    doc.problems.push_back({doc.line, "invalid UTF-8 at byte " + std::to_string(bad + 1) + " (" +
                                          std::to_string(r.replaced) + " byte sequence(s) replaced by U+FFFD)"});
    doc.text = std::move(r.text);
}

}  // namespace

void finish_document(Document& doc, const input_options& opt, bool keep_raw) {
    doc.valid = true;
    doc.legacy = false;
    doc.problems.clear();
    doc.raw.clear();
    switch (doc.pending) {
        case input_format::jsonl:
            decode_line(doc, opt);
            parse_json_line(doc, opt, keep_raw);
            break;
        case input_format::lines:
            decode_line(doc, opt);
            doc.id = *doc.source + ":" + std::to_string(doc.line);
            doc.html = false;
            break;
        case input_format::html:
        case input_format::text: {
            const bool html = doc.pending == input_format::html;
            bool legacy = false;
            doc.text = decode_file_bytes(doc.text, opt.encoding, html, legacy, doc.problems);
            doc.legacy = legacy;
            doc.html = html;
            break;
        }
        case input_format::detect: break;
    }
    doc.pending = input_format::detect;
}

bool report_problems(const Document& doc, Diagnostics& diag) {
    for (const auto& r : doc.preceding) diag.bad_input(r.where, r.line, r.message);
    for (const auto& p : doc.problems) diag.bad_input(doc.source ? *doc.source : std::string(), p.line, p.message);
    return doc.valid;
}

namespace {
// The --html-text mode of the run's inputs: set by the DocumentReader, read by every worker.
std::atomic<html_text_mode> g_html_text_mode{html_text_mode::main};
}  // namespace

std::string html_text(std::string_view markup, html_text_mode mode) {
    // Never the title (page furniture more often than content). `main`: the article, so the
    // site's template (navigation, related links, ads, comments, footer) does not outweigh it;
    // pages without a clear article give all visible text.
    if (mode == html_text_mode::all) return html_to_text(markup);
    return extract_main_text(markup);
}

std::string html_text(std::string_view markup) { return html_text(markup, g_html_text_mode.load(std::memory_order_relaxed)); }

struct DocumentReader::state {
    const input_options* opt = nullptr;
    Diagnostics* diag = nullptr;
    bool keep_raw = false;
    std::vector<unit> units;
    std::size_t next_unit = 0;
    std::uint64_t total = 0;
    std::uint64_t done = 0;
    bool total_known = true;

    // The open line-oriented unit.
    const unit* current = nullptr;
    std::ifstream file;
    std::istream* in = nullptr;
    std::size_t line_no = 0;
    std::string line;

    void add_path(const std::string& path);
    void scan_directory(const fs::path& root, const fs::path& dir, std::vector<unit>& found, int depth);
    bool open_next();
    bool read_whole(const unit& u, Document& doc);
    bool next_line_document(Document& doc);

    // Reports of the reading itself wait in `pending` for the next document (its `preceding`),
    // so they come out in input order with the documents' own problems. Those left at the end of
    // the input are flushed: to `diag`, or kept for the caller while deferred.
    bool defer = false;
    std::vector<reader_report> pending;
    std::vector<reader_report> deferred;
    void report(std::string_view where, std::size_t at_line, std::string message) {
        pending.push_back({std::string(where), at_line, std::move(message)});
    }
    void flush() {
        std::vector<reader_report> rs;
        rs.swap(pending);
        for (auto& r : rs) {
            if (defer) {
                deferred.push_back(std::move(r));
            } else {
                diag->bad_input(r.where, r.line, r.message);
            }
        }
    }
    bool next_document(Document& doc);
};

void DocumentReader::state::add_path(const std::string& path) {
    if (path == "-") {
        unit u;
        u.path = "-";
        u.name = "<stdin>";
        u.format = opt->format == input_format::detect ? input_format::jsonl : opt->format;
        u.is_stdin = true;
        units.push_back(std::move(u));
        total_known = false;
        return;
    }
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) {
        std::vector<unit> found;
        scan_directory(p, p, found, 0);
        std::sort(found.begin(), found.end(), [](const unit& a, const unit& b) { return a.id < b.id; });
        for (auto& u : found) units.push_back(std::move(u));
        return;
    }
    unit u;
    u.path = path;
    u.name = path;
    u.id = path;
    u.format = opt->format == input_format::detect ? format_of_path(path) : opt->format;
    const auto size = fs::file_size(p, ec);
    if (!ec) total += size;
    units.push_back(std::move(u));
}

// Lists the documents under `dir` (depth first). A directory that cannot be read, or an entry
// whose type cannot be told (a dangling link named like a document, say), is bad input, so it
// is reported (fatal under --strict) rather than silently missing from the results. Symbolic
// links to directories are not followed (no cycles); a depth limit guards against the rest.
void DocumentReader::state::scan_directory(const fs::path& root, const fs::path& dir, std::vector<unit>& found,
                                           int depth) {
    const std::string shown = dir.string();
    if (depth > 256) {
        diag->bad_input(shown, 0, "directory nested too deeply (more than 256 levels)");
        return;
    }
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
        diag->bad_input(shown, 0, "cannot read directory: " + ec.message());
        return;
    }
    std::vector<fs::path> subdirs;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        const fs::directory_entry& e = *it;
        std::error_code ec2;
        const fs::file_status st = e.status(ec2);
        const input_format f = directory_member_format(e.path(), opt->format);
        if (st.type() == fs::file_type::not_found) {
            // A symbolic link whose target is missing: bad input when it would have been read.
            if (f != input_format::detect) {
                diag->bad_input(e.path().string(), 0,
                                "cannot read: " + (ec2 ? ec2.message() : std::string("dangling symbolic link")));
            }
            continue;
        }
        if (ec2) {
            // Its type cannot be told (permissions, a path too long to resolve): it may be a
            // directory of documents, so it is reported whatever its name.
            diag->bad_input(e.path().string(), 0, "cannot read: " + ec2.message());
            continue;
        }
        if (fs::is_directory(st)) {
            if (!e.is_symlink(ec2)) subdirs.push_back(e.path());
            continue;
        }
        if (!fs::is_regular_file(st) || f == input_format::detect) continue;
        unit u;
        u.path = e.path().string();
        u.name = u.path;
        u.id = e.path().lexically_relative(root).generic_string();
        u.format = f;
        const auto size = e.file_size(ec2);
        if (!ec2) total += size;
        found.push_back(std::move(u));
    }
    if (ec) diag->bad_input(shown, 0, "cannot read directory: " + ec.message());
    for (const fs::path& sub : subdirs) scan_directory(root, sub, found, depth + 1);
}

bool DocumentReader::state::open_next() {
    current = nullptr;
    in = nullptr;
    if (file.is_open()) file.close();
    file.clear();
    while (next_unit < units.size()) {
        const unit& u = units[next_unit++];
        if (u.format == input_format::html || u.format == input_format::text) {
            current = &u;
            return true;
        }
        line_no = 0;
        if (u.is_stdin) {
            in = &std::cin;
            current = &u;
            return true;
        }
        file.open(u.path, std::ios::binary);
        if (!file) {
            report(u.name, 0, std::string("cannot open: ") + std::strerror(errno));
            file.clear();
            continue;
        }
        in = &file;
        current = &u;
        return true;
    }
    return false;
}

bool DocumentReader::state::read_whole(const unit& u, Document& doc) {
    std::ifstream f(u.path, std::ios::binary);
    if (!f) {
        report(u.name, 0, std::string("cannot open: ") + std::strerror(errno));
        return false;
    }
    // Read at most one byte more than the bound: a file that grows, a FIFO or a device cannot
    // make the read unbounded.
    const std::size_t max = opt->max_document_bytes;
    doc.text.clear();
    char chunk[1 << 16];
    while (f && doc.text.size() <= max) {
        f.read(chunk, static_cast<std::streamsize>(std::min<std::size_t>(sizeof chunk, max + 1 - doc.text.size())));
        doc.text.append(chunk, static_cast<std::size_t>(f.gcount()));
    }
    if (f.bad()) {
        report(u.name, 0, "read error");
        return false;
    }
    if (doc.text.size() > max) {
        std::error_code ec;
        const auto size = fs::file_size(fs::path(u.path), ec);
        done += ec ? doc.text.size() : size;
        std::string().swap(doc.text);
        report(u.name, 0, "file larger than the maximum document size (" + std::to_string(max) +
                                       " bytes; see --max-document-size), skipped");
        return false;
    }
    done += doc.text.size();
    doc.id = u.id;
    doc.bytes = doc.text.size();
    doc.source = &u.name;
    doc.line = 0;
    doc.pending = u.format;
    return true;
}

bool DocumentReader::state::next_line_document(Document& doc) {
    for (;;) {
        const detail::bounded_line r = detail::read_bounded_line(*in, line, opt->max_document_bytes);
        if (r.status == detail::line_status::end) break;
        ++line_no;
        const std::size_t consumed = r.consumed;
        done += consumed;
        if (r.status == detail::line_status::too_long) {
            report(current->name, line_no, "line longer than the maximum document size (" +
                                                        std::to_string(opt->max_document_bytes) +
                                                        " bytes; see --max-document-size), skipped");
            continue;
        }
        std::string_view bytes(line);
        if (!bytes.empty() && bytes.back() == '\r') bytes.remove_suffix(1);
        if (line_no == 1 && bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
        if (is_blank(bytes)) continue;
        assign_line(doc.text, bytes);
        doc.bytes = consumed;
        doc.source = &current->name;
        doc.line = line_no;
        doc.pending = current->format;
        return true;
    }
    if (in->bad()) report(current->name, line_no + 1, "read error");
    return false;
}

DocumentReader::DocumentReader(const input_options& opt, Diagnostics& diag, bool keep_raw)
    : m_state(std::make_unique<state>()) {
    state& s = *m_state;
    s.opt = &opt;
    s.diag = &diag;
    s.keep_raw = keep_raw;
    g_html_text_mode.store(opt.html_text, std::memory_order_relaxed);
    for (const auto& p : opt.paths) s.add_path(p);
}

DocumentReader::~DocumentReader() = default;

// The next document, with the reader's reports found since the previous one; false at the end
// (the reports found after the last document stay pending).
bool DocumentReader::state::next_document(Document& doc) {
    for (;;) {
        if (current == nullptr && !open_next()) return false;
        const unit& u = *current;
        bool got = false;
        if (u.format == input_format::html || u.format == input_format::text) {
            current = nullptr;
            got = read_whole(u, doc);
        } else {
            got = next_line_document(doc);
            if (!got) current = nullptr;
        }
        if (got) {
            doc.preceding.clear();
            doc.preceding.swap(pending);
            return true;
        }
    }
}

bool DocumentReader::next(Document& doc) {
    if (m_state->next_document(doc)) return true;
    m_state->flush();
    return false;
}

std::size_t DocumentReader::read_batch(std::vector<Document>& batch, std::size_t max_docs, std::size_t max_bytes) {
    std::size_t n = 0, bytes = 0;
    while (n < max_docs && bytes < max_bytes) {
        if (batch.size() <= n) batch.emplace_back();
        if (!m_state->next_document(batch[n])) break;
        bytes += batch[n].bytes;
        ++n;
    }
    // Reports after the last document wait until the batch's documents have been reported (the
    // caller's next call, which returns 0).
    if (n == 0) m_state->flush();
    return n;
}

void DocumentReader::defer_reports(bool on) noexcept { m_state->defer = on; }

void DocumentReader::take_reports(std::vector<reader_report>& out) {
    out.clear();
    out.swap(m_state->deferred);
}

std::uint64_t DocumentReader::bytes_done() const noexcept { return m_state->done; }
std::uint64_t DocumentReader::bytes_total() const noexcept { return m_state->total_known ? m_state->total : 0; }

}  // namespace semfp::cli
