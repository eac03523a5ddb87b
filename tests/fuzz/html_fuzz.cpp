// HTML text extraction: the output is well-formed UTF-8, extract_html and html_to_text agree,
// and the streaming extractor fed in chunk sizes taken from the input gives the same text and
// title as the whole document.
#include "fuzz_support.hpp"

#include <semfp/text/html.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    semfp::html_options opt;
    opt.line_breaks = (data[0] & 1) != 0;
    opt.nbsp_as_space = (data[0] & 2) != 0;
    const std::size_t chunk_seed = data[1];
    const std::string_view html(reinterpret_cast<const char*>(data) + 2, size - 2);

    const semfp::html_document doc = semfp::extract_html(html, opt);
    semfp_fuzz::check(semfp::utf8::is_valid(doc.text) && semfp::utf8::is_valid(doc.title), "output is UTF-8");
    semfp_fuzz::check(semfp::html_to_text(html, opt) == doc.text, "html_to_text == extract_html().text");

    semfp::html_text_stream stream(opt);
    std::string streamed;
    std::size_t state = chunk_seed * 2654435761u + 1;
    for (std::size_t i = 0; i < html.size();) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        const std::size_t n = std::min<std::size_t>(html.size() - i, (state >> 59) == 0 ? 0 : 1 + (state >> 33) % 17);
        stream.feed(html.substr(i, n));
        streamed += stream.text();
        stream.text().clear();
        i += n;
    }
    stream.finish();
    streamed += stream.text();
    semfp_fuzz::check(streamed == doc.text, "streamed text == whole text");
    semfp_fuzz::check(stream.title() == doc.title, "streamed title == whole title");
    (void)semfp::html_unescape(html);
    return 0;
}
