#include "digest.hpp"

#include "output.hpp"

#include <semfp/index/signature_file.hpp>
#include <semfp/version.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>

namespace semfp::cli {

namespace {

constexpr std::array<std::uint32_t, 64> k_round{
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) noexcept { return (x >> n) | (x << (32 - n)); }

void compress(std::array<std::uint32_t, 8>& h, const unsigned char* block) noexcept {
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i)
        w[i] = (std::uint32_t{block[4 * i]} << 24) | (std::uint32_t{block[4 * i + 1]} << 16) |
               (std::uint32_t{block[4 * i + 2]} << 8) | std::uint32_t{block[4 * i + 3]};
    for (int i = 16; i < 64; ++i) {
        const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
        const std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k_round[i] + w[i];
        const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

std::string tokenizer_text(tokenizer_kind t) {
    switch (t) {
        case tokenizer_kind::bigram: return "bigram";
        case tokenizer_kind::fmm: return "fmm";
        case tokenizer_kind::library_default: break;
    }
    return "default";
}

std::string hash_text(hash_kind h) {
    switch (h) {
        case hash_kind::murmur: return "murmur";
        case hash_kind::fnv: return "fnv";
        case hash_kind::sdbm: return "sdbm";
        case hash_kind::library_default: break;
    }
    return "default";
}

std::string encoding_text(input_encoding e) {
    switch (e) {
        case input_encoding::utf8: return "utf-8";
        case input_encoding::gb18030: return "gb18030";
        case input_encoding::detect: break;
    }
    return "auto";
}

// Values already in JSON form, by key; std::map keeps the keys sorted as sort_keys=True does.
using json_fields = std::map<std::string, std::string>;

json_fields pipeline_fields(const pipeline_options& p, const input_options& in) {
    auto str = [](std::string_view s) {
        std::string out;
        append_json_string(out, s, json_escape::ascii);  // as Python's json.dumps
        return out;
    };
    json_fields f;
    f["bits"] = std::to_string(p.bits);
    f["tokenizer"] = str(tokenizer_text(p.tokenizer));
    f["hash"] = str(hash_text(p.hash));
    f["raw_hash"] = p.raw_hash ? "true" : "false";
    f["id_field"] = str(in.id_field);
    f["text_field"] = str(in.text_field);
    f["encoding"] = str(encoding_text(in.encoding));
    f["html_text"] = str(in.html_text == html_text_mode::all ? "all" : "main");
    f["semfp"] = str(semfp_version_string());
    return f;
}

std::string to_json(const json_fields& f) {
    std::string out = "{";
    for (const auto& [k, v] : f) {
        if (out.size() > 1) out += ',';
        append_json_string(out, k, json_escape::ascii);
        out += ':';
        out += v;
    }
    out += '}';
    return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
    std::array<std::uint32_t, 8> h{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    std::size_t n = data.size();
    while (n >= 64) {
        compress(h, p);
        p += 64;
        n -= 64;
    }
    std::array<unsigned char, 128> tail{};
    for (std::size_t i = 0; i < n; ++i) tail[i] = p[i];
    tail[n] = 0x80;
    const std::size_t total = n + 1 + 8 <= 64 ? 64 : 128;
    const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
    for (int i = 0; i < 8; ++i) tail[total - 1 - static_cast<std::size_t>(i)] = static_cast<unsigned char>(bits >> (8 * i));
    compress(h, tail.data());
    if (total == 128) compress(h, tail.data() + 64);
    std::string out;
    char buf[12];
    for (const std::uint32_t x : h) {
        std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(x));
        out += buf;
    }
    return out;
}

std::string semfp_version_string() {
    return std::to_string(version_major) + "." + std::to_string(version_minor) + "." + std::to_string(version_patch);
}

std::string pipeline_identity(const pipeline_options& p, const input_options& in, bool sketch) {
    json_fields f = pipeline_fields(p, in);
    if (sketch) f["sketch"] = "true";
    return to_json(f);
}

std::string clustering_identity(const pipeline_options& p, const input_options& in, unsigned radius,
                                bool match_members, bool sketch) {
    json_fields f = pipeline_fields(p, in);
    f["hd"] = std::to_string(radius);
    f["match_members"] = match_members ? "true" : "false";
    if (sketch) {
        f["verify"] = "\"sketch\"";
        // Sketches of another format (another view, other thresholds) must not meet these.
        f["sketch_format"] = std::to_string(semfp::detail::signature_format_version);
    }
    return to_json(f);
}

std::string digest_of(std::string_view identity) { return sha256_hex(identity).substr(0, 16); }

}  // namespace semfp::cli
