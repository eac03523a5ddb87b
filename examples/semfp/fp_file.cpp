#include "fp_file.hpp"

#include <semfp/detail/crc32c.hpp>
#include <semfp/error.hpp>
#include <semfp/index/serialization.hpp>

#include <algorithm>
#include <utility>

namespace semfp::cli {

namespace {

constexpr std::string_view fp_magic = "SEMFPFPB";
constexpr std::uint32_t fp_version = 4;  // 2: the hybrid sketch (MinHashSketch::state() + payload()); 3: ASCII words as bigrams; 4: short texts as text bigrams
constexpr std::uint32_t longest_string = std::uint32_t{1} << 30;

}  // namespace

FpFileWriter::FpFileWriter(AtomicOutput& out, const fp_file_header& h)
    : m_out(out), m_bits(h.bits), m_sketches(h.sketches) {
    bytes(fp_magic.data(), fp_magic.size());
    u32(fp_version);
    u32(h.bits);
    str(h.digest);
    str(h.identity);
    u32(h.shard);
    u32(h.shards);
    u32(h.sketches ? 1u : 0u);
}

void FpFileWriter::bytes(const void* p, std::size_t n) {
    m_crc = semfp::detail::crc32c_update(m_crc, static_cast<const unsigned char*>(p), n);
    m_out.buffer().append(static_cast<const char*>(p), n);
}
void FpFileWriter::u8(unsigned v) {
    const auto b = static_cast<unsigned char>(v);
    bytes(&b, 1);
}
void FpFileWriter::u32(std::uint32_t v) {
    unsigned char b[4];
    for (int i = 0; i < 4; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    bytes(b, 4);
}
void FpFileWriter::u64(std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    bytes(b, 8);
}
void FpFileWriter::str(std::string_view s) {
    u32(static_cast<std::uint32_t>(std::min<std::size_t>(s.size(), longest_string)));
    bytes(s.data(), std::min<std::size_t>(s.size(), longest_string));
}

void FpFileWriter::add(std::uint64_t ordinal, std::string_view id, const fp_value& fp, const MinHashSketch& sketch) {
    u8(1);
    u64(ordinal);
    str(id);
    for (unsigned w = 0; w < m_bits / 64; ++w) u64(fp.words[w]);
    if (m_sketches) {
        u32(sketch.state());
        bytes(sketch.payload().data(), sketch.payload().size());
    }
    ++m_count;
    m_out.commit();
}

void FpFileWriter::finish(std::uint64_t records) {
    u8(0);
    u64(m_count);
    u64(records);
    u32(m_crc);
    m_out.commit();
}

struct FpFileReader::impl {
    std::ifstream is;
    semfp::detail::binary_reader r;
    explicit impl(const std::string& path) : is(path, std::ios::binary), r(is) {}
};

namespace {

// Reads in pieces so that a corrupted length fails at the end of the data, not in an allocation.
std::string read_str(semfp::detail::binary_reader& r) {
    const std::size_t at = r.offset();
    const std::uint32_t n = r.u32();
    if (n > longest_string) semfp::detail::throw_format_error("semfp: string too long", at);
    std::string s;
    for (std::uint32_t done = 0; done < n;) {
        const std::uint32_t step = std::min<std::uint32_t>(n - done, 1u << 16);
        s.resize(done + step);
        r.bytes(reinterpret_cast<unsigned char*>(s.data() + done), step);
        done += step;
    }
    return s;
}

template <class F>
auto with_path(const std::string& path, F&& f) {
    try {
        return f();
    } catch (const semfp::format_error& e) {
        throw semfp::format_error(path + ": " + e.what(), e.offset());
    }
}

}  // namespace

FpFileReader::FpFileReader(const std::string& path) : m_path(path), m_impl(std::make_unique<impl>(path)) {
    if (!m_impl->is) semfp::detail::throw_io_error("semfp: cannot open '" + path + "' for reading");
    with_path(m_path, [&] {
        auto& r = m_impl->r;
        unsigned char m[8];
        r.bytes(m, 8);
        if (std::string_view(reinterpret_cast<const char*>(m), 8) != fp_magic)
            semfp::detail::throw_format_error("not a fingerprint file of semfp fingerprint --out-format bin (bad magic)", 0);
        if (const auto v = r.u32(); v >= 1 && v < fp_version)
            semfp::detail::throw_format_error(
                "fingerprint file version " + std::to_string(v) +
                    " (sketches of an earlier semfp, not comparable with this version's); run semfp fingerprint again",
                8);
        else if (v != fp_version)
            semfp::detail::throw_format_error("unsupported fingerprint file version " + std::to_string(v), 8);
        m_header.bits = r.u32();
        if (m_header.bits != 64 && m_header.bits != 128)
            semfp::detail::throw_format_error("unsupported fingerprint width " + std::to_string(m_header.bits), 12);
        m_header.digest = read_str(r);
        m_header.identity = read_str(r);
        const std::size_t at = r.offset();
        m_header.shard = r.u32();
        m_header.shards = r.u32();
        const std::uint32_t flags = r.u32();
        if (m_header.shards == 0 || m_header.shard >= m_header.shards || flags > 1)
            semfp::detail::throw_format_error("invalid shard or flags", at);
        m_header.sketches = flags == 1;
        return 0;
    });
}

FpFileReader::~FpFileReader() = default;

bool FpFileReader::next(fp_file_entry& e) {
    if (m_done) return false;
    return with_path(m_path, [&] {
        auto& r = m_impl->r;
        unsigned char tag = 0;
        const std::size_t at = r.offset();
        r.bytes(&tag, 1);
        if (tag == 0) {
            const std::uint64_t count = r.u64();
            m_records = r.u64();
            if (count != m_count) semfp::detail::throw_format_error("document count does not match", at + 1);
            r.finish();
            if (m_impl->is.peek() != std::char_traits<char>::eof())
                semfp::detail::throw_format_error("data after the end", r.offset());
            m_done = true;
            return false;
        }
        if (tag != 1) semfp::detail::throw_format_error("bad entry tag", at);
        const std::uint64_t ordinal = r.u64();
        if (ordinal % m_header.shards != m_header.shard || (m_count != 0 && ordinal <= m_last))
            semfp::detail::throw_format_error("ordinal out of order or of another shard", at + 1);
        e.ordinal = ordinal;
        m_last = ordinal;
        e.id = read_str(r);
        e.fp = fp_value{};
        for (unsigned w = 0; w < m_header.bits / 64; ++w) e.fp.words[w] = r.u64();
        if (m_header.sketches) {
            const std::size_t sketch_at = r.offset();
            const std::uint32_t state = r.u32();
            MinHashSketch::bins_type payload{};
            r.bytes(payload.data(), payload.size());
            if (!MinHashSketch::from_saved(payload, state, e.sketch))
                semfp::detail::throw_format_error("invalid sketch", sketch_at);
        } else {
            e.sketch = MinHashSketch{};
        }
        ++m_count;
        return true;
    });
}

}  // namespace semfp::cli
