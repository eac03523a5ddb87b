// The `semfp._semfp` extension module: the tool's engine (examples/semfp, linked as the static
// library semfp_engine) and the library's index types, bound with pybind11.
//
// Why it binds the tool's engine rather than the library's templates directly: the tool decides
// how a JSON line becomes an id and a text (encodings, NUL bytes, HTML documents, malformed
// lines), and the Python package promises the very bytes `semfp fingerprint` and `semfp dedup`
// produce. Linking the same object code is the only way that promise cannot drift.
//
// Batch calls collect views of the caller's strings while holding the GIL (a `str` keeps its
// UTF-8 form cached, a `bytes` object its buffer; both stay alive in the caller's list), then
// release the GIL for the parallel part; results go to numpy arrays allocated up front.
#include "engine.hpp"
#include "input.hpp"
#include "memory_input.hpp"
#include "module_sketch.hpp"
#include "module_support.hpp"
#include "output.hpp"
#include "workers.hpp"

#include <semfp/core/fingerprint.hpp>
#include <semfp/error.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/index/signature_file.hpp>
#include <semfp/index/single_pass_clusterer.hpp>
#include <semfp/index/two_stage_clusterer.hpp>
#include <semfp/version.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace py = pybind11;
using namespace semfp::cli;
using namespace semfp_python;

namespace {

volatile std::uint64_t g_sink = 0;

// ---- the engine -------------------------------------------------------------------------------

class PyEngine {
public:
    PyEngine(unsigned bits, const std::string& tokenizer, const std::string& hash, bool raw_hash)
        : m_engine(make_engine(pipeline_of(bits, tokenizer, hash, raw_hash))) {}

    [[nodiscard]] unsigned bits() const noexcept { return m_engine->bits(); }

    py::int_ fingerprint(py::handle text) const { return to_int(m_engine->fingerprint(text_view(text, 0)), bits()); }

    py::array_t<std::uint64_t> fingerprint_many(const py::sequence& texts, unsigned threads) const {
        const std::size_t n = texts.size();
        std::vector<py::object> keep(n);  // holds the items of a lazy sequence alive
        std::vector<std::string_view> views(n);
        for (std::size_t i = 0; i < n; ++i) {
            keep[i] = texts[i];
            views[i] = text_view(keep[i], i);
        }
        auto out = fp_array(n, bits());
        std::uint64_t* data = out.mutable_data();
        {
            py::gil_scoped_release release;
            WorkerPool pool(threads);
            const unsigned b = bits();
            pool.for_each(n, [&](std::size_t i) { store(data, i, m_engine->fingerprint(views[i]), b); });
        }
        return out;
    }

    // The fingerprint and the sketch (132 bytes, see module_sketch.hpp) of one text, from one pass.
    py::tuple signature(py::handle text) const {
        const signature_value s = m_engine->signature(text_view(text, 0));
        std::string row(sketch_row, '\0');
        store_sketch(reinterpret_cast<std::uint8_t*>(row.data()), s.sketch);
        return py::make_tuple(to_int(s.fingerprint, bits()), py::bytes(row));
    }

    py::tuple signature_many(const py::sequence& texts, unsigned threads) const {
        const std::size_t n = texts.size();
        std::vector<py::object> keep(n);
        std::vector<std::string_view> views(n);
        for (std::size_t i = 0; i < n; ++i) {
            keep[i] = texts[i];
            views[i] = text_view(keep[i], i);
        }
        auto out = fp_array(n, bits());
        auto sk = sketch_array(n);
        std::uint64_t* data = out.mutable_data();
        std::uint8_t* rows = sk.mutable_data();
        {
            py::gil_scoped_release release;
            WorkerPool pool(threads);
            const unsigned b = bits();
            pool.for_each(n, [&](std::size_t i) {
                const signature_value s = m_engine->signature(views[i]);
                store(data, i, s.fingerprint, b);
                store_sketch(rows + i * sketch_row, s.sketch);
            });
        }
        return py::make_tuple(out, sk);
    }

    // Parses `data` as the tool reads a file of `format` and fingerprints the valid documents
    // (with `sketches`, also their sketches, as `semfp dedup --verify sketch` computes them).
    py::tuple fingerprint_jsonl(const py::bytes& data, const std::string& format, const std::string& id_field,
                                const std::string& text_field, const std::string& encoding,
                                const std::string& html_text_name, const std::string& source, std::size_t first_line,
                                bool keep_raw, unsigned threads, std::size_t max_document_size,
                                bool sketches) const {
        const input_options opt = reader_options(format, id_field, text_field, encoding, html_text_name);
        if (first_line == 0) throw py::value_error("first_line is 1-based");
        const std::string_view bytes(PyBytes_AS_STRING(data.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(data.ptr())));
        const std::string name = source;
        std::vector<Document> docs;
        std::vector<fp_value> fps;
        std::vector<semfp::MinHashSketch> sks;
        std::vector<input_problem> skipped;  // over-long lines, in line order
        std::size_t n = 0;
        {
            py::gil_scoped_release release;
            n = split_line_documents(bytes, opt.format, name, first_line, docs, max_document_size, &skipped);
            fps.resize(n);
            sks.resize(sketches ? n : 0);
            WorkerPool pool(threads);
            pool.for_each(n, [&](std::size_t i) {
                Document& d = docs[i];
                finish_document(d, opt, keep_raw);
                if (!d.valid) return;
                std::string extracted;
                if (d.html) extracted = html_text(d.text, opt.html_text);
                const std::string_view text = d.html ? std::string_view(extracted) : std::string_view(d.text);
                if (!sketches) {
                    fps[i] = m_engine->fingerprint(text);
                    return;
                }
                signature_value s = m_engine->signature(text);
                fps[i] = s.fingerprint;
                sks[i] = s.sketch;
            });
        }
        std::size_t valid = 0;
        for (const auto& d : docs) valid += d.valid ? 1 : 0;
        auto out = fp_array(valid, bits());
        auto sk = sketch_array(sketches ? valid : 0);
        py::array_t<std::uint64_t> lines({static_cast<py::ssize_t>(valid)});
        py::list ids, problems, raws;
        std::uint64_t* o = out.mutable_data();
        std::uint64_t* l = lines.mutable_data();
        std::size_t k = 0;
        std::size_t next_skip = 0;  // next skipped line to report: problems stay in line order
        for (std::size_t i = 0; i < n; ++i) {
            const Document& d = docs[i];
            for (; next_skip < skipped.size() && skipped[next_skip].line < d.line; ++next_skip)
                problems.append(py::make_tuple(skipped[next_skip].line, skipped[next_skip].message));
            for (const auto& p : d.problems) problems.append(py::make_tuple(p.line, p.message));
            if (!d.valid) continue;
            store(o, k, fps[i], bits());
            if (sketches) store_sketch(sk.mutable_data() + k * sketch_row, sks[i]);
            l[k] = d.line;
            ids.append(py::bytes(d.id));
            if (keep_raw) raws.append(py::bytes(keep_line(d)));
            ++k;
        }
        for (; next_skip < skipped.size(); ++next_skip)
            problems.append(py::make_tuple(skipped[next_skip].line, skipped[next_skip].message));
        return py::make_tuple(out, ids, lines, problems, keep_raw ? py::object(raws) : py::object(py::none()),
                              sketches ? py::object(sk) : py::object(py::none()));
    }

    // Seconds of one pass of the engine over copies of `texts` on this thread, timed in C++: the
    // baseline against which the benchmark measures the cost of the Python call.
    double time_native_loop(const py::sequence& texts) const {
        std::vector<std::string> copies;
        for (std::size_t i = 0; i < texts.size(); ++i) copies.emplace_back(text_view(texts[i], i));
        std::vector<fp_value> out(copies.size());
        py::gil_scoped_release release;
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < copies.size(); ++i) out[i] = m_engine->fingerprint(copies[i]);
        const auto stop = std::chrono::steady_clock::now();
        std::uint64_t sink = 0;
        for (const auto& v : out) sink ^= v.words[0];
        g_sink = sink;  // keeps the loop from being optimized away
        return std::chrono::duration<double>(stop - start).count();
    }

    [[nodiscard]] std::string describe() const { return m_engine->describe(); }

private:
    // The line `semfp dedup --keep` writes for a document.
    static std::string keep_line(const Document& d) {
        if (!d.raw.empty()) return d.raw;
        std::string kb = "{\"id\":";
        append_json_string(kb, d.id);
        kb += ",\"text\":";
        append_json_string(kb, d.text);
        if (d.html) kb += ",\"format\":\"html\"";
        kb += '}';
        return kb;
    }

    std::unique_ptr<Engine> m_engine;
};

// ---- index types ------------------------------------------------------------------------------

// The stamp written before a library blob: magic, digest length, digest.
constexpr std::string_view stamp_magic = "SEMFPPY1";

void write_stamp(std::ostream& os, const std::string& digest) {
    os.write(stamp_magic.data(), static_cast<std::streamsize>(stamp_magic.size()));
    const char len = static_cast<char>(digest.size());
    os.write(&len, 1);
    os.write(digest.data(), static_cast<std::streamsize>(digest.size()));
}

void check_stamp(std::istream& is, const std::string& digest) {
    char magic[8] = {};
    char len = 0;
    is.read(magic, 8);
    is.read(&len, 1);
    if (!is || std::string_view(magic, 8) != stamp_magic)
        semfp::detail::throw_format_error("semfp: not a file saved by the semfp Python package", 0);
    std::string got(static_cast<unsigned char>(len), '\0');
    is.read(got.data(), static_cast<std::streamsize>(got.size()));
    if (!is) semfp::detail::throw_format_error("semfp: truncated options stamp", 9);
    if (got != digest)
        throw semfp::invalid_argument_error("semfp: the file was made with other options or another semfp version "
                                            "(options digest " + got + ", expected " + digest + ")");
}

template <class T>
py::bytes to_bytes(const T& obj, const std::string& digest) {
    std::ostringstream os(std::ios::binary);
    write_stamp(os, digest);
    obj.save(os);
    return py::bytes(os.str());
}

template <class T>
void from_bytes(T& obj, const py::bytes& data, const std::string& digest) {
    std::istringstream is(std::string(data), std::ios::binary);
    check_stamp(is, digest);
    obj.load(is);
}

template <class T>
void save_path(const T& obj, const std::string& path, const std::string& digest) {
    semfp::detail::save_file_atomically(path, [&](std::ostream& os) {
        write_stamp(os, digest);
        obj.save(os);
    });
}

template <class T>
void load_path(T& obj, const std::string& path, const std::string& digest) {
    T fresh = obj;
    semfp::detail::load_file(path, [&](std::istream& is) {
        check_stamp(is, digest);
        fresh.load(is);
    });
    obj.swap(fresh);
}

template <class F>
F make_fp(const fp_value& v) {
    if constexpr (F::bits == 64) return F(v.words[0]);
    else return F(v.words);
}

// What the clusterer and the index share: the 64- or 128-bit object, the options digest, and the
// state, set_state, save and load methods stamped with that digest (bound by `def_stamped`).
template <class T64, class T128>
class Stamped {
public:
    [[nodiscard]] unsigned bits() const noexcept { return m_impl.index() == 0 ? 64u : 128u; }
    [[nodiscard]] std::size_t size() const noexcept {
        return std::visit([](const auto& c) { return c.size(); }, m_impl);
    }
    [[nodiscard]] const std::string& digest() const noexcept { return m_digest; }
    py::bytes state() const {
        return std::visit([&](const auto& c) { return to_bytes(c, m_digest); }, m_impl);
    }
    void set_state(const py::bytes& b) {
        std::visit([&](auto& c) { from_bytes(c, b, m_digest); }, m_impl);
    }
    void save(const std::string& path) const {
        std::visit([&](const auto& c) { save_path(c, path, m_digest); }, m_impl);
    }
    void load(const std::string& path) {
        std::visit([&](auto& c) { load_path(c, path, m_digest); }, m_impl);
    }

protected:
    using variant = std::variant<T64, T128>;

    template <class... A>
    Stamped(unsigned bits, std::string digest, const A&... args) : m_impl(make(bits, args...)), m_digest(std::move(digest)) {}

    variant m_impl;

private:
    template <class... A>
    static variant make(unsigned bits, const A&... args) {
        if (checked_bits(bits) == 64) return variant(std::in_place_index<0>, args...);
        return variant(std::in_place_index<1>, args...);
    }

    std::string m_digest;
};

// Binds the members Stamped gives both classes. Lambdas on the derived type, not pointers to the
// base's members: pybind11 would otherwise take `self` as the unregistered base type.
template <class C, class... Extra>
void def_stamped(py::class_<C, Extra...>& cls) {
    cls.def_property_readonly("bits", [](const C& c) { return c.bits(); })
        .def_property_readonly("digest", [](const C& c) { return c.digest(); })
        .def("__len__", [](const C& c) { return c.size(); })
        .def("state", [](const C& c) { return c.state(); })
        .def("set_state", [](C& c, const py::bytes& b) { c.set_state(b); })
        .def("save", [](const C& c, const std::string& path) { c.save(path); })
        .def("load", [](C& c, const std::string& path) { c.load(path); });
}

// The cluster (centre id) of every id, and whether the id is known (the centre is 0 where not).
template <class C>
py::tuple clusters_of(const C& cl, const u64_array& ids) {
    const std::size_t n = static_cast<std::size_t>(ids.size());
    py::array_t<std::uint64_t> centre({static_cast<py::ssize_t>(n)});
    py::array_t<bool> found({static_cast<py::ssize_t>(n)});
    const std::uint64_t* id = ids.data();
    std::uint64_t* c = centre.mutable_data();
    bool* f = found.mutable_data();
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = cl.cluster_of(id[i]);
        f[i] = r.has_value();
        c[i] = r.value_or(0);
    }
    return py::make_tuple(centre, found);
}

// The three arrays an add_many returns: centre ids, whether each item started a cluster, and the
// distance to its centre. Filled while the GIL is released (only the raw pointers are touched).
class add_results {
public:
    explicit add_results(std::size_t n)
        : m_centre({static_cast<py::ssize_t>(n)}), m_is_new({static_cast<py::ssize_t>(n)}),
          m_dist({static_cast<py::ssize_t>(n)}), m_c(m_centre.mutable_data()),
          m_nw(m_is_new.mutable_data()), m_d(m_dist.mutable_data()) {}

    template <class Result>
    void set(std::size_t i, const Result& r) noexcept {
        m_c[i] = r.cluster;
        m_nw[i] = r.is_new;
        m_d[i] = r.distance;
    }

    [[nodiscard]] py::tuple tuple() const { return py::make_tuple(m_centre, m_is_new, m_dist); }

private:
    py::array_t<std::uint64_t> m_centre;
    py::array_t<bool> m_is_new;
    py::array_t<std::uint32_t> m_dist;
    std::uint64_t* m_c;
    bool* m_nw;
    std::uint32_t* m_d;
};

semfp::cluster_options clusterer_options(unsigned threshold, bool members) {
    semfp::cluster_options o;
    o.threshold = threshold;
    o.match = members ? semfp::match_policy::members : semfp::match_policy::centres;
    return o;
}

class PyClusterer : public Stamped<semfp::SinglePassClusterer<64>, semfp::SinglePassClusterer<128>> {
public:
    PyClusterer(unsigned bits, unsigned threshold, bool members, std::string digest)
        : Stamped(bits, std::move(digest), clusterer_options(threshold, members)) {}

    [[nodiscard]] std::size_t cluster_count() const noexcept {
        return std::visit([](const auto& c) { return c.cluster_count(); }, m_impl);
    }

    // Adds fingerprints in order with ids; returns (centre ids, is_new, distances).
    py::tuple add_many(const u64_array& fps, const u64_array& ids) {
        const auto v = fps_with_ids(fps, ids, bits());
        const std::size_t n = v.size();
        add_results out(n);
        const std::uint64_t* id = ids.data();
        {
            py::gil_scoped_release release;
            std::visit(
                [&](auto& cl) {
                    using C = std::decay_t<decltype(cl)>;
                    for (std::size_t i = 0; i < n; ++i) {
                        const auto r = cl.add(make_fp<typename C::fingerprint_type>(v[i]), id[i]);
                        out.set(i, r);
                    }
                },
                m_impl);
        }
        return out.tuple();
    }

    // The cluster (centre id) of every id, and whether the id is known (the centre is 0 where not).
    py::tuple query_many(const u64_array& ids) const {
        return std::visit([&](const auto& cl) { return clusters_of(cl, ids); }, m_impl);
    }
};

class PyIndex : public Stamped<semfp::HammingIndex<64>, semfp::HammingIndex<128>> {
public:
    PyIndex(unsigned bits, unsigned max_k, std::string digest) : Stamped(bits, std::move(digest), max_k) {}

    [[nodiscard]] unsigned max_k() const noexcept {
        return std::visit([](const auto& c) { return c.max_k(); }, m_impl);
    }

    void add_many(const u64_array& fps, const u64_array& ids) {
        const auto v = fps_with_ids(fps, ids, bits());
        const std::uint64_t* id = ids.data();
        py::gil_scoped_release release;
        std::visit(
            [&](auto& ix) {
                using I = std::decay_t<decltype(ix)>;
                for (std::size_t i = 0; i < v.size(); ++i) ix.insert(make_fp<typename I::fingerprint_type>(v[i]), id[i]);
            },
            m_impl);
    }

    // For every query, the (query row, id, distance) of each indexed fingerprint within k.
    py::tuple query_many(const u64_array& fps, unsigned k) const {
        const auto v = fps_from_array(fps, bits());
        if (k > max_k()) throw py::value_error("k exceeds the index's max_k");
        std::vector<std::uint64_t> rows, ids;
        std::vector<std::uint32_t> dists;
        {
            py::gil_scoped_release release;
            std::visit(
                [&](const auto& ix) {
                    using I = std::decay_t<decltype(ix)>;
                    for (std::size_t i = 0; i < v.size(); ++i) {
                        for (const auto& m : ix.query(make_fp<typename I::fingerprint_type>(v[i]), k)) {
                            rows.push_back(i);
                            ids.push_back(m.id);
                            dists.push_back(m.distance);
                        }
                    }
                },
                m_impl);
        }
        return py::make_tuple(py::array_t<std::uint64_t>(static_cast<py::ssize_t>(rows.size()), rows.data()),
                              py::array_t<std::uint64_t>(static_cast<py::ssize_t>(ids.size()), ids.data()),
                              py::array_t<std::uint32_t>(static_cast<py::ssize_t>(dists.size()), dists.data()));
    }
};

// Single-Pass under the two-stage rule of `semfp dedup --verify sketch` (semfp::TwoStageClusterer
// with semfp::cli::verify_rule): the clusterer that tool runs.
semfp::two_stage_cluster_options two_stage_options(unsigned bits, unsigned hd, bool members) {
    semfp::two_stage_cluster_options o;
    o.rule = semfp::cli::verify_rule(checked_bits(bits), hd);
    o.match = members ? semfp::match_policy::members : semfp::match_policy::centres;
    return o;
}

class PyTwoStage : public Stamped<semfp::TwoStageClusterer<64>, semfp::TwoStageClusterer<128>> {
public:
    PyTwoStage(unsigned bits, unsigned hd, bool members, std::string digest)
        : Stamped(bits, std::move(digest), two_stage_options(bits, hd, members)) {}

    [[nodiscard]] std::size_t cluster_count() const noexcept {
        return std::visit([](const auto& c) { return c.cluster_count(); }, m_impl);
    }

    // Adds signatures (fingerprints and (n, 132) sketches) in order with ids; returns (centre ids,
    // is_new, distances), as Clusterer.add_many.
    py::tuple add_many(const u64_array& fps, const u8_array& sketches, const u64_array& ids) {
        const auto v = fps_with_ids(fps, ids, bits());
        const auto k = sketches_from_array(sketches);
        if (k.size() != v.size()) throw py::value_error("sketches must be as many as fps");
        const std::size_t n = v.size();
        add_results out(n);
        const std::uint64_t* id = ids.data();
        {
            py::gil_scoped_release release;
            std::visit(
                [&](auto& cl) {
                    using C = std::decay_t<decltype(cl)>;
                    using F = semfp::Fingerprint<C::signature_type::bits>;
                    for (std::size_t i = 0; i < n; ++i) {
                        const auto r = cl.add(typename C::signature_type{make_fp<F>(v[i]), k[i]}, id[i]);
                        out.set(i, r);
                    }
                },
                m_impl);
        }
        return out.tuple();
    }

    py::tuple query_many(const u64_array& ids) const {
        return std::visit([&](const auto& cl) { return clusters_of(cl, ids); }, m_impl);
    }
};

// ---- helpers of the distributed pipeline ------------------------------------------------------

// Labels of the connected components of the graph on n nodes with edges (a[i], b[i]): the
// smallest node of each component.
py::array_t<std::uint64_t> connected_components(std::uint64_t n, const u64_array& a, const u64_array& b) {
    if (a.size() != b.size()) throw py::value_error("edge arrays differ in length");
    py::array_t<std::uint64_t> label({static_cast<py::ssize_t>(n)});
    std::uint64_t* p = label.mutable_data();
    const std::uint64_t* ea = a.data();
    const std::uint64_t* eb = b.data();
    const std::size_t m = static_cast<std::size_t>(a.size());
    for (std::size_t i = 0; i < m; ++i)
        if (ea[i] >= n || eb[i] >= n) throw py::value_error("edge node out of range");
    py::gil_scoped_release release;
    std::iota(p, p + n, std::uint64_t{0});
    auto find = [p](std::uint64_t x) {
        while (p[x] != x) {
            p[x] = p[p[x]];
            x = p[x];
        }
        return x;
    };
    for (std::size_t i = 0; i < m; ++i) {
        const std::uint64_t x = find(ea[i]), y = find(eb[i]);
        if (x < y) p[y] = x;
        else if (y < x) p[x] = y;
    }
    for (std::uint64_t i = 0; i < n; ++i) p[i] = find(i);  // roots are the smallest members
    return label;
}

// The lines `semfp dedup` writes (JSON Lines, simhash) for documents with the given ids,
// cluster numbers, centre ids and Hamming distances.
py::bytes format_dedup(const py::list& ids, const u64_array& numbers,
                       const py::list& centre_ids,
                       const py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>& distances) {
    const std::size_t n = ids.size();
    if (static_cast<std::size_t>(numbers.size()) != n || centre_ids.size() != n || static_cast<std::size_t>(distances.size()) != n)
        throw py::value_error("arrays differ in length");
    std::string out;
    const std::uint64_t* num = numbers.data();
    const std::uint32_t* dist = distances.data();
    for (std::size_t i = 0; i < n; ++i) {
        out += "{\"id\":";
        append_json_string(out, ids[i].cast<std::string>());
        out += ",\"cluster\":";
        out += std::to_string(num[i]);
        out += ",\"centre\":";
        append_json_string(out, centre_ids[i].cast<std::string>());
        out += ",\"distance\":";
        out += std::to_string(dist[i]);
        out += "}\n";
    }
    return py::bytes(out);
}

}  // namespace

PYBIND11_MODULE(_semfp, m) {
    m.doc() = "Native part of the semfp package (the semfp tool's engine and the library's index types).";
    m.attr("version") = std::to_string(semfp::version_major) + "." + std::to_string(semfp::version_minor) + "." +
                        std::to_string(semfp::version_patch);
    m.attr("signature_format_version") = semfp::detail::signature_format_version;
    m.attr("recommended_distance_64") = semfp::recommended_distance<64>;
    m.attr("recommended_distance_128") = semfp::recommended_distance<128>;
    m.attr("max_threshold_64") = semfp::SinglePassClusterer<64>::max_threshold;
    m.attr("max_threshold_128") = semfp::SinglePassClusterer<128>::max_threshold;

    py::register_exception<semfp::error>(m, "Error", PyExc_ValueError);

    py::class_<PyEngine>(m, "Engine")
        .def(py::init<unsigned, const std::string&, const std::string&, bool>())
        .def_property_readonly("bits", &PyEngine::bits)
        .def("describe", &PyEngine::describe)
        .def("time_native_loop", &PyEngine::time_native_loop)
        .def("fingerprint", &PyEngine::fingerprint)
        .def("fingerprint_many", &PyEngine::fingerprint_many, py::arg("texts"), py::arg("threads") = 0)
        .def("fingerprint_jsonl", &PyEngine::fingerprint_jsonl, py::arg("data"), py::arg("format") = "jsonl",
             py::arg("id_field") = "id", py::arg("text_field") = "text", py::arg("encoding") = "auto",
             py::arg("html_text") = "main", py::arg("source") = "<bytes>", py::arg("first_line") = 1,
             py::arg("keep_raw") = false, py::arg("threads") = 0,
             py::arg("max_document_size") = static_cast<std::size_t>(-1), py::arg("sketches") = false)
        .def("signature", &PyEngine::signature)
        .def("signature_many", &PyEngine::signature_many, py::arg("texts"), py::arg("threads") = 0);

    py::class_<PyClusterer> clusterer(m, "Clusterer");
    clusterer.def(py::init<unsigned, unsigned, bool, std::string>())
        .def("cluster_count", &PyClusterer::cluster_count)
        .def("add_many", &PyClusterer::add_many)
        .def("query_many", &PyClusterer::query_many);
    def_stamped(clusterer);

    py::class_<PyIndex> index(m, "Index");
    index.def(py::init<unsigned, unsigned, std::string>())
        .def_property_readonly("max_k", &PyIndex::max_k)
        .def("add_many", &PyIndex::add_many)
        .def("query_many", &PyIndex::query_many);
    def_stamped(index);

    py::class_<PyTwoStage> two_stage(m, "TwoStageClusterer");
    two_stage.def(py::init<unsigned, unsigned, bool, std::string>())
        .def("cluster_count", &PyTwoStage::cluster_count)
        .def("add_many", &PyTwoStage::add_many)
        .def("query_many", &PyTwoStage::query_many);
    def_stamped(two_stage);
    bind_rule(m);

    m.def("connected_components", &connected_components);
    m.def("format_dedup", &format_dedup);
    m.def("fingerprint_from_int", [](const py::int_& v, unsigned bits) {
        const fp_value f = from_int(v, bits);
        return py::make_tuple(f.words[0], f.words[1]);
    });
}
