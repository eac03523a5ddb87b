// Argument handling of the `semfp._semfp` extension module (module.cpp): string options checked
// against their accepted names, Python objects and numpy arrays converted to and from the
// engine's fingerprints. Included by module.cpp only.
#pragma once

#include "engine.hpp"
#include "input.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace semfp_python {

namespace py = pybind11;
using namespace semfp::cli;

// Every array argument: C-contiguous uint64, converted when it is not.
using u64_array = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>;

// ---- options ----------------------------------------------------------------------------------

// One accepted spelling of a string option and the value it stands for.
template <class T>
struct choice {
    const char* name;
    T value;
};

// The value `given` names among `choices`, or ValueError("<what> must be 'a', 'b' or 'c', not
// '<given>'") listing the first spelling of each value (later ones are aliases). Every string
// option of the module goes through here, so they all answer a wrong name the same way.
template <class T>
T parse_choice(const char* what, const std::string& given, std::initializer_list<choice<T>> choices) {
    for (const auto& c : choices)
        if (given == c.name) return c.value;
    std::vector<std::string> names;
    std::vector<T> seen;
    for (const auto& c : choices) {
        bool alias = false;
        for (const T& v : seen) alias = alias || v == c.value;
        if (alias) continue;
        seen.push_back(c.value);
        names.push_back(std::string("'") + c.name + "'");
    }
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) list += i + 1 == names.size() ? " or " : ", ";
        list += names[i];
    }
    throw py::value_error(std::string(what) + " must be " + list + ", not '" + given + "'");
}

inline unsigned checked_bits(unsigned bits) {
    if (bits != 64 && bits != 128) throw py::value_error("bits must be 64 or 128");
    return bits;
}

// The reader options of `fingerprint_jsonl` (the tool's --format, --id-field, --text-field,
// --encoding and --html-text).
inline input_options reader_options(const std::string& format, const std::string& id_field, const std::string& text_field,
                             const std::string& encoding, const std::string& html_text_name) {
    input_options opt;
    opt.format = parse_choice<input_format>("format", format, {{"jsonl", input_format::jsonl}, {"lines", input_format::lines}});
    opt.id_field = id_field;
    opt.text_field = text_field;
    opt.encoding = parse_choice<input_encoding>("encoding", encoding,
                                                {{"auto", input_encoding::detect},
                                                 {"detect", input_encoding::detect},
                                                 {"utf-8", input_encoding::utf8},
                                                 {"utf8", input_encoding::utf8},
                                                 {"gb18030", input_encoding::gb18030}});
    opt.html_text = parse_choice<html_text_mode>("html_text", html_text_name,
                                                 {{"main", html_text_mode::main}, {"all", html_text_mode::all}});
    return opt;
}

// The engine options (the tool's --bits, --tokenizer, --hash, --raw-hash).
inline pipeline_options pipeline_of(unsigned bits, const std::string& tokenizer, const std::string& hash, bool raw_hash) {
    pipeline_options p;
    p.bits = checked_bits(bits);
    p.tokenizer = parse_choice<tokenizer_kind>("tokenizer", tokenizer,
                                               {{"default", tokenizer_kind::library_default},
                                                {"bigram", tokenizer_kind::bigram},
                                                {"fmm", tokenizer_kind::fmm}});
    p.hash = parse_choice<hash_kind>("hash", hash,
                                     {{"default", hash_kind::library_default},
                                      {"murmur", hash_kind::murmur},
                                      {"fnv", hash_kind::fnv},
                                      {"sdbm", hash_kind::sdbm}});
    p.raw_hash = raw_hash;
    return p;
}

// ---- conversions ------------------------------------------------------------------------------

// UTF-8 view of a str or bytes object (valid while the object lives).
inline std::string_view text_view(py::handle h, std::size_t index) {
    if (PyUnicode_Check(h.ptr())) {
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
        if (data == nullptr) {
            PyErr_Clear();
            throw py::value_error("text " + std::to_string(index) +
                                  " cannot be encoded as UTF-8 (lone surrogate); pass bytes instead");
        }
        return {data, static_cast<std::size_t>(size)};
    }
    if (PyBytes_Check(h.ptr())) {
        return {PyBytes_AS_STRING(h.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(h.ptr()))};
    }
    throw py::type_error("text " + std::to_string(index) + " is neither str nor bytes");
}

inline py::int_ to_int(const fp_value& v, unsigned bits) {
    py::int_ hi(v.words[0]);
    if (bits == 64) return hi;
    py::object shifted = hi.attr("__lshift__")(64);
    return py::int_(shifted.attr("__or__")(py::int_(v.words[1])));
}

inline fp_value from_int(const py::int_& value, unsigned bits) {
    fp_value v;
    py::object o = value;
    if (o.attr("__lt__")(0).cast<bool>() || o.attr("bit_length")().cast<unsigned>() > bits)
        throw py::value_error("fingerprint does not fit " + std::to_string(bits) + " bits");
    py::object mask = py::int_(~std::uint64_t{0});
    if (bits == 64) {
        v.words[0] = o.cast<std::uint64_t>();
    } else {
        v.words[0] = o.attr("__rshift__")(64).cast<std::uint64_t>();
        v.words[1] = o.attr("__and__")(mask).cast<std::uint64_t>();
    }
    return v;
}

// An array of n fingerprints: (n,) uint64 for 64 bits, (n, 2) for 128 (most significant first).
inline py::array_t<std::uint64_t> fp_array(std::size_t n, unsigned bits) {
    if (bits == 64) return py::array_t<std::uint64_t>({static_cast<py::ssize_t>(n)});
    return py::array_t<std::uint64_t>({static_cast<py::ssize_t>(n), py::ssize_t{2}});
}

// Fingerprints from a (n,) or (n, 2) uint64 array, checked against `bits`.
inline std::vector<fp_value> fps_from_array(const u64_array& a, unsigned bits) {
    const bool ok = bits == 64 ? a.ndim() == 1 : (a.ndim() == 2 && a.shape(1) == 2);
    if (!ok) throw py::value_error(bits == 64 ? "expected a (n,) uint64 array" : "expected a (n, 2) uint64 array");
    const std::size_t n = static_cast<std::size_t>(a.shape(0));
    std::vector<fp_value> out(n);
    const std::uint64_t* p = a.data();
    for (std::size_t i = 0; i < n; ++i) {
        out[i].words[0] = p[bits == 64 ? i : 2 * i];
        if (bits == 128) out[i].words[1] = p[2 * i + 1];
    }
    return out;
}

// Fingerprints and their ids, as `add_many` takes them: ids a (n,) array as long as fps.
inline std::vector<fp_value> fps_with_ids(const u64_array& fps, const u64_array& ids, unsigned bits) {
    auto v = fps_from_array(fps, bits);
    if (ids.ndim() != 1 || static_cast<std::size_t>(ids.shape(0)) != v.size())
        throw py::value_error("ids must be a (n,) array as long as fps");
    return v;
}

inline void store(std::uint64_t* out, std::size_t i, const fp_value& v, unsigned bits) noexcept {
    if (bits == 64) {
        out[i] = v.words[0];
    } else {
        out[2 * i] = v.words[0];
        out[2 * i + 1] = v.words[1];
    }
}

}  // namespace semfp_python
