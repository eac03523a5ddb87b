#include "json_line.hpp"

#include <nlohmann/json.hpp>

#if defined(SEMFP_HAVE_SIMDJSON)
#include <simdjson.h>
#endif

#include <string>
#include <string_view>
#include <utility>

namespace semfp::cli {

namespace {

// `message` cut to a length fit for one line of a report.
std::string truncated(std::string_view message) {
    constexpr std::size_t limit = 120;
    if (message.size() <= limit) return std::string(message);
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 codes
    return std::string(message.substr(0, cut)) + "... (" + std::to_string(message.size()) + " bytes)";
}

}  // namespace

bool have_fast_json_parser() noexcept {
#if defined(SEMFP_HAVE_SIMDJSON)
    return true;
#else
    return false;
#endif
}

void parse_json_line(Document& doc, const input_options& opt, bool keep_raw) {
    // The JSON parser takes a NUL byte for the end of its input and would accept what precedes
    // it: a raw NUL is never valid JSON (only the escape \u0000 is), so the line is bad.
    if (const std::size_t nul = doc.text.find('\0'); nul != std::string::npos) {
        doc.problems.push_back({doc.line, "NUL byte at byte " + std::to_string(nul + 1) + " (not valid JSON)"});
        doc.valid = false;
        return;
    }
    if (parse_json_line_fast(doc, opt, keep_raw)) return;
    parse_json_line_reference(doc, opt, keep_raw);
}

void parse_json_line_reference(Document& doc, const input_options& opt, bool keep_raw) {
    auto fail = [&](std::string message) {
        doc.problems.push_back({doc.line, std::move(message)});
        doc.valid = false;
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(doc.text);
    } catch (const nlohmann::json::parse_error& e) {
        fail("malformed JSON at byte " + std::to_string(e.byte));
        return;
    } catch (const nlohmann::json::exception& e) {
        // A number that does not fit a double (1e999, a 100,000-digit id): the library's message
        // quotes the whole number, so only its start is shown.
        fail("malformed JSON: " + truncated(e.what()));
        return;
    }
    if (!j.is_object()) return fail("not a JSON object");
    const auto id = j.find(opt.id_field);
    if (id == j.end()) return fail("missing field \"" + opt.id_field + "\"");
    if (id->is_string()) {
        doc.id = id->get<std::string>();
    } else if (id->is_number_integer() || id->is_number_unsigned()) {
        doc.id = id->dump();
    } else {
        return fail("field \"" + opt.id_field + "\" is not a string or an integer");
    }
    const auto txt = j.find(opt.text_field);
    if (txt == j.end()) return fail("missing field \"" + opt.text_field + "\"");
    if (!txt->is_string()) return fail("field \"" + opt.text_field + "\" is not a string");
    if (keep_raw) doc.raw = std::move(doc.text);
    doc.text = std::move(txt->get_ref<std::string&>());
    const auto format = j.find("format");
    doc.html = format != j.end() && format->is_string() && format->get<std::string>() == "html";
}

#if defined(SEMFP_HAVE_SIMDJSON)

namespace {
// Lines above this size are parsed by a parser of their own, so a thread does not keep the
// buffers of one huge line for the rest of the run.
constexpr std::size_t reused_parser_limit = std::size_t{16} << 20;
}  // namespace

static_assert(line_slack >= simdjson::SIMDJSON_PADDING, "the reader leaves simdjson's padding after each line");

bool parse_json_line_fast(Document& doc, const input_options& opt, bool keep_raw) {
    thread_local simdjson::dom::parser reused;
    simdjson::dom::parser large;
    simdjson::dom::parser& parser = doc.text.size() <= reused_parser_limit ? reused : large;
    // simdjson reads up to SIMDJSON_PADDING bytes past the end: room in the line's own buffer
    // (grown once, then reused) spares it a padded copy.
    if (doc.text.capacity() - doc.text.size() < simdjson::SIMDJSON_PADDING) {
        doc.text.reserve(doc.text.size() + simdjson::SIMDJSON_PADDING);
    }
    simdjson::dom::element root;
    if (parser.parse(doc.text.data(), doc.text.size(), false).get(root) != simdjson::SUCCESS) return false;
    simdjson::dom::object object;
    if (root.get_object().get(object) != simdjson::SUCCESS) return false;
    // A repeated name: the reference parser keeps the last value, so the last one counts here
    // too. Anything but a string id or text (an integer id, a missing field, a wrong type) goes
    // to the reference parser, which owns those rules and their messages.
    std::string_view id, text;
    bool have_id = false, have_text = false, html = false;
    for (const simdjson::dom::key_value_pair field : object) {
        if (field.key == opt.id_field) {
            if (field.value.get_string().get(id) != simdjson::SUCCESS) return false;
            have_id = true;
        }
        if (field.key == opt.text_field) {
            if (field.value.get_string().get(text) != simdjson::SUCCESS) return false;
            have_text = true;
        }
        if (field.key == "format") {
            std::string_view format;
            html = field.value.get_string().get(format) == simdjson::SUCCESS && format == "html";
        }
    }
    if (!have_id || !have_text) return false;
    // The views point into the parser's own string buffer, never into doc.text.
    doc.id.assign(id);
    if (keep_raw) doc.raw.swap(doc.text);
    doc.text.assign(text);
    doc.html = html;
    return true;
}

#else

bool parse_json_line_fast(Document&, const input_options&, bool) { return false; }

#endif

}  // namespace semfp::cli
