// Charset detection and decoding: detect_charset never returns unknown, every charset decodes
// to well-formed UTF-8, and stream_decoder in chunks gives the same text as to_utf8.
#include "fuzz_support.hpp"

#include <semfp/text/encoding.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::size_t chunk = 1 + data[0] % 7;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    const semfp::charset_detection det =
        semfp::detect_charset(bytes, bytes.substr(0, std::min<std::size_t>(bytes.size(), 40)));
    semfp_fuzz::check(det.cs != semfp::charset::unknown, "detect_charset returned unknown");
    (void)semfp::charset_from_meta(bytes);
    (void)semfp::charset_from_label(bytes.substr(0, 40));
    for (const auto cs : {semfp::charset::unknown, semfp::charset::utf8, semfp::charset::utf16le,
                          semfp::charset::utf16be, semfp::charset::gb18030, semfp::charset::gbk}) {
        const semfp::decode_result r = semfp::to_utf8(bytes, cs);
        semfp_fuzz::check(semfp::utf8::is_valid(r.text), "to_utf8 output is UTF-8");
        semfp::stream_decoder dec(cs);
        std::string out;
        std::size_t replaced = 0;
        for (std::size_t i = 0; i < bytes.size(); i += chunk) replaced += dec.feed(bytes.substr(i, chunk), out);
        replaced += dec.finish(out);
        semfp_fuzz::check(out == r.text, "stream_decoder == to_utf8");
        semfp_fuzz::check(replaced == r.replaced, "stream_decoder replacement count");
    }
    (void)semfp::decode_to_utf8(bytes);
    return 0;
}
