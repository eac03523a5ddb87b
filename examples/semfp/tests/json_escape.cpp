// The tool's one JSON string escaper (output.hpp) in its two modes: json_escape::utf8, used for
// every JSON output, passes bytes from 0x80 up through; json_escape::ascii, used for the option
// texts behind the digests (digest.hpp), writes what Python's json.dumps writes. Known answers
// (the ascii ones are json.dumps(s) for valid UTF-8), invalid UTF-8 included, and the digest of
// a clustering identity with non-ASCII field names. Exit status 1 on any failure.
#include "digest.hpp"
#include "output.hpp"

#include <cstdio>
#include <string>
#include <string_view>

namespace {

int failures = 0;

std::string printable(std::string_view s) {
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7f) {
            out += ch;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "<%02x>", c);
            out += buf;
        }
    }
    return out;
}

void check(std::string_view in, semfp::cli::json_escape mode, std::string_view expected) {
    std::string out = "prefix:";  // appends, never replaces
    semfp::cli::append_json_string(out, in, mode);
    if (out != "prefix:" + std::string(expected)) {
        ++failures;
        std::printf("FAIL %s %s\n  got      %s\n  expected prefix:%s\n",
                    mode == semfp::cli::json_escape::ascii ? "ascii" : "utf8", printable(in).c_str(),
                    printable(out).c_str(), printable(expected).c_str());
    }
}

// Both modes give the same text for ASCII input.
void check_both(std::string_view in, std::string_view expected) {
    check(in, semfp::cli::json_escape::utf8, expected);
    check(in, semfp::cli::json_escape::ascii, expected);
}

}  // namespace

int main() {
    using semfp::cli::json_escape;
    using namespace std::string_view_literals;

    check_both("", R"("")");
    check_both("plain id-42", R"("plain id-42")");
    check_both(R"(a"b\c/d)", R"("a\"b\\c/d")");
    check_both("\b\t\n\f\r", R"("\b\t\n\f\r")");
    check_both("\x00\x01\x1f\x7f x"sv, R"("\u0000\u0001\u001f\u007f x")");
    check_both("~ !", R"("~ !")");

    // Characters from U+0080 up: as they are, or as Python writes them.
    check("\xc3\xa9t\xc3\xa9", json_escape::utf8, "\"\xc3\xa9t\xc3\xa9\"");
    check("\xc3\xa9t\xc3\xa9", json_escape::ascii, R"("\u00e9t\u00e9")");
    check("\xe4\xb8\xad\xe6\x96\x87", json_escape::utf8, "\"\xe4\xb8\xad\xe6\x96\x87\"");
    check("\xe4\xb8\xad\xe6\x96\x87", json_escape::ascii, R"("\u4e2d\u6587")");
    check("\xc2\x80\xdf\xbf\xe2\x80\xa8\xef\xbf\xbf", json_escape::ascii, R"("\u0080\u07ff\u2028\uffff")");
    check("\xf0\x9d\x84\x9e", json_escape::ascii, R"("\ud834\udd1e")");
    check("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", json_escape::ascii, R"("\ud800\udc00\udbff\udfff")");
    check("\"\xe4\xb8\xad\"\n", json_escape::utf8, "\"\\\"\xe4\xb8\xad\\\"\\n\"");
    check("\"\xe4\xb8\xad\"\n", json_escape::ascii, R"("\"\u4e2d\"\n")");

    // Invalid UTF-8: passed through, or one \ufffd per byte that starts no complete sequence.
    check(
        "a\xff"
        "b",
        json_escape::utf8,
        "\"a\xff"
        "b\"");
    check(
        "a\xff"
        "b",
        json_escape::ascii, R"("a\ufffdb")");
    check("\x80", json_escape::ascii, R"("\ufffd")");
    check("\xe4\xb8", json_escape::ascii, R"("\ufffd\ufffd")");
    check("\xc3(", json_escape::ascii, R"("\ufffd(")");
    check("\xe4(\xad", json_escape::ascii, R"("\ufffd(\ufffd")");
    check("\xe4\xb8\xad\xe4", json_escape::ascii, R"("\u4e2d\ufffd")");
    check("\x00\xc3\xa9"sv, json_escape::ascii, R"("\u0000\u00e9")");

    // The digest of a clustering identity: the canonical text (keys sorted, field names escaped as
    // json.dumps does) and the first 16 hex digits of its SHA-256, as semfp.Options(...).digest.
    semfp::cli::pipeline_options p;
    semfp::cli::input_options in;
    in.id_field = "\xe7\xbc\x96\xe5\x8f\xb7";  // a non-ASCII field name
    in.text_field = "t\"x";
    const std::string identity = semfp::cli::clustering_identity(p, in, 3, false, false);
    const std::string expected_fields = R"("id_field":"\u7f16\u53f7")";
    if (identity.find(expected_fields) == std::string::npos ||
        identity.find(R"("text_field":"t\"x")") == std::string::npos) {
        ++failures;
        std::printf("FAIL identity %s\n", identity.c_str());
    }
    if (semfp::cli::digest_of(identity) != semfp::cli::sha256_hex(identity).substr(0, 16) ||
        semfp::cli::sha256_hex("abc") != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") {
        ++failures;
        std::printf("FAIL sha256 / digest_of\n");
    }

    if (failures != 0) {
        std::printf("%d failure(s)\n", failures);
        return 1;
    }
    std::printf("json escaping: all checks passed\n");
    return 0;
}
