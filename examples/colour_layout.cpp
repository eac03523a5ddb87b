// colour_layout: prints the colour-layout signature of PPM images (P6 binary or P3 text), and,
// given two images, the number of blocks that differ.
//
//   semfp_colour_layout [--grid MxN] [--palette 8|16|256] a.ppm [b.ppm]
//
// Decoding is done here, not in the library (semfp has no image dependencies). The decoder is
// strict and bounded: a bad magic, a malformed or out-of-range header field, a maxval above
// 65535, images over 2^26 pixels, truncated pixel data and non-numeric P3 samples are reported
// with the file name and byte offset, and the program exits with status 1. 16-bit samples
// (maxval > 255) and maxvals below 255 are scaled to 8 bits.
#include <semfp/error.hpp>
#include <semfp/image/colour_layout.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct ppm_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct decoded {
    std::size_t width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
};

class ppm_parser {
public:
    explicit ppm_parser(std::string data) : m_data(std::move(data)) {}

    decoded parse() {
        if (m_data.size() < 2 || m_data[0] != 'P' || (m_data[1] != '6' && m_data[1] != '3'))
            fail("not a PPM file (expected P6 or P3)");
        const bool binary = m_data[1] == '6';
        m_pos = 2;
        decoded img;
        img.width = number(1, 1u << 16, "width");
        img.height = number(1, 1u << 16, "height");
        if (img.width * img.height > (std::size_t{1} << 26)) fail("image too large");
        const std::size_t maxval = number(1, 65535, "maxval");
        const std::size_t samples = img.width * img.height * 3;
        img.rgb.resize(samples);
        if (binary) {
            // Exactly one whitespace byte separates the header from the pixels.
            if (m_pos >= m_data.size() || !is_space(m_data[m_pos])) fail("expected whitespace after maxval");
            ++m_pos;
            const std::size_t bytes = maxval > 255 ? 2 : 1;
            if (m_data.size() - m_pos < samples * bytes) fail("pixel data truncated");
            for (std::size_t i = 0; i < samples; ++i) {
                std::size_t v = static_cast<unsigned char>(m_data[m_pos++]);
                if (bytes == 2) v = (v << 8) | static_cast<unsigned char>(m_data[m_pos++]);
                if (v > maxval) fail("sample above maxval");
                img.rgb[i] = scale(v, maxval);
            }
        } else {
            for (std::size_t i = 0; i < samples; ++i) img.rgb[i] = scale(number(0, maxval, "sample"), maxval);
        }
        return img;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw ppm_error(what + " (at byte " + std::to_string(m_pos) + ")");
    }
    static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
    static std::uint8_t scale(std::size_t v, std::size_t maxval) {
        return static_cast<std::uint8_t>((v * 255 + maxval / 2) / maxval);
    }

    // Skips whitespace and # comments, then reads a decimal number in [lo, hi].
    std::size_t number(std::size_t lo, std::size_t hi, const char* what) {
        for (;;) {
            while (m_pos < m_data.size() && is_space(m_data[m_pos])) ++m_pos;
            if (m_pos < m_data.size() && m_data[m_pos] == '#') {
                while (m_pos < m_data.size() && m_data[m_pos] != '\n') ++m_pos;
                continue;
            }
            break;
        }
        if (m_pos >= m_data.size()) fail(std::string("unexpected end of file reading ") + what);
        std::size_t v = 0, digits = 0;
        while (m_pos < m_data.size() && m_data[m_pos] >= '0' && m_data[m_pos] <= '9') {
            v = v * 10 + static_cast<std::size_t>(m_data[m_pos++] - '0');
            if (++digits > 9) fail(std::string(what) + " too large");
        }
        if (digits == 0) fail(std::string("expected a number for ") + what);
        if (v < lo || v > hi) fail(std::string(what) + " out of range");
        return v;
    }

    std::string m_data;
    std::size_t m_pos = 0;
};

decoded load_ppm(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ppm_error("cannot open");
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw ppm_error("read error");
    return ppm_parser(std::move(data)).parse();
}

int usage() {
    std::fprintf(stderr, "usage: semfp_colour_layout [--grid MxN] [--palette 8|16|256] a.ppm [b.ppm]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    semfp::colour_layout_options opt;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--grid" && i + 1 < argc) {
            unsigned m = 0, n = 0;
            char x = 0;
            if (std::sscanf(argv[++i], "%u%c%u", &m, &x, &n) != 3 || x != 'x') return usage();
            opt.columns = m;
            opt.rows = n;
        } else if (a == "--palette" && i + 1 < argc) {
            const std::string_view p = argv[++i];
            if (p == "8") opt.palette = semfp::colour_palette::basic8;
            else if (p == "16") opt.palette = semfp::colour_palette::vga16;
            else if (p == "256") opt.palette = semfp::colour_palette::rgb332;
            else return usage();
        } else if (!a.empty() && a[0] == '-') {
            return usage();
        } else {
            files.emplace_back(a);
        }
    }
    if (files.empty() || files.size() > 2) return usage();
    std::vector<std::string> sigs;
    for (const auto& f : files) {
        try {
            const decoded img = load_ppm(f);
            sigs.push_back(semfp::colour_layout_signature({img.rgb, img.width, img.height, 0}, opt));
        } catch (const ppm_error& e) {
            std::fprintf(stderr, "semfp_colour_layout: %s: %s\n", f.c_str(), e.what());
            return 1;
        } catch (const semfp::error& e) {
            std::fprintf(stderr, "semfp_colour_layout: %s: %s\n", f.c_str(), e.what());
            return 1;
        }
        std::printf("%s\t%s\n", f.c_str(), sigs.back().c_str());
    }
    if (sigs.size() == 2)
        std::printf("differing blocks\t%zu of %zu\n", semfp::colour_layout_distance(sigs[0], sigs[1], opt.palette),
                    opt.columns * opt.rows);
    return 0;
}
