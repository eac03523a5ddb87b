// The two-stage part of the `semfp._semfp` extension module (module.cpp): sketches as numpy rows
// and the rule `semfp dedup --verify sketch` applies, bound so that Python decides pairs with the
// library's code (semfp::two_stage_rule) instead of a copy of it. Included by module.cpp only.
#pragma once

#include "linking.hpp"
#include "module_support.hpp"

#include <semfp/core/signature.hpp>
#include <semfp/core/sketch.hpp>
#include <semfp/index/sketch_band_index.hpp>
#include <semfp/index/two_stage_clusterer.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace semfp_python {

using u8_array = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

// A sketch as Python sees it: one row of 132 bytes, its saved form (semfp::MinHashSketch's 128
// payload bytes, then its 32-bit state word, little-endian).
inline constexpr std::size_t sketch_row = semfp::MinHashSketch::saved_bytes;
static_assert(sketch_row == semfp::MinHashSketch::bins + 4);

inline void store_sketch(std::uint8_t* row, const semfp::MinHashSketch& s) noexcept {
    std::memcpy(row, s.payload().data(), semfp::MinHashSketch::bins);
    const std::uint32_t state = s.state();
    for (std::size_t b = 0; b < 4; ++b) row[semfp::MinHashSketch::bins + b] = static_cast<std::uint8_t>(state >> (8 * b));
}

// An (n, 132) uint8 array.
inline py::array_t<std::uint8_t> sketch_array(std::size_t n) {
    return py::array_t<std::uint8_t>({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(sketch_row)});
}

// The sketches of an (n, 132) array; ValueError for a row that is not a saved sketch.
inline std::vector<semfp::MinHashSketch> sketches_from_array(const u8_array& a) {
    if (a.ndim() != 2 || static_cast<std::size_t>(a.shape(1)) != sketch_row)
        throw py::value_error("expected a (n, 132) uint8 array of sketches");
    const std::size_t n = static_cast<std::size_t>(a.shape(0));
    std::vector<semfp::MinHashSketch> out(n);
    const std::uint8_t* p = a.data();
    for (std::size_t i = 0; i < n; ++i, p += sketch_row) {
        semfp::MinHashSketch::bins_type payload{};
        std::memcpy(payload.data(), p, payload.size());
        std::uint32_t state = 0;
        for (std::size_t b = 0; b < 4; ++b) state |= static_cast<std::uint32_t>(p[semfp::MinHashSketch::bins + b]) << (8 * b);
        if (!semfp::MinHashSketch::from_saved(payload, state, out[i]))
            throw py::value_error("row " + std::to_string(i) + " is not a valid sketch");
    }
    return out;
}

inline unsigned fp_distance(const fp_value& a, const fp_value& b) noexcept {
    return static_cast<unsigned>(std::popcount(a.words[0] ^ b.words[0]) + std::popcount(a.words[1] ^ b.words[1]));
}

// The rule of `semfp dedup --verify sketch --bits B --hd H` (semfp::cli::verify_rule) and the
// band layout of its candidate stage (semfp::TwoStageClusterer's default).
class PyRule {
public:
    PyRule(unsigned bits, unsigned hd) : m_bits(checked_bits(bits)), m_rule(semfp::cli::verify_rule(bits, hd)) {}

    [[nodiscard]] const semfp::two_stage_rule& rule() const noexcept { return m_rule; }
    [[nodiscard]] const semfp::sketch_band_layout& layout() const noexcept { return m_layout; }
    [[nodiscard]] unsigned bits() const noexcept { return m_bits; }

    // For every i: does the rule accept the pair (fa[i], sa[i]), (fb[i], sb[i])?
    py::array_t<bool> accepts_many(const u64_array& fa, const u8_array& sa, const u64_array& fb,
                                   const u8_array& sb) const {
        const auto xa = fps_from_array(fa, m_bits);
        const auto xb = fps_from_array(fb, m_bits);
        const auto ka = sketches_from_array(sa);
        const auto kb = sketches_from_array(sb);
        const std::size_t n = xa.size();
        if (xb.size() != n || ka.size() != n || kb.size() != n) throw py::value_error("arrays differ in length");
        py::array_t<bool> out({static_cast<py::ssize_t>(n)});
        bool* o = out.mutable_data();
        {
            py::gil_scoped_release release;
            for (std::size_t i = 0; i < n; ++i) o[i] = m_rule.accepts(fp_distance(xa[i], xb[i]), ka[i], kb[i]);
        }
        return out;
    }

    // The 32-bit band tags the candidate stage compares (semfp::SketchBandIndex: the low 32 bits
    // of each band's key), (n, bands), and whether each sketch is non-empty (empty sketches are
    // never stored in the band index: their row of tags means nothing).
    py::tuple band_tags(const u8_array& s) const {
        const auto k = sketches_from_array(s);
        const std::size_t n = k.size();
        const unsigned bands = m_layout.bands;
        py::array_t<std::uint32_t> tags({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(bands)});
        py::array_t<bool> nonempty({static_cast<py::ssize_t>(n)});
        std::uint32_t* t = tags.mutable_data();
        bool* ne = nonempty.mutable_data();
        {
            py::gil_scoped_release release;
            for (std::size_t i = 0; i < n; ++i) {
                ne[i] = !k[i].empty();
                const semfp::MinHashSketch::bins_type bins = k[i].values();
                for (unsigned b = 0; b < bands; ++b)
                    t[i * bands + b] = ne[i] ? static_cast<std::uint32_t>(semfp::detail::band_key(bins, m_layout, b)) : 0u;
            }
        }
        return py::make_tuple(tags, nonempty);
    }

private:
    unsigned m_bits;
    semfp::two_stage_rule m_rule;
    semfp::sketch_band_layout m_layout = semfp::two_stage_cluster_options{}.layout;
};

inline void bind_rule(py::module_& m) {
    py::class_<PyRule>(m, "Rule")
        .def(py::init<unsigned, unsigned>(), py::arg("bits"), py::arg("hd"))
        .def_property_readonly("bits", &PyRule::bits)
        .def_property_readonly("radius", [](const PyRule& r) { return r.rule().radius; })
        .def_property_readonly("accept_distance", [](const PyRule& r) { return r.rule().accept_distance; })
        .def_property_readonly("min_similarity", [](const PyRule& r) { return r.rule().min_similarity; })
        .def_property_readonly("short_features", [](const PyRule& r) { return r.rule().short_features; })
        .def_property_readonly("short_similarity", [](const PyRule& r) { return r.rule().short_similarity; })
        .def_property_readonly("bands", [](const PyRule& r) { return r.layout().bands; })
        .def_property_readonly("rows", [](const PyRule& r) { return r.layout().rows; })
        .def("accepts_many", &PyRule::accepts_many)
        .def("band_tags", &PyRule::band_tags);
    // The 128 MinHash bins of each sketch (of an exact sketch: derived from its set), as `semfp
    // fingerprint --verify sketch` prints them.
    m.def("sketch_values", [](const u8_array& a) {
        const auto k = sketches_from_array(a);
        py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(k.size()), static_cast<py::ssize_t>(semfp::MinHashSketch::bins)});
        py::array_t<std::uint32_t> features({static_cast<py::ssize_t>(k.size())});
        for (std::size_t i = 0; i < k.size(); ++i) {
            const auto v = k[i].values();
            std::memcpy(out.mutable_data() + i * v.size(), v.data(), v.size());
            features.mutable_data()[i] = k[i].features();
        }
        return py::make_tuple(out, features);
    });
    m.def("estimated_jaccard", [](const u8_array& a, const u8_array& b) {
        const auto x = sketches_from_array(a);
        const auto y = sketches_from_array(b);
        if (x.size() != 1 || y.size() != 1) throw py::value_error("expected one sketch each");
        return semfp::estimated_jaccard(x[0], y[0]);
    });
}

}  // namespace semfp_python
