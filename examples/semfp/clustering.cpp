#include "clustering.hpp"

#include <semfp/baseline/jaccard_clusterer.hpp>
#include <semfp/baseline/minhash.hpp>
#include <semfp/baseline/shingle.hpp>
#include <semfp/core/fingerprint.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/error.hpp>
#include <semfp/index/single_pass_clusterer.hpp>

#include <cstdio>
#include <vector>

namespace semfp::cli {

namespace {

template <std::size_t Bits>
class SimhashClustering final : public Clustering {
public:
    SimhashClustering(const Engine& engine, unsigned radius, bool members)
        : m_engine(engine),
          m_radius(radius),
          m_members(members),
          m_clusterer(checked_options(radius, members)) {}

    void begin_batch(std::size_t n) override { m_fps.resize(n); }
    void prepare(std::size_t slot, std::string_view text) override {
        const fp_value v = m_engine.fingerprint(text);
        if constexpr (Bits == 64) {
            m_fps[slot] = Fingerprint<64>(v.words[0]);
        } else {
            m_fps[slot] = Fingerprint<128>(v.words);
        }
    }
    assignment add(std::size_t slot, std::uint64_t ordinal) override {
        const auto r = m_clusterer.add(m_fps[slot], ordinal);
        assignment a;
        a.centre = r.cluster;
        a.is_new = r.is_new;
        a.distance = static_cast<double>(r.distance);
        return a;
    }
    bool hamming() const noexcept override { return true; }
    std::string describe() const override {
        return "simhash, Hamming distance <= " + std::to_string(m_radius) + (m_members ? " to any member" : "") +
               "; " + m_engine.describe();
    }

private:
    static cluster_options checked_options(unsigned radius, bool members) {
        if (radius > SinglePassClusterer<Bits>::max_threshold) {
            throw invalid_argument_error("--hd " + std::to_string(radius) + " exceeds the limit of " +
                                         std::to_string(SinglePassClusterer<Bits>::max_threshold) + " for " +
                                         std::to_string(Bits) + "-bit fingerprints");
        }
        cluster_options o;
        o.threshold = radius;
        o.match = members ? match_policy::members : match_policy::centres;
        return o;
    }

    const Engine& m_engine;
    unsigned m_radius;
    bool m_members;
    SinglePassClusterer<Bits> m_clusterer;
    std::vector<Fingerprint<Bits>> m_fps;
};

// Exact shingle Jaccard against the centres that MinHash LSH proposes (the library's
// JaccardClusterer; shingles are computed in parallel beforehand).
class ShingleClustering final : public Clustering {
public:
    ShingleClustering(const Engine& engine, double threshold, std::size_t width)
        : m_engine(engine), m_threshold(threshold), m_width(width), m_clusterer(threshold) {}

    void begin_batch(std::size_t n) override {
        m_sets.clear();
        m_sets.resize(n);
    }
    void prepare(std::size_t slot, std::string_view text) override { m_sets[slot] = m_engine.shingles(text); }
    assignment add(std::size_t slot, std::uint64_t ordinal) override {
        const auto r = m_clusterer.add_shingles(std::move(m_sets[slot]), ordinal);
        assignment a;
        a.centre = r.cluster;
        a.is_new = r.is_new;
        a.similarity = r.jaccard;
        a.distance = 1.0 - r.jaccard;
        return a;
    }
    bool hamming() const noexcept override { return false; }
    std::string describe() const override {
        char t[32];
        std::snprintf(t, sizeof t, "%g", m_threshold);
        return "shingle, exact Jaccard >= " + std::string(t) + " of " + std::to_string(m_width) +
               "-token shingles (MinHash LSH candidates)";
    }

private:
    const Engine& m_engine;
    double m_threshold;
    std::size_t m_width;
    JaccardClusterer<CharBigramTokenizer, default_hash, 128, std::uint64_t> m_clusterer;
    std::vector<ShingleSet> m_sets;
};

// Estimated Jaccard (fraction of equal MinHash values) against the centres that LSH proposes.
class MinHashClustering final : public Clustering {
public:
    static constexpr std::size_t num_perm = 128;

    MinHashClustering(const Engine& engine, double threshold, std::size_t width)
        : m_engine(engine),
          m_threshold(threshold),
          m_width(width),
          m_lsh(threshold >= 1.0 ? lsh_params{1, num_perm} : optimal_lsh_params(threshold, num_perm, 0.02, 0.98)) {}

    void begin_batch(std::size_t n) override { m_signatures.resize(n); }
    void prepare(std::size_t slot, std::string_view text) override {
        m_signatures[slot] = MinHash<num_perm>(m_engine.shingles(text));
    }
    assignment add(std::size_t slot, std::uint64_t ordinal) override {
        const MinHash<num_perm>& sig = m_signatures[slot];
        std::size_t best = 0;
        double best_j = -1.0;
        for (const std::size_t c : m_lsh.candidate_slots(sig)) {
            const double j = estimate_jaccard(sig, m_lsh.signature(c));
            if (j >= m_threshold && j > best_j) {
                best_j = j;
                best = c;
            }
        }
        assignment a;
        if (best_j >= 0.0) {
            a.centre = m_lsh.id(best);
            a.similarity = best_j;
            a.distance = 1.0 - best_j;
            return a;
        }
        m_lsh.insert(sig, ordinal);
        a.centre = ordinal;
        a.is_new = true;
        return a;
    }
    bool hamming() const noexcept override { return false; }
    std::string describe() const override {
        char t[32];
        std::snprintf(t, sizeof t, "%g", m_threshold);
        const lsh_params& p = m_lsh.params();
        return "minhash, estimated Jaccard >= " + std::string(t) + " of " + std::to_string(m_width) +
               "-token shingles (" + std::to_string(num_perm) + " values, LSH " + std::to_string(p.bands) + "x" +
               std::to_string(p.rows) + ")";
    }

private:
    const Engine& m_engine;
    double m_threshold;
    std::size_t m_width;
    MinHashLsh<num_perm, std::uint64_t> m_lsh;
    std::vector<MinHash<num_perm>> m_signatures;
};

}  // namespace

std::unique_ptr<Clustering> make_clustering(const dedup_command& cmd, const Engine& engine) {
    switch (cmd.method) {
        case dedup_method::shingle:
            return std::make_unique<ShingleClustering>(engine, cmd.threshold, cmd.pipeline.shingle_width);
        case dedup_method::minhash:
            return std::make_unique<MinHashClustering>(engine, cmd.threshold, cmd.pipeline.shingle_width);
        case dedup_method::simhash:
        default: break;  // keyword, imatch, exact: cmd_signatures.cpp
    }
    const unsigned radius = cmd.hd >= 0 ? static_cast<unsigned>(cmd.hd)
                                      : (engine.bits() == 64 ? semfp::recommended_distance<64> : semfp::recommended_distance<128>);
    if (engine.bits() == 128) return std::make_unique<SimhashClustering<128>>(engine, radius, cmd.match_members);
    return std::make_unique<SimhashClustering<64>>(engine, radius, cmd.match_members);
}

}  // namespace semfp::cli
