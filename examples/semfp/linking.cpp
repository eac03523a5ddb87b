#include "linking.hpp"

#include "diagnostics.hpp"
#include "digest.hpp"
#include "output.hpp"
#include "run_support.hpp"

#include <semfp/core/fingerprint.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/error.hpp>
#include <semfp/index/hamming_index.hpp>
#include <semfp/index/serialization.hpp>
#include <semfp/index/single_pass_clusterer.hpp>
#include <semfp/index/sketch_band_index.hpp>
#include <semfp/index/two_stage_clusterer.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace semfp::cli {

namespace {

// The state file of `dedup --state` (little-endian, the library's checksummed format):
//
//     header   magic "SEMFPDST", format version, bits
//     u32 + n  options digest (16 hex digits), then u32 + n the identity text it was made from
//     u64      documents clustered so far (the next document's ordinal)
//     u32      flags: 0 = a SinglePassClusterer follows; 2 = a TwoStageClusterer follows (--verify
//              sketch); 1 (sketches after a SinglePassClusterer, the exact radius search of
//              earlier versions) is refused as made with other options
//     u64      centres; per centre (by cluster number): u64 ordinal, u32 + n id
//     u32      CRC-32C of the envelope
//     ...      the clusterer (ids: ordinals)
constexpr std::string_view state_magic = "SEMFPDST";

void write_string(semfp::detail::binary_writer& w, std::string_view s) {
    w.u32(static_cast<std::uint32_t>(s.size()));
    w.bytes(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}

// Reads in pieces, so that a corrupted length fails at the end of the data instead of
// allocating it first.
std::string read_string(semfp::detail::binary_reader& r) {
    const std::uint32_t n = r.u32();
    std::string s;
    for (std::uint32_t done = 0; done < n;) {
        const std::uint32_t step = std::min<std::uint32_t>(n - done, 1u << 16);
        s.resize(done + step);
        r.bytes(reinterpret_cast<unsigned char*>(s.data() + done), step);
        done += step;
    }
    return s;
}

template <std::size_t Bits>
Fingerprint<Bits> to_fp(const fp_value& v) {
    if constexpr (Bits == 64) return Fingerprint<64>(v.words[0]);
    else return Fingerprint<128>(v.words);
}

template <std::size_t Bits>
two_stage_rule rule_for(const link_settings& s) {
    return verify_rule(static_cast<unsigned>(Bits), s.hd);
}

bool same_rule(const two_stage_rule& a, const two_stage_rule& b) noexcept {
    return a.radius == b.radius && a.accept_distance == b.accept_distance && a.min_similarity == b.min_similarity &&
           a.short_features == b.short_features && a.short_similarity == b.short_similarity;
}

std::string describe_settings(const link_settings& s, const two_stage_rule& rule) {
    std::string d = "simhash, Hamming distance <= " + std::to_string(s.hd);
    if (s.verify) {
        char t[96];
        std::snprintf(t, sizeof t, ", or <= %u with sketch similarity >= %.3g (%.3g for short texts)", rule.radius,
                      rule.min_similarity, rule.short_similarity);
        d += t;
    }
    if (s.link == link_kind::components) d += "; connected components";
    else if (s.match_members) d += " to any member";
    return d;
}

template <std::size_t Bits>
class SinglePassLinker final : public Linker {
public:
    SinglePassLinker(const link_settings& s, link_sink sink)
        : m_settings(s),
          m_rule(rule_for<Bits>(s)),
          m_sink(std::move(sink)),
          m_clusterer(options(s, m_rule)),
          m_two_stage(two_stage_options(s, m_rule)) {}

    void add(std::string_view id, const fp_value& v, const MinHashSketch& sketch, std::string_view keep) override {
        const Fingerprint<Bits> fp = to_fp<Bits>(v);
        const std::uint64_t ordinal = m_next++;
        const cluster_assignment r =
            m_settings.verify ? m_two_stage.add(Signature<Bits>{fp, sketch}, ordinal) : m_clusterer.add(fp, ordinal);
        if (r.is_new) {
            m_number.emplace(ordinal, m_centre_ids.size());
            m_centre_ids.emplace_back(id);
        }
        const std::size_t number = m_number.at(r.cluster);
        linked_document d;
        d.id = id;
        d.cluster = number;
        d.centre_id = m_centre_ids[number];
        d.distance = r.distance;
        d.is_new = r.is_new;
        if (r.is_new) d.keep = keep;
        m_sink(d);
    }
    void finish() override {}
    std::size_t clusters() const noexcept override { return m_centre_ids.size(); }
    std::size_t documents() const noexcept override { return static_cast<std::size_t>(m_next - m_loaded); }
    std::string describe() const override { return describe_settings(m_settings, m_rule); }

    void save_state(const std::string& path, const std::string& identity) const override {
        std::vector<std::pair<std::uint64_t, std::size_t>> centres(m_number.begin(), m_number.end());
        std::sort(centres.begin(), centres.end(),
                  [](const auto& a, const auto& b) { return a.second < b.second; });
        semfp::detail::save_file_atomically(path, [&](std::ostream& os) {
            semfp::detail::binary_writer w(os);
            w.header(state_magic, static_cast<std::uint32_t>(Bits));
            write_string(w, digest_of(identity));
            write_string(w, identity);
            w.u64(m_next);
            w.u32(m_settings.verify ? 2u : 0u);
            w.u64(centres.size());
            for (const auto& [ordinal, number] : centres) {
                w.u64(ordinal);
                write_string(w, m_centre_ids[number]);
            }
            w.finish();
            if (m_settings.verify) m_two_stage.save(os);
            else m_clusterer.save(os);
        });
    }

    void load_state(const std::string& path, const std::string& identity) override {
        SinglePassClusterer<Bits> clusterer(options(m_settings, m_rule));
        TwoStageClusterer<Bits> two_stage(two_stage_options(m_settings, m_rule));
        std::unordered_map<std::uint64_t, std::size_t> number;
        std::vector<std::string> centre_ids;
        std::uint64_t next = 0;
        semfp::detail::load_file(path, [&](std::istream& is) {
            semfp::detail::binary_reader r(is);
            r.header(state_magic, static_cast<std::uint32_t>(Bits));
            const std::string digest = read_string(r);
            const std::string saved_identity = read_string(r);
            next = r.u64();
            const std::size_t flags_at = r.offset();
            const std::uint32_t flags = r.u32();
            if (flags > 2) semfp::detail::throw_format_error("semfp: unknown state flags", flags_at);
            const std::uint64_t centres = r.u64();
            if (centres > next) semfp::detail::throw_format_error("semfp: more centres than documents", flags_at + 4);
            for (std::uint64_t c = 0; c < centres; ++c) {
                const std::size_t at = r.offset();
                const std::uint64_t ordinal = r.u64();
                if (ordinal >= next || !number.emplace(ordinal, centre_ids.size()).second)
                    semfp::detail::throw_format_error("semfp: inconsistent centre", at);
                centre_ids.push_back(read_string(r));
            }
            r.finish();
            const std::string expected = digest_of(identity);
            if (digest != expected || flags != (m_settings.verify ? 2u : 0u))
                semfp::detail::throw_invalid_argument(
                    "--state '" + path + "' was made with other options or another semfp version (options digest " +
                    digest + ", these options " + expected + ")\n  state:   " + saved_identity + "\n  options: " + identity);
            std::size_t size = 0;
            std::size_t clusters = 0;
            if (flags == 2) {
                two_stage.load(is);
                if (two_stage.layout() != m_two_stage.layout() || two_stage.match() != m_two_stage.match())
                    semfp::detail::throw_format_error("semfp: the clusterer's rule does not match the state", r.offset());
                // A state of an earlier version with another rule (e.g. radius 12 instead of 32):
                // refused like other options, naming both rules.
                if (!same_rule(two_stage.rule(), m_rule))
                    semfp::detail::throw_invalid_argument("--state '" + path +
                                                          "' was made with another two-stage rule\n  state:   " +
                                                          describe_settings(m_settings, two_stage.rule()) +
                                                          "\n  options: " + describe_settings(m_settings, m_rule));
                size = two_stage.size();
                clusters = two_stage.cluster_count();
            } else {
                clusterer.load(is);
                size = clusterer.size();
                clusters = clusterer.cluster_count();
            }
            if (size != next || clusters != centres)
                semfp::detail::throw_format_error("semfp: the clusterer does not match the state", r.offset());
        });
        m_clusterer.swap(clusterer);
        m_two_stage.swap(two_stage);
        m_number.swap(number);
        m_centre_ids.swap(centre_ids);
        m_next = next;
        m_loaded = next;
    }

private:
    static two_stage_cluster_options two_stage_options(const link_settings& s, const two_stage_rule& rule) {
        two_stage_cluster_options o;
        o.rule = rule;
        o.match = s.match_members ? match_policy::members : match_policy::centres;
        return o;
    }

    // Without verify the Single-Pass clusterer at --hd; with verify it stays empty (the
    // two-stage clusterer searches --hd exactly and the sketch bands beyond, up to the rule's
    // radius, which is never searched exactly). Either way --hd is the only exact search radius.
    static cluster_options options(const link_settings& s, const two_stage_rule&) {
        const unsigned radius = s.hd;
        if (radius > SinglePassClusterer<Bits>::max_threshold)
            throw invalid_argument_error("--hd " + std::to_string(radius) + " exceeds the limit of " +
                                         std::to_string(SinglePassClusterer<Bits>::max_threshold) + " for " +
                                         std::to_string(Bits) + "-bit fingerprints");
        cluster_options o;
        o.threshold = s.verify ? 0u : radius;
        o.match = s.match_members ? match_policy::members : match_policy::centres;
        return o;
    }

    link_settings m_settings;
    two_stage_rule m_rule;
    link_sink m_sink;
    SinglePassClusterer<Bits> m_clusterer;
    TwoStageClusterer<Bits> m_two_stage;  // with verify
    std::uint64_t m_next = 0;    // ordinal of the next document (continues a loaded state)
    std::uint64_t m_loaded = 0;  // documents of the loaded state
    std::unordered_map<std::uint64_t, std::size_t> m_number;  // centre ordinal -> cluster number
    std::vector<std::string> m_centre_ids;                    // by cluster number
};

// Connected components, decided at the end. Fingerprints, ids and (with verify) sketches of all
// documents stay in memory; the keep records of documents that had no near-duplicate before them
// (the only ones that can end up as centres) are spooled to an anonymous temporary file.
template <std::size_t Bits>
class ComponentsLinker final : public Linker {
public:
    ComponentsLinker(const link_settings& s, link_sink sink)
        : m_settings(s), m_rule(rule_for<Bits>(s)), m_sink(std::move(sink)), m_index(m_settings.hd) {}
    ~ComponentsLinker() override {
        if (m_spool != nullptr) std::fclose(m_spool);
    }
    ComponentsLinker(const ComponentsLinker&) = delete;
    ComponentsLinker& operator=(const ComponentsLinker&) = delete;

    void add(std::string_view id, const fp_value& v, const MinHashSketch& sketch, std::string_view keep) override {
        if (m_fps.size() >= 0xFFFFFFF0u) throw invalid_argument_error("semfp: too many documents for --link components");
        const Fingerprint<Bits> fp = to_fp<Bits>(v);
        const auto ordinal = static_cast<std::uint32_t>(m_fps.size());
        m_parent.push_back(ordinal);
        bool linked = false;
        // Candidates: the documents within --hd (exact), and with verify those sharing a band of
        // the sketch (SketchBandIndex); with verify each is decided by the two-stage rule. Linking
        // a pair twice changes nothing, so the order of the candidates does not matter.
        // A candidate already in this document's component is skipped before the rule: uniting
        // it again changes nothing (and this document is linked already), and near-identical
        // documents report each other once per band.
        m_index.for_each_within(fp, m_settings.hd, [&](const hamming_match& m) {
            const auto other = static_cast<std::uint32_t>(m.id);
            if (linked && find(other) == find(ordinal)) return;
            if (m_settings.verify && !m_rule.accepts(m.distance, m_sketches[other], sketch)) return;
            linked = true;
            unite(other, ordinal);
        });
        // The query's bins, derived once (an exact sketch derives them) for the probes and the
        // insert below.
        const MinHashSketch::bins_type bins =
            m_settings.verify && !sketch.empty() ? sketch.values() : MinHashSketch::bins_type{};
        if (m_settings.verify && !sketch.empty()) {
            m_bands.for_each_candidate_values(bins, [&](std::uint32_t other) {
                if (linked && find(other) == find(ordinal)) return;
                if (!m_rule.accepts(hamming_distance(m_fps[other], fp), m_sketches[other], sketch)) return;
                linked = true;
                unite(other, ordinal);
            });
        }
        m_index.insert(fp, ordinal);
        m_fps.push_back(fp);
        m_ids.emplace_back(id);
        if (m_settings.verify) {
            m_sketches.push_back(sketch);
            if (!sketch.empty())
                m_bands.insert_values(bins, ordinal, [&](std::uint32_t x) { return m_sketches[x].values(); });
        }
        if (!linked && !keep.empty()) spool(ordinal, keep);
    }

    void finish() override {
        const auto n = static_cast<std::uint32_t>(m_fps.size());
        std::vector<std::uint32_t> number(n, 0);
        if (m_spool != nullptr) std::rewind(m_spool);
        std::uint64_t spooled_ordinal = 0;
        std::string record;
        bool have_record = false;
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t root = find(i);
            linked_document d;
            d.id = m_ids[i];
            d.is_new = root == i;
            if (d.is_new) {
                number[i] = static_cast<std::uint32_t>(m_clusters++);
                if (m_spool != nullptr) {
                    while (!have_record || spooled_ordinal < i) have_record = unspool(spooled_ordinal, record);
                    if (spooled_ordinal == i) d.keep = record;
                }
            }
            d.cluster = number[root];
            d.centre_id = m_ids[root];
            d.distance = hamming_distance(m_fps[i], m_fps[root]);
            m_sink(d);
        }
    }
    std::size_t clusters() const noexcept override { return m_clusters; }
    std::size_t documents() const noexcept override { return m_fps.size(); }
    std::string describe() const override { return describe_settings(m_settings, m_rule); }
    void save_state(const std::string&, const std::string&) const override {
        throw invalid_argument_error("--state needs --link single-pass");
    }
    void load_state(const std::string&, const std::string&) override {
        throw invalid_argument_error("--state needs --link single-pass");
    }

private:
    std::uint32_t find(std::uint32_t x) noexcept {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }
    // The root of every component is its smallest (earliest) member.
    void unite(std::uint32_t a, std::uint32_t b) noexcept {
        a = find(a);
        b = find(b);
        if (a < b) m_parent[b] = a;
        else if (b < a) m_parent[a] = b;
    }

    void spool(std::uint64_t ordinal, std::string_view record) {
        if (m_spool == nullptr) {
            m_spool = std::tmpfile();
            if (m_spool == nullptr) throw output_error("cannot create a temporary file for --keep");
        }
        const std::uint64_t head[2] = {ordinal, record.size()};
        if (std::fwrite(head, sizeof head, 1, m_spool) != 1 ||
            std::fwrite(record.data(), 1, record.size(), m_spool) != record.size())
            throw output_error("cannot write the temporary file of --keep");
    }
    bool unspool(std::uint64_t& ordinal, std::string& record) {
        std::uint64_t head[2];
        if (std::fread(head, sizeof head, 1, m_spool) != 1) {
            ordinal = ~std::uint64_t{0};
            return true;
        }
        ordinal = head[0];
        record.resize(static_cast<std::size_t>(head[1]));
        if (std::fread(record.data(), 1, record.size(), m_spool) != record.size())
            throw output_error("cannot read the temporary file of --keep");
        return true;
    }

    link_settings m_settings;
    two_stage_rule m_rule;
    link_sink m_sink;
    HammingIndex<Bits> m_index;  // at --hd
    SketchBandIndex m_bands;     // with verify
    std::vector<Fingerprint<Bits>> m_fps;
    std::vector<std::string> m_ids;
    std::vector<MinHashSketch> m_sketches;
    std::vector<std::uint32_t> m_parent;
    std::size_t m_clusters = 0;
    std::FILE* m_spool = nullptr;
};

template <std::size_t Bits>
std::unique_ptr<Linker> make_for(const link_settings& s, link_sink sink) {
    if (s.link == link_kind::components) {
        const unsigned r = s.hd;  // the only exact search radius (verify: the rest through the sketch bands)
        if (r > HammingIndex<Bits>::max_radius)
            throw invalid_argument_error("--hd " + std::to_string(r) + " exceeds the limit of " +
                                         std::to_string(HammingIndex<Bits>::max_radius) + " for " +
                                         std::to_string(Bits) + "-bit fingerprints");
        return std::make_unique<ComponentsLinker<Bits>>(s, std::move(sink));
    }
    return std::make_unique<SinglePassLinker<Bits>>(s, std::move(sink));
}

}  // namespace

std::unique_ptr<Linker> make_linker(const link_settings& s, link_sink sink) {
    if (s.bits == 128) return make_for<128>(s, std::move(sink));
    return make_for<64>(s, std::move(sink));
}

unsigned resolved_radius(int hd, unsigned bits) {
    if (hd >= 0) return static_cast<unsigned>(hd);
    return bits == 128 ? semfp::recommended_distance<128> : semfp::recommended_distance<64>;
}

void append_dedup_line(std::string& out, const linked_document& d, bool tsv) {
    if (tsv) {
        append_tsv_field(out, d.id);
        out += '\t';
        out += std::to_string(d.cluster);
        out += '\n';
        return;
    }
    out += "{\"id\":";
    append_json_string(out, d.id);
    out += ",\"cluster\":";
    out += std::to_string(d.cluster);
    out += ",\"centre\":";
    append_json_string(out, d.centre_id);
    out += ",\"distance\":";
    out += std::to_string(d.distance);
    out += "}\n";
}

}  // namespace semfp::cli
