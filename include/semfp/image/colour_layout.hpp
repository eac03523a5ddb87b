#pragma once
/// \file
/// The colour-layout image signature of the fingerprint articles (their colour-level map method): an
/// image is cut into M x N blocks, each block is represented by its most frequent colour in a
/// small palette, and the signature is the string of the blocks' palette letters (like the
/// pixels of an XPM icon). Two images are near-duplicates when few blocks differ.
///
/// Why this shape: the signature survives what copies of a picture typically go through, since
/// resizing keeps the blocks' contents, recompression noise rarely changes a block's dominant
/// colour in a coarse palette, and a mild colour shift moves few pixels across palette
/// boundaries; and it is a short printable string, so it can be stored, compared by equality, or
/// compared block by block. Decoding image files is the caller's job (semfp has no image
/// dependencies): the input is an RGB8 pixel buffer. examples/colour_layout.cpp decodes PPM.
///
/// Palettes: 8 colours (each channel thresholded at 128; letters `krgybmcw` for black, red,
/// green, yellow, blue, magenta, cyan, white), 16 colours (the VGA/ANSI colours, nearest by
/// squared RGB distance; letters `0`-`9`, `a`-`f`), or 256 colours (RGB 3-3-2 levels; two hex
/// digits a block). Ties between equally frequent colours go to the lower palette index.

#include <semfp/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace semfp {
inline namespace v0 {

/// The palette blocks are reduced to.
enum class colour_palette : std::uint8_t {
    basic8,   ///< 8 colours, one letter a block
    vga16,    ///< 16 colours, one letter a block
    rgb332,   ///< 256 colours, two hexadecimal digits a block
};

/// An RGB8 image owned by the caller: `height` rows of `width` pixels, 3 bytes a pixel (R, G, B),
/// rows `stride` bytes apart (0: tightly packed, width x 3).
struct rgb8_image {
    std::span<const std::uint8_t> pixels;
    std::size_t width = 0;
    std::size_t height = 0;
    std::size_t stride = 0;
};

/// Block grid and palette of a colour-layout signature.
struct colour_layout_options {
    std::size_t columns = 8;  ///< M: blocks across
    std::size_t rows = 8;     ///< N: blocks down
    colour_palette palette = colour_palette::basic8;
};

namespace detail {

inline constexpr std::string_view basic8_letters = "krgybmcw";
inline constexpr std::string_view hex_letters = "0123456789abcdef";

inline constexpr std::array<std::array<std::uint8_t, 3>, 16> vga16_colours{{
    {0, 0, 0}, {128, 0, 0}, {0, 128, 0}, {128, 128, 0}, {0, 0, 128}, {128, 0, 128}, {0, 128, 128}, {192, 192, 192},
    {128, 128, 128}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {0, 0, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}};

[[nodiscard]] constexpr unsigned palette_index(colour_palette p, std::uint8_t r, std::uint8_t g, std::uint8_t b) noexcept {
    switch (p) {
        case colour_palette::basic8:
            return (r >= 128 ? 1u : 0u) | (g >= 128 ? 2u : 0u) | (b >= 128 ? 4u : 0u);
        case colour_palette::vga16: {
            unsigned best = 0;
            long best_d = -1;
            for (unsigned i = 0; i < 16; ++i) {
                const long dr = long{r} - vga16_colours[i][0];
                const long dg = long{g} - vga16_colours[i][1];
                const long db = long{b} - vga16_colours[i][2];
                const long d = dr * dr + dg * dg + db * db;
                if (best_d < 0 || d < best_d) {
                    best_d = d;
                    best = i;
                }
            }
            return best;
        }
        case colour_palette::rgb332:
        default:
            return (unsigned{r} >> 5) << 5 | (unsigned{g} >> 5) << 2 | (unsigned{b} >> 6);
    }
}

[[nodiscard]] constexpr std::size_t letters_per_block(colour_palette p) noexcept {
    return p == colour_palette::rgb332 ? 2 : 1;
}

}  // namespace detail

/// The colour-layout signature of `image`: `rows` x `columns` blocks in row-major order, each
/// written as its most frequent palette colour (one letter, or two hex digits for `rgb332`).
/// Block (i, j) covers rows [i H / N, (i + 1) H / N) and columns [j W / M, (j + 1) W / M), so
/// every pixel belongs to exactly one block. O(W x H) time, no allocation beyond the result.
/// \throws invalid_argument_error if the grid is empty or larger than 1024 x 1024, the image is
/// smaller than the grid (a block would be empty), the stride is below width x 3, or `pixels`
/// is too short for the stated geometry.
[[nodiscard]] inline std::string colour_layout_signature(const rgb8_image& image, const colour_layout_options& opt = {}) {
    if (opt.columns == 0 || opt.rows == 0 || opt.columns > 1024 || opt.rows > 1024)
        detail::throw_invalid_argument("colour_layout_signature: the grid must be 1..1024 blocks each way");
    if (image.width < opt.columns || image.height < opt.rows)
        detail::throw_invalid_argument("colour_layout_signature: the image is smaller than the block grid");
    if (image.width > (std::size_t{1} << 28) || image.height > (std::size_t{1} << 28))
        detail::throw_invalid_argument("colour_layout_signature: image dimensions too large");
    const std::size_t stride = image.stride == 0 ? image.width * 3 : image.stride;
    if (stride < image.width * 3) detail::throw_invalid_argument("colour_layout_signature: stride below width x 3");
    if (image.pixels.size() / stride < image.height - 1 ||
        image.pixels.size() < (image.height - 1) * stride + image.width * 3)
        detail::throw_invalid_argument("colour_layout_signature: pixel buffer shorter than the image");

    const std::size_t per_block = detail::letters_per_block(opt.palette);
    std::string out;
    out.reserve(opt.rows * opt.columns * per_block);
    std::array<std::uint32_t, 256> counts{};
    for (std::size_t bi = 0; bi < opt.rows; ++bi) {
        const std::size_t y0 = bi * image.height / opt.rows, y1 = (bi + 1) * image.height / opt.rows;
        for (std::size_t bj = 0; bj < opt.columns; ++bj) {
            const std::size_t x0 = bj * image.width / opt.columns, x1 = (bj + 1) * image.width / opt.columns;
            counts.fill(0);
            for (std::size_t y = y0; y < y1; ++y) {
                const std::uint8_t* row = image.pixels.data() + y * stride;
                for (std::size_t x = x0; x < x1; ++x)
                    ++counts[detail::palette_index(opt.palette, row[3 * x], row[3 * x + 1], row[3 * x + 2])];
            }
            unsigned best = 0;
            for (unsigned c = 1; c < 256; ++c)
                if (counts[c] > counts[best]) best = c;
            if (opt.palette == colour_palette::basic8) {
                out += detail::basic8_letters[best];
            } else if (opt.palette == colour_palette::vga16) {
                out += detail::hex_letters[best];
            } else {
                out += detail::hex_letters[best >> 4];
                out += detail::hex_letters[best & 15];
            }
        }
    }
    return out;
}

/// Number of blocks that differ between two signatures of the same grid and palette
/// (`letters_per_block` letters a block); when the lengths differ, the missing blocks of the
/// shorter one count as different. O(length); `noexcept`.
[[nodiscard]] inline std::size_t colour_layout_distance(std::string_view a, std::string_view b,
                                                        colour_palette palette = colour_palette::basic8) noexcept {
    const std::size_t per = detail::letters_per_block(palette);
    const std::size_t na = a.size() / per, nb = b.size() / per;
    const std::size_t common = na < nb ? na : nb;
    std::size_t d = (na > nb ? na - nb : nb - na);
    for (std::size_t i = 0; i < common; ++i)
        if (a.substr(i * per, per) != b.substr(i * per, per)) ++d;
    return d;
}

}  // namespace v0
}  // namespace semfp
