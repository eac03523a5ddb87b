#include <semfp/text/encoding.hpp>

#include "support/catch.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#if defined(__GLIBC__) && __has_include(<iconv.h>)
#include <iconv.h>
#define SEMFP_TEST_HAVE_GLIBC_ICONV 1
#endif

using semfp::charset;
using semfp::charset_source;

namespace {

std::string gb4(std::uint32_t pointer) {
    std::string s(4, '\0');
    s[0] = static_cast<char>(0x81 + pointer / 12600);
    s[1] = static_cast<char>(0x30 + pointer / 1260 % 10);
    s[2] = static_cast<char>(0x81 + pointer / 10 % 126);
    s[3] = static_cast<char>(0x30 + pointer % 10);
    return s;
}

std::string u8(char32_t cp) {
    std::string s;
    semfp::utf8::append(s, cp);
    return s;
}

}  // namespace

TEST_CASE("charset labels", "[encoding]") {
    CHECK(semfp::charset_from_label("UTF-8") == charset::utf8);
    CHECK(semfp::charset_from_label("  utf8 ") == charset::utf8);
    CHECK(semfp::charset_from_label("GB2312") == charset::gb2312);
    CHECK(semfp::charset_from_label("x-gbk") == charset::gbk);
    CHECK(semfp::charset_from_label("CP936") == charset::gbk);
    CHECK(semfp::charset_from_label("gb18030") == charset::gb18030);
    CHECK(semfp::charset_from_label("utf-16") == charset::utf16le);
    CHECK(semfp::charset_from_label("UTF-16BE") == charset::utf16be);
    CHECK(semfp::charset_from_label("big5") == charset::unknown);
    CHECK(semfp::charset_from_label("") == charset::unknown);
    CHECK(semfp::charset_name(charset::gbk) == "gbk");
    CHECK(semfp::charset_name(charset::unknown) == "unknown");
}

TEST_CASE("charset from BOM and Content-Type", "[encoding]") {
    CHECK(semfp::charset_from_bom("\xEF\xBB\xBFx") == charset::utf8);
    CHECK(semfp::charset_from_bom("\xFF\xFE") == charset::utf16le);
    CHECK(semfp::charset_from_bom("\xFE\xFF") == charset::utf16be);
    CHECK(semfp::charset_from_bom("\x84\x31\x95\x33") == charset::gb18030);
    CHECK(semfp::charset_from_bom("\xEF\xBB") == charset::unknown);
    CHECK(semfp::charset_from_content_type("text/html; charset=GBK") == charset::gbk);
    CHECK(semfp::charset_from_content_type("text/html;charset=\"gb2312\"") == charset::gb2312);
    CHECK(semfp::charset_from_content_type("text/html; Charset = 'UTF-8'; x=y") == charset::utf8);
    CHECK(semfp::charset_from_content_type("text/html") == charset::unknown);
    CHECK(semfp::charset_from_content_type("text/html; charset=\"gbk") == charset::unknown);
}

TEST_CASE("charset from meta prescan", "[encoding]") {
    CHECK(semfp::charset_from_meta("<html><head><meta charset=\"gbk\"></head>") == charset::gbk);
    CHECK(semfp::charset_from_meta("<META CHARSET=GB2312>") == charset::gb2312);
    CHECK(semfp::charset_from_meta("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb18030\">") ==
          charset::gb18030);
    SECTION("content without http-equiv is ignored") {
        CHECK(semfp::charset_from_meta("<meta content=\"text/html; charset=gbk\">") == charset::unknown);
    }
    SECTION("declarations in comments and attribute values are skipped") {
        CHECK(semfp::charset_from_meta("<!-- <meta charset=gbk> --><meta charset=utf-8>") == charset::utf8);
        CHECK(semfp::charset_from_meta("<a title='<meta charset=gbk>'><meta charset=gb18030>") == charset::gb18030);
    }
    SECTION("UTF-16 declared in a page means UTF-8") {
        CHECK(semfp::charset_from_meta("<meta charset=utf-16>") == charset::utf8);
    }
    SECTION("only the first 1024 bytes count") {
        const std::string late = std::string(1100, ' ') + "<meta charset=gbk>";
        CHECK(semfp::charset_from_meta(late) == charset::unknown);
        CHECK(semfp::charset_from_meta(late, 4096) == charset::gbk);
    }
    SECTION("unknown labels and truncated tags") {
        CHECK(semfp::charset_from_meta("<meta charset=klingon><meta charset=gbk>") == charset::gbk);
        CHECK(semfp::charset_from_meta("<meta charset=\"gbk") == charset::unknown);
    }
}

TEST_CASE("detect_charset priority", "[encoding]") {
    const std::string gb_text = "\xC4\xE3\xBA\xC3";  // "ni hao" in GBK
    auto d = semfp::detect_charset("\xEF\xBB\xBF<meta charset=gbk>", "text/html; charset=gb18030");
    CHECK(d.cs == charset::utf8);
    CHECK(d.source == charset_source::bom);
    d = semfp::detect_charset("<meta charset=gbk>", "text/html; charset=gb18030");
    CHECK(d.cs == charset::gb18030);
    CHECK(d.source == charset_source::content_type);
    d = semfp::detect_charset("<meta charset=gbk>", "text/html");
    CHECK(d.cs == charset::gbk);
    CHECK(d.source == charset_source::meta);
    d = semfp::detect_charset(gb_text);
    CHECK(d.cs == charset::gb18030);
    CHECK(d.source == charset_source::content);
    CHECK(semfp::detect_charset("plain ascii").cs == charset::utf8);
    CHECK(semfp::detect_charset("\xE4\xBD\xA0\xE5\xA5\xBD").cs == charset::utf8);
}

TEST_CASE("UTF-8 decoding replaces malformed bytes", "[encoding]") {
    auto r = semfp::to_utf8(
        "\xEF\xBB\xBF"
        "abc\xE4\xBD\xA0",
        charset::utf8);
    CHECK(r.text == "abc\xE4\xBD\xA0");
    CHECK(r.replaced == 0);
    r = semfp::to_utf8(
        "a\xFF"
        "b\xE4\xBD",
        charset::utf8);
    CHECK(r.text ==
          "a\xEF\xBF\xBD"
          "b\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(r.replaced == 3);
    CHECK(semfp::utf8::is_valid(r.text));
    r = semfp::to_utf8("x\xC0\x80", charset::unknown);
    CHECK(r.cs == charset::utf8);
    CHECK(r.replaced == 2);
}

TEST_CASE("UTF-16 decoding", "[encoding]") {
    using namespace std::string_literals;
    auto r = semfp::to_utf8(
        "\xFF\xFE"
        "a\0`O"s,
        charset::utf16le);  // BOM, 'a', U+4F60
    CHECK(r.text == "a\xE4\xBD\xA0");
    CHECK(r.replaced == 0);
    r = semfp::to_utf8("\xD8\x3D\xDE\x00"s, charset::utf16be);  // U+1F600
    CHECK(r.text == u8(0x1F600));
    r = semfp::to_utf8(
        "\x3D\xD8"
        "a\0"
        "b"s,
        charset::utf16le);  // lone high surrogate, odd byte
    CHECK(r.text ==
          "\xEF\xBF\xBD"
          "a\xEF\xBF\xBD");
    CHECK(r.replaced == 2);
}

TEST_CASE("GB18030 known answers", "[encoding]") {
    CHECK(semfp::to_utf8("\xC4\xE3\xBA\xC3, GBK", charset::gbk).text == "\xE4\xBD\xA0\xE5\xA5\xBD, GBK");
    CHECK(semfp::to_utf8("\xB0\xA1", charset::gb2312).text == u8(0x554A));
    CHECK(semfp::to_utf8("\x81\x40", charset::gb18030).text == u8(0x4E02));
    CHECK(semfp::to_utf8("\x81\x30\x81\x30", charset::gb18030).text == u8(0x80));
    CHECK(semfp::to_utf8("\x81\x35\xF4\x37", charset::gb18030).text == u8(0xE7C7));
    CHECK(semfp::to_utf8("\x84\x31\xA4\x39", charset::gb18030).text == u8(0xFFFF));
    CHECK(semfp::to_utf8("\x90\x30\x81\x30", charset::gb18030).text == u8(0x10000));
    CHECK(semfp::to_utf8("\xE3\x32\x9A\x35", charset::gb18030).text == u8(0x10FFFF));
    CHECK(semfp::to_utf8("\x95\x32\x82\x36", charset::gb18030).text == u8(0x20000));
    CHECK(semfp::to_utf8("\xA8\xBC", charset::gb18030).text == u8(0x1E3F));
    CHECK(semfp::to_utf8("\x80", charset::gbk).text == u8(0x20AC));
    CHECK(semfp::to_utf8("\x84\x31\x95\x33"
                         "a",
                         charset::gb18030)
              .text == "a");  // BOM skipped
}

TEST_CASE("GB18030 error recovery", "[encoding]") {
    const std::string fffd = u8(0xFFFD);
    struct sample {
        std::string_view in;
        std::string out;
        std::size_t replaced;
    };
    const sample samples[] = {
        {"\xFF", fffd, 1},
        {"a\x81", "a" + fffd, 1},        // lead at end of input
        {"\x81 ", fffd + " ", 1},        // ASCII non-trail is read again
        {"\x81\x7F", fffd + "\x7F", 1},  // 0x7F is no trail byte
        {"\x81\xFF"
         "b",
         fffd + "b", 1},        // non-ASCII bad trail is swallowed
        {"\x81\x30", fffd, 1},  // truncated four-byte code
        {"\x81\x30\x81", fffd, 1},
        {"\x81\x30"
         "a",
         fffd + "0a", 1},                               // bad third byte costs one byte
        {"\x81\x30\x81 ", fffd + "0" + fffd + " ", 2},  // bad fourth byte: 0x81 read again
        {"\x84\x31\xA5\x30", fffd, 1},                  // past U+FFFF, below 0x90308130
        {"\xE3\x32\x9A\x36", fffd, 1},                  // past U+10FFFF
        {"\xFE\x39\xFE\x39", fffd, 1},
    };
    for (const sample& s : samples) {
        CAPTURE(s.in);
        const auto r = semfp::to_utf8(s.in, charset::gb18030);
        CHECK(r.text == s.out);
        CHECK(r.replaced == s.replaced);
        CHECK(semfp::utf8::is_valid(r.text));
    }
}

TEST_CASE("GB18030 decoding of every byte pair never overruns", "[encoding]") {
    std::size_t total = 0;
    for (unsigned a = 0; a < 256; ++a) {
        for (unsigned b = 0; b < 256; ++b) {
            const char in[2] = {static_cast<char>(a), static_cast<char>(b)};
            const auto r = semfp::to_utf8(std::string_view(in, 2), charset::gb18030);
            REQUIRE(semfp::utf8::is_valid(r.text));
            total += r.replaced;
        }
    }
    CHECK(total > 0);
}

#if defined(SEMFP_TEST_HAVE_GLIBC_ICONV)
namespace {

class iconv_decoder {
public:
    iconv_decoder() : m_cd(iconv_open("UTF-8", "GB18030")) {}
    ~iconv_decoder() {
        if (ok()) iconv_close(m_cd);
    }
    iconv_decoder(const iconv_decoder&) = delete;
    iconv_decoder& operator=(const iconv_decoder&) = delete;
    [[nodiscard]] bool ok() const { return m_cd != reinterpret_cast<iconv_t>(-1); }

    /// UTF-8 of one sequence, or "" when iconv rejects it or leaves bytes over.
    std::string operator()(std::string_view in) {
        iconv(m_cd, nullptr, nullptr, nullptr, nullptr);
        std::string buf(in);
        char* ip = buf.data();
        std::size_t il = buf.size();
        char out[32];
        char* op = out;
        std::size_t ol = sizeof out;
        const std::size_t r = iconv(m_cd, &ip, &il, &op, &ol);
        if (r == static_cast<std::size_t>(-1) || il != 0) return {};
        return std::string(out, static_cast<std::size_t>(op - out));
    }

private:
    iconv_t m_cd;
};

// Codes whose mapping changed between editions of GB 18030 (2000/2005/2022); C libraries of
// other versions may disagree with the generated table on these and on nothing else.
bool edition_dependent_two_byte(unsigned lead, unsigned trail) {
    if (lead == 0xA6) return (trail >= 0xD9 && trail <= 0xDF) || trail == 0xEC || trail == 0xED || trail == 0xF3;
    if (lead == 0xA8) return trail == 0xBC || trail == 0xBF;
    if (lead == 0xFE) return trail >= 0x50 && trail <= 0xA0;
    return false;
}
bool edition_dependent_four_byte(std::uint32_t pointer) {
    return pointer == 7457 || (pointer >= 19057 && pointer <= 19064) || (pointer >= 39076 && pointer <= 39085);
}

}  // namespace

TEST_CASE("GB18030 agrees with glibc iconv on every code", "[encoding][iconv]") {
    iconv_decoder ref;
    REQUIRE(ref.ok());
    std::size_t mismatches = 0, edition_mismatches = 0, checked = 0;
    auto compare = [&](const std::string& in, bool edition_dependent) {
        // A leading 'x' keeps 84 31 95 33 (U+FEFF) from being taken for a byte order mark.
        const std::string expected = ref("x" + in);
        const auto got = semfp::to_utf8("x" + in, charset::gb18030);
        ++checked;
        const bool same = expected.empty() ? (got.replaced == 1 && got.text == "x" + u8(0xFFFD))
                                           : (got.replaced == 0 && got.text == expected);
        if (same) return;
        if (edition_dependent) {
            ++edition_mismatches;
        } else {
            ++mismatches;
            if (mismatches <= 10) {
                std::string hex;
                for (const char c : in) {
                    hex += "0123456789ABCDEF"[static_cast<unsigned char>(c) >> 4];
                    hex += "0123456789ABCDEF"[static_cast<unsigned char>(c) & 15];
                }
                FAIL_CHECK("mismatch at " << hex);
            }
        }
    };
    SECTION("one byte") {
        for (unsigned b = 0; b < 0x80; ++b) compare(std::string(1, static_cast<char>(b)), false);
    }
    SECTION("two bytes") {
        for (unsigned lead = 0x81; lead <= 0xFE; ++lead) {
            for (unsigned trail = 0x40; trail <= 0xFE; ++trail) {
                if (trail == 0x7F) continue;
                const char in[2] = {static_cast<char>(lead), static_cast<char>(trail)};
                compare(std::string(in, 2), edition_dependent_two_byte(lead, trail));
            }
        }
        CHECK(checked == 23940);
    }
    SECTION("four bytes below U+10000 and the gap after") {
        for (std::uint32_t p = 0; p < 40000; ++p) compare(gb4(p), edition_dependent_four_byte(p));
    }
    SECTION("four bytes beyond the BMP and past U+10FFFF") {
        for (std::uint32_t p = 189000 - 100; p < 189000 + 0x100000 + 100; ++p) compare(gb4(p), false);
        compare(gb4(126 * 12600 - 1), false);
    }
    CHECK(mismatches == 0);
    CHECK(edition_mismatches <= 40);
}
#endif

namespace {

std::string decode_in_pieces(std::string_view bytes, charset cs, std::size_t chunk, std::size_t& replaced) {
    semfp::stream_decoder dec(cs);
    std::string out;
    replaced = 0;
    for (std::size_t i = 0; i < bytes.size(); i += chunk) replaced += dec.feed(bytes.substr(i, chunk), out);
    replaced += dec.finish(out);
    return out;
}

}  // namespace

TEST_CASE("stream_decoder gives the same text for any split", "[encoding]") {
    // Byte soup built from valid codes, cut codes and stray bytes of every charset.
    const std::string_view pieces[] = {
        "a",
        " ",
        "\xC4\xE3",
        "\xBA\xC3",
        "\x81\x30\x81\x30",
        "\x90\x30\x81\x30",
        "\x81",
        "\x30",
        "\xFF",
        "\x80",
        "\xE4\xBD\xA0",
        "\xF0\x9F\x98\x80",
        "\xE4",
        "\xBD",
        "\xED\xA0\x80",
        "\xEF\xBB\xBF",
        "\x84\x31\x95\x33",
        "\xFE\xFF",
        "\xFF\xFE",
        "\x3D\xD8",
        std::string_view("\x00\xDE", 2),
        "\xA0",
        "\xC2",
        "\xE3\x32\x9A\x36",
    };
    std::uint32_t state = 12345;
    auto next = [&state] {
        state = state * 1103515245u + 12345u;
        return (state >> 16) & 0x7FFF;
    };
    const charset charsets[] = {charset::utf8, charset::gb18030, charset::gbk, charset::utf16le, charset::utf16be};
    for (int doc = 0; doc < 300; ++doc) {
        std::string bytes;
        const std::uint32_t len = next() % 30;
        for (std::uint32_t k = 0; k < len; ++k) bytes += pieces[next() % std::size(pieces)];
        for (const charset cs : charsets) {
            const auto whole = semfp::to_utf8(bytes, cs);
            for (const std::size_t chunk : {1u, 2u, 3u, 5u, 7u, 64u}) {
                std::size_t replaced = 0;
                const std::string out = decode_in_pieces(bytes, cs, chunk, replaced);
                if (out != whole.text || replaced != whole.replaced) {
                    CAPTURE(doc, static_cast<int>(cs), chunk);
                    CHECK(out == whole.text);
                    CHECK(replaced == whole.replaced);
                }
            }
        }
    }
    SECTION("a decoder is reusable after finish") {
        semfp::stream_decoder dec(charset::gb18030);
        std::string out;
        CHECK(dec.feed("\xC4", out) == 0);
        CHECK(dec.finish(out) == 1);
        CHECK(dec.feed("\xC4\xE3", out) == 0);
        CHECK(dec.finish(out) == 0);
        CHECK(out == "\xEF\xBF\xBD\xE4\xBD\xA0");
        CHECK(dec.cs() == charset::gb18030);
    }
}

TEST_CASE("charset::unknown reads a UTF-8 byte order mark as UTF-8 does", "[encoding]") {
    const std::string_view bytes = "\xEF\xBB\xBF" "abc\xE4\xBD\xA0";
    CHECK(semfp::to_utf8(bytes, charset::unknown).text == "abc\xE4\xBD\xA0");
    CHECK(semfp::to_utf8(bytes, charset::unknown).cs == charset::utf8);
    CHECK(semfp::to_utf8(bytes, charset::unknown).text == semfp::to_utf8(bytes, charset::utf8).text);
    for (std::size_t chunk = 1; chunk <= bytes.size(); ++chunk) {
        semfp::stream_decoder d(charset::unknown);
        std::string out;
        for (std::size_t i = 0; i < bytes.size(); i += chunk) (void)d.feed(bytes.substr(i, chunk), out);
        (void)d.finish(out);
        CHECK(out == "abc\xE4\xBD\xA0");
    }
}
