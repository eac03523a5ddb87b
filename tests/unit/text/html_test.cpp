#include <semfp/text/encoding.hpp>
#include <semfp/text/html.hpp>

#include "support/catch.hpp"

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#if defined(SEMFP_TEST_HAVE_GUMBO)
#include <gumbo.h>
#endif

namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::filesystem::path html_data(std::string_view name) {
    return std::filesystem::path(SEMFP_TEST_DATA_DIR) / "html" / name;
}

/// `s` without ASCII whitespace and U+00A0: texts that agree "modulo whitespace" are equal here.
[[maybe_unused]] std::string strip_space(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') continue;
        if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0') {
            ++i;
            continue;
        }
        out += c;
    }
    return out;
}

std::string text(std::string_view html) {
    return semfp::html_to_text(html);
}

/// Markup exercising the tokenizer's corners, shared by the streaming and gumbo comparisons.
const char* const g_snippets[] = {
    "<p>Hello <b>world</b></p>",
    "a<!-- c -->b<!-->c<!--->d<!-- x --!>e",
    "3 < 5 <3 a <-- b x</ y>z x</>y",
    "<p class=\"a>b\" title='x > y'>quoted</p>",
    "&copy &copyright; &notin; &notit; &amp;amp; &#65;&#x42;&#X43 &#128; &#x9F; &unknown; & &#; &#x;",
    "&#0;&#xD800;&#x110000;&#99999999999;",
    "a<script>x</scripty>y</script >b<style>p{}</style>c",
    "<textarea>\n a &lt; b</textarea><xmp><b>&amp;</b></xmp>",
    "<svg><title>t</title><text><![CDATA[ x & y ]]></text></svg>z",
    "<table><tr><td>1<td>2<tr><td>3</table>",
    "<title>T &amp; <i>x</i></title>body",
    "a<template><p>t</p></template>b",
    "<pre>\n  a  b\n</pre>",
    "<div/>a<p/>b<br/>c",
    "<svg><style>.a{}</style><text>x</text></svg>y",
    "<svg><script>hidden<p>shown",
    "<math><mi>x</mi><mo>+</mo></math><svg/>after",
    "a<!-- never closed <p>b</p>",
    "a<script>never closed",
    "a<p title='never closed>b",
    "a<title>t",
    "a<",
    "a</",
    "x\r\ny\r",
    "<pre>\r\n a</pre><pre>\n\nb</pre><listing>\nc</listing>",
    ("\xEF\xBB\xBF"
     "bom then text"),
    "<plaintext>a &amp; <b>b</b>\xE4\xBD\xA0",
    "&CounterClockwiseContourIntegral;&amp&ampx&#x4F60&#20320;x&notin;&notit",
    "\xE4\xBD\xA0\xE5\xA5\xBD\xC2\xA0\xF0\x9F\x98\x80\xFF",
    "<div>a<!---->b<!---x-->c<!--->d</div>",
    "<![CDATA[x]]>y<svg><![CDATA[z]]></svg>",
    "<textarea>\r\n x</textarea><xmp>a</xmp>",
};

std::string streamed(std::string_view html, std::size_t chunk, std::string* title = nullptr) {
    semfp::html_text_stream stream;
    std::string out;
    for (std::size_t i = 0; i < html.size(); i += chunk) {
        stream.feed(html.substr(i, chunk));
        out += stream.text();  // take the text produced so far
        stream.text().clear();
    }
    stream.finish();
    out += stream.text();
    if (title != nullptr) *title = stream.title();
    return out;
}

}  // namespace

TEST_CASE("html: tags, comments and hidden elements are removed", "[html]") {
    CHECK(text("<p>Hello <b>world</b></p>") == "Hello world");
    CHECK(text("a<!-- comment -->b") == "ab");
    CHECK(text("a<script>var x = '<p>no</p>';</script>b") == "ab");
    CHECK(text("a<style>p { color: red }</style>b") == "ab");
    CHECK(text("a<noscript><p>enable js</p></noscript>b") == "ab");
    CHECK(text("a<template><p>t<template>u</template>v</p></template>b") == "ab");
    CHECK(text("a<iframe>fallback</iframe>b<noembed>x</noembed>c") == "abc");
    CHECK(text("<!DOCTYPE html><?xml version='1.0'?>x") == "x");
    CHECK(text("a<![CDATA[hidden]]>b") == "ab");  // in HTML content CDATA is a bogus comment up to the first >
    CHECK(text("a<![CDATA[x>y]]>b") == "ay]]>b");
    CHECK(text("<svg><text><![CDATA[shown & kept]]></text></svg>") == "shown & kept");
    SECTION("in svg and math, script and style hold markup, not raw text") {
        CHECK(text("<svg><style>.a{}</style><text>x</text></svg>y") == "xy");
        CHECK(text("<svg><script>if (a &lt; b) f();</script><text>x</text></svg>") == "x");
        CHECK(text("<svg><script>hidden<p>shown") == "shown");  // <p> ends foreign content
    }
}

TEST_CASE("html: title is kept apart", "[html]") {
    const auto doc = semfp::extract_html(
        "<html><head><title>  My &amp; <b>page</b>\n title </title></head><body>Body</body><title>second</title>");
    CHECK(doc.title == "My & <b>page</b> title");
    CHECK(doc.text == "Body");
    CHECK(semfp::extract_html("<svg><title>tip</title></svg>x").title.empty());
}

TEST_CASE("html: blocks and br end lines, whitespace collapses", "[html]") {
    CHECK(text("<div>one</div><div>two</div>") == "one\ntwo");
    CHECK(text("<p>a\n   b\t c</p>\n\n<p>d</p>") == "a b c\nd");
    CHECK(text("a<br>b<br/><br>c") == "a\nb\n\nc");
    CHECK(text("<ul><li>x<li>y</ul>") == "x\ny");
    CHECK(text("<table><tr><td>1<td>2<tr><td>3</table>") == "1 2\n3");
    CHECK(text("<span>no</span><span>space</span>") == "nospace");
    CHECK(text("   \n <p>  trimmed  </p>  \n") == "trimmed");
    CHECK(text("a&nbsp;&nbsp;b") == "a b");
    CHECK(semfp::html_to_text("a&nbsp;b", {true, false}) ==
          "a\xC2\xA0"
          "b");
    CHECK(semfp::html_to_text("<p>a</p><p>b</p>c<br>d", {false, true}) == "a b c d");
}

TEST_CASE("html: preformatted text keeps whitespace", "[html]") {
    CHECK(text("<pre>\n  a  b\n\tc</pre>d") == "a  b\n\tc\nd");
    CHECK(text("x<textarea>\n  keep  &lt;me&gt;</textarea>y") == "x  keep  <me> y");
    CHECK(text("<xmp><b>&amp;</b></xmp>") == "<b>&amp;</b>");
    CHECK(text("a<plaintext></plaintext><p>&amp;") == "a\n</plaintext><p>&amp;");
    CHECK(text("<pre>a\r\nb\rc</pre>") == "a\nb\nc");
}

TEST_CASE("html: character references", "[html]") {
    CHECK(text("&lt;&gt;&amp;&quot;&apos;") == "<>&\"'");
    CHECK(text("&#20320;&#x597D;&#X597d") == "\xE4\xBD\xA0\xE5\xA5\xBD\xE5\xA5\xBD");
    CHECK(text("&copy &copy; &COPY") == "\xC2\xA9 \xC2\xA9 \xC2\xA9");
    CHECK(text("&notit; &notin;") == "\xC2\xACit; \xE2\x88\x89");
    CHECK(text("&unknown; & alone &#; &#x; &") == "&unknown; & alone &#; &#x; &");
    CHECK(text("&NotEqualTilde;") == "\xE2\x89\x82\xCC\xB8");  // two code points
    CHECK(text("&CounterClockwiseContourIntegral;") == "\xE2\x88\xB3");
    SECTION("invalid numeric references become U+FFFD, C1 controls are Windows-1252") {
        CHECK(text("&#0;") == "\xEF\xBF\xBD");
        CHECK(text("&#xD800;") == "\xEF\xBF\xBD");
        CHECK(text("&#x110000;") == "\xEF\xBF\xBD");
        CHECK(text("&#99999999999999999999;") == "\xEF\xBF\xBD");
        CHECK(text("&#128;&#x9F;&#x81;") == "\xE2\x82\xAC\xC5\xB8\xC2\x81");
    }
    CHECK(semfp::html_unescape("a &lt;b&gt; &amp c &#x4F60;\n") == "a <b> & c \xE4\xBD\xA0\n");
    CHECK(semfp::html_unescape("&&;&") == "&&;&");
}

TEST_CASE("html: broken markup", "[html]") {
    CHECK(text("<p class=\"a>b\" title='x > y'>quoted</p>") == "quoted");
    CHECK(text("3 < 5 and <3 and a <-- b") == "3 < 5 and <3 and a <-- b");
    CHECK(text("x</ y>z") == "xz");  // "</" then a non-letter: bogus comment
    CHECK(text("x</>y") == "xy");
    CHECK(text("a<") == "a<");
    CHECK(text("a</") == "a</");
    CHECK(text("a<p title='never closed>b") == "a");
    CHECK(text("a<!-- never closed <p>b</p>") == "a");
    CHECK(text("a<!-->b<!--->c<!-- x --!>d") == "abcd");
    CHECK(text("a<script>never closed") == "a");
    CHECK(text("a<script>x</scripty>y</script >b") == "ab");
    CHECK(text("a<title>t") == "a");
    CHECK(text("<div/>a<p/>b") == "a\nb");
}

TEST_CASE("html: malformed UTF-8 becomes U+FFFD", "[html]") {
    const std::string out = text(
        "a\xFF"
        "b\xE4\xBD");
    CHECK(out ==
          "a\xEF\xBF\xBD"
          "b\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(semfp::utf8::is_valid(out));
    CHECK(text("\xEF\xBB\xBFx") == "x");  // byte order mark
}

TEST_CASE("html: every prefix of a document is handled", "[html]") {
    // Truncation at any byte must neither crash nor produce malformed UTF-8.
    const std::string page = read_file(html_data("broken.html"));
    for (std::size_t n = 0; n <= page.size(); ++n) {
        const auto doc = semfp::extract_html(std::string_view(page).substr(0, n));
        REQUIRE(semfp::utf8::is_valid(doc.text));
        REQUIRE(semfp::utf8::is_valid(doc.title));
    }
}

TEST_CASE("html: pathological inputs take linear time", "[html]") {
    // Each would be quadratic with a naive rescan; they must finish quickly (no timing asserted).
    const std::string lt(200000, '<');
    CHECK(text(lt).size() == lt.size());
    std::string comments;
    for (int i = 0; i < 50000; ++i) comments += "<!-- -";
    CHECK(text(comments).empty());
    std::string script = "<script>";
    for (int i = 0; i < 50000; ++i) script += "</scrip";
    CHECK(text(script).empty());
    std::string amps;
    for (int i = 0; i < 20000; ++i) amps += "&CounterClockwiseContourIntegrals";
    CHECK(text(amps).size() == amps.size());
}

TEST_CASE("html: fixtures", "[html]") {
    SECTION("DocBook-style chapter") {
        const auto doc = semfp::extract_html(read_file(html_data("docbook_zh.html")));
        CHECK(doc.title ==
              "\xE7\xAC\xAC 3 \xE7\xAB\xA0 \xE6\x96\x87\xE6\x9C\xAC\xE5\xA4\x84\xE7\x90\x86\xE5\x85\xA5\xE9\x97\xA8");
        CHECK(doc.text == read_file(html_data("docbook_zh.txt")));
    }
    SECTION("GB2312 news page, decoded through charset detection") {
        const std::string bytes = read_file(html_data("news_gbk.html"));
        const auto detected = semfp::detect_charset(bytes);
        CHECK(detected.cs == semfp::charset::gb2312);
        CHECK(detected.source == semfp::charset_source::meta);
        const auto decoded = semfp::to_utf8(bytes, detected.cs);
        CHECK(decoded.replaced == 0);
        const auto doc = semfp::extract_html(decoded.text);
        CHECK(doc.text == read_file(html_data("news_gbk.txt")));
        CHECK(doc.text.find("stats") == std::string::npos);
        CHECK(doc.text.find("font-family") == std::string::npos);
    }
    SECTION("broken markup") {
        const auto doc = semfp::extract_html(read_file(html_data("broken.html")));
        CHECK(doc.title == "Broken & markup <b>here</b>");
        CHECK(doc.text == read_file(html_data("broken.txt")));
    }
}

TEST_CASE("html: streaming gives the same text for any split", "[html]") {
    const std::size_t chunk = GENERATE(std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{8},
                                       std::size_t{13}, std::size_t{64}, std::size_t{1000});
    CAPTURE(chunk);
    for (const char* s : g_snippets) {
        CAPTURE(s);
        const auto whole = semfp::extract_html(s);
        std::string title;
        CHECK(streamed(s, chunk, &title) == whole.text);
        CHECK(title == whole.title);
    }
    for (const char* name : {"docbook_zh.html", "broken.html"}) {
        const std::string page = read_file(html_data(name));
        const auto whole = semfp::extract_html(page);
        std::string title;
        CHECK(streamed(page, chunk, &title) == whole.text);
        CHECK(title == whole.title);
    }
}

TEST_CASE("html: streaming with empty feeds and a long script", "[html]") {
    semfp::html_text_stream stream;
    stream.feed("");
    stream.feed("<p>a</p><scr");
    stream.feed("ipt>");
    for (int i = 0; i < 10000; ++i) stream.feed("if (a < b) x = '</scr' + 'ipt>'; ");
    stream.feed("</script><p>b");
    stream.feed("");
    stream.finish();
    CHECK(stream.text() == "a\nb");  // '</scr' + 'ipt>' never closes the script
}

#if defined(SEMFP_TEST_HAVE_GUMBO)
namespace {

struct gumbo_text {
    std::string title;
    std::string text;
};

bool hidden(const GumboElement& e) {
    if (e.tag_namespace != GUMBO_NAMESPACE_HTML) return e.tag == GUMBO_TAG_SCRIPT || e.tag == GUMBO_TAG_STYLE;
    switch (e.tag) {
        case GUMBO_TAG_SCRIPT:
        case GUMBO_TAG_STYLE:
        case GUMBO_TAG_NOSCRIPT:
        case GUMBO_TAG_TEMPLATE:
        case GUMBO_TAG_IFRAME:
        case GUMBO_TAG_NOEMBED:
        case GUMBO_TAG_NOFRAMES:
        case GUMBO_TAG_TITLE:
            return true;
        default:
            return false;
    }
}

void collect(const GumboNode* node, gumbo_text& out) {
    switch (node->type) {
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_CDATA:
        case GUMBO_NODE_WHITESPACE:
            out.text += node->v.text.text;
            return;
        case GUMBO_NODE_DOCUMENT:
            for (unsigned i = 0; i < node->v.document.children.length; ++i) {
                collect(static_cast<const GumboNode*>(node->v.document.children.data[i]), out);
            }
            return;
        case GUMBO_NODE_ELEMENT: {
            const GumboElement& e = node->v.element;
            if (e.tag_namespace == GUMBO_NAMESPACE_HTML && e.tag == GUMBO_TAG_TITLE && out.title.empty()) {
                for (unsigned i = 0; i < e.children.length; ++i) {
                    const auto* c = static_cast<const GumboNode*>(e.children.data[i]);
                    if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE) out.title += c->v.text.text;
                }
            }
            if (hidden(e)) return;
            for (unsigned i = 0; i < e.children.length; ++i) {
                collect(static_cast<const GumboNode*>(e.children.data[i]), out);
            }
            return;
        }
        default:
            return;  // comments, templates
    }
}

gumbo_text gumbo_extract(std::string_view html) {
    GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
    gumbo_text out;
    collect(output->document, out);
    gumbo_destroy_output(&kGumboDefaultOptions, output);
    return out;
}

void check_against_gumbo(std::string_view html) {
    const auto mine = semfp::extract_html(html);
    // Browsers drop a byte order mark while decoding; gumbo expects decoded text.
    const auto ref = gumbo_extract(html.substr(html.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0));
    CHECK(strip_space(mine.text) == strip_space(ref.text));
    CHECK(strip_space(mine.title) == strip_space(ref.title));
}

}  // namespace

TEST_CASE("html: agrees with gumbo (HTML5 parser) modulo whitespace", "[html][gumbo]") {
    SECTION("fixtures") {
        check_against_gumbo(read_file(html_data("docbook_zh.html")));
        check_against_gumbo(semfp::decode_to_utf8(read_file(html_data("news_gbk.html"))).text);
        check_against_gumbo(read_file(html_data("broken.html")));
    }
    SECTION("snippets") {
        for (const char* s : g_snippets) {
            CAPTURE(s);
            check_against_gumbo(s);
        }
    }
}

#if defined(SEMFP_HTML_REAL_PAGES_DIR)
// Registered as its own ctest when real pages (and gumbo) were found at configure time.
TEST_CASE("html: real pages agree with gumbo modulo whitespace", "[.][html-real-pages]") {
    std::size_t pages = 0;
    for (const auto& entry : std::filesystem::directory_iterator(SEMFP_HTML_REAL_PAGES_DIR)) {
        const auto& path = entry.path();
        if (path.extension() != ".html") continue;
        CAPTURE(path.string());
        const std::string bytes = read_file(path);
        const auto decoded = semfp::decode_to_utf8(bytes);
        check_against_gumbo(decoded.text);
        // Decoding and extraction in pieces give the same text.
        semfp::stream_decoder decoder(decoded.cs);
        std::string utf8;
        for (std::size_t i = 0; i < bytes.size(); i += 1000) {
            decoder.feed(std::string_view(bytes).substr(i, 1000), utf8);
        }
        decoder.finish(utf8);
        CHECK(utf8 == decoded.text);
        CHECK(streamed(decoded.text, 997) == semfp::html_to_text(decoded.text));
        ++pages;
    }
    CHECK(pages > 0);
}
#endif
#endif

TEST_CASE("html: streaming keeps a long numeric reference cut by chunk boundaries", "[html][stream]") {
    const std::size_t chunk = GENERATE(std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{13}, std::size_t{64});
    CAPTURE(chunk);
    const std::string zeros(60, '0');
    for (const std::string& doc : {"x&#x" + zeros + "41;y", "x&#X" + zeros + "41y", "x&#" + zeros + "65;y",
                                   "x&#" + zeros + "65y", "a&amp;&#x" + zeros + "41&#" + zeros + "66;b"}) {
        CAPTURE(doc);
        CHECK(streamed(doc, chunk) == semfp::html_to_text(doc));
    }
    CHECK(streamed("x&#x" + zeros + "41;y", 8) == "xAy");
    // A decimal reference that stops at a hex letter is complete: "&#12" then "ab".
    CHECK(streamed("&#" + zeros + "65ab", chunk) == "Aab");
    // Millions of digits cut thousands of times are read once each (a quadratic rescan would not
    // finish in a unit test's time).
    const std::string many = "x&#x" + std::string(2000000, '0') + "41;y";
    CHECK(streamed(many, 8) == "xAy");
}

TEST_CASE("html: streaming one huge tag is linear", "[html][stream]") {
    // Each feed used to rescan the tag from its '<'; a 2 MB tag in 8-byte chunks must finish
    // quickly (no timing asserted) and give the same text as the whole document.
    std::string big = "a<p";
    for (int i = 0; i < 200000; ++i) big += " b=1 c='>'";
    big += " d=\"x\" />z";
    CHECK(semfp::html_to_text(big) == "a\nz");
    CHECK(streamed(big, 8) == "a\nz");
    // Every phase of the tag scanner cut at every byte.
    const std::string tags = "<div  id = \"a>b\" data-x='c' flag / checked=yes>t</div\t><br/>u<a href=x>v</a >";
    const auto whole = semfp::html_to_text(tags);
    for (std::size_t c = 1; c <= tags.size(); ++c) {
        CAPTURE(c);
        CHECK(streamed(tags, c) == whole);
    }
}
