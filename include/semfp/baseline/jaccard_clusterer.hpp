#pragma once
/// \file
/// `JaccardClusterer`: single-pass clustering of texts by exact shingle Jaccard similarity (the
/// paper's Shingle baseline), with MinHash LSH to find candidate centres in sub-linear time.

#include <semfp/baseline/minhash.hpp>
#include <semfp/baseline/shingle.hpp>
#include <semfp/concepts.hpp>
#include <semfp/error.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

/// Single-pass clustering by shingle Jaccard similarity.
///
/// Each added text joins the existing cluster whose centre (the cluster's first text) has the
/// highest exact Jaccard similarity >= `threshold` with it (ties go to the earlier centre); with
/// none, the text starts a new cluster and becomes its centre. Centres are found through a
/// `MinHashLsh` over the centres' signatures and then verified exactly, so `add` costs
/// O(text + candidates x shingles) instead of O(centres x shingles). The LSH is shaped by
/// `optimal_lsh_params(threshold, NumPerm, 0.02, 0.98)` unless given: it favours recall, missing
/// a centre of similarity exactly `threshold` with probability ~3 % at threshold 0.95, and
/// less the more similar the pair. Ids must be unique and hashable (`std::hash<Id>`).
template <Tokenizer Tok = default_tokenizer, HashPolicy Hash = default_hash, std::size_t NumPerm = 128,
          class Id = std::uint64_t>
class JaccardClusterer {
public:
    using id_type = Id;
    using shingler_type = Shingler<Tok, Hash>;

    /// The outcome of `add`.
    struct add_result {
        Id cluster;        ///< the id of the cluster's centre (the text's own id when is_new)
        bool is_new;       ///< true when the text started a new cluster
        double jaccard;    ///< exact Jaccard similarity with the centre (1 when is_new)
    };

    /// A clusterer with Jaccard `threshold` in (0, 1], shingles from `shingler` and an LSH of
    /// shape `params` (default: see the class comment). Throws `semfp::invalid_argument_error` for
    /// a threshold outside (0, 1] or an invalid LSH shape.
    explicit JaccardClusterer(double threshold = 0.95, shingler_type shingler = shingler_type{},
                              std::optional<lsh_params> params = std::nullopt)
        : m_threshold(threshold), m_shingler(std::move(shingler)), m_lsh(make_lsh(threshold, params)) {}

    /// Clusters the text `text` under `id`. Throws `semfp::invalid_argument_error` when `id` was
    /// already added (the clusterer is then unchanged).
    add_result add(std::string_view text, const Id& id) { return add_shingles(m_shingler(text), id); }

    /// Clusters a text given by its shingle set (made with the same shingler settings).
    add_result add_shingles(ShingleSet shingles, const Id& id) {
        if (m_cluster_of.contains(id)) detail::throw_invalid_argument("JaccardClusterer: id added twice");
        const MinHash<NumPerm> signature(shingles);
        std::size_t best = no_centre;
        double best_j = -1.0;
        for (const std::size_t slot : m_lsh.candidate_slots(signature)) {
            const double j = jaccard(shingles, m_centre_sets[slot]);
            if (j >= m_threshold && j > best_j) {
                best_j = j;
                best = slot;
            }
        }
        if (best != no_centre) {
            const Id& centre = m_lsh.id(best);
            m_cluster_of.emplace(id, centre);
            ++m_sizes[best];
            return {centre, false, best_j};
        }
        m_cluster_of.emplace(id, id);
        m_centre_index.emplace(id, m_centres.size());
        m_lsh.insert(signature, id);
        m_centre_sets.push_back(std::move(shingles));
        m_sizes.push_back(1);
        m_centres.push_back(id);
        return {id, true, 1.0};
    }

    /// The centre id of the cluster of `id`, or nothing when `id` was never added. O(1).
    [[nodiscard]] std::optional<Id> cluster_of(const Id& id) const {
        const auto it = m_cluster_of.find(id);
        if (it == m_cluster_of.end()) return std::nullopt;
        return it->second;
    }

    /// True when `id` was added. O(1).
    [[nodiscard]] bool contains(const Id& id) const { return m_cluster_of.contains(id); }

    /// True when `id` is the centre of a cluster. O(1).
    [[nodiscard]] bool is_centre(const Id& id) const { return m_centre_index.contains(id); }

    /// Number of members of the cluster whose centre is `centre_id`, the centre included (0 when
    /// `centre_id` is not a centre). O(1).
    [[nodiscard]] std::size_t cluster_size(const Id& centre_id) const {
        const auto it = m_centre_index.find(centre_id);
        return it == m_centre_index.end() ? 0 : m_sizes[it->second];
    }

    /// The centre ids in creation order.
    [[nodiscard]] std::span<const Id> centres() const noexcept { return m_centres; }
    /// Sizes of the clusters, in the order of `centres()`.
    [[nodiscard]] std::span<const std::size_t> cluster_sizes() const noexcept { return m_sizes; }
    /// Number of clusters.
    [[nodiscard]] std::size_t cluster_count() const noexcept { return m_centres.size(); }
    /// Number of texts added.
    [[nodiscard]] std::size_t size() const noexcept { return m_cluster_of.size(); }
    /// The Jaccard threshold.
    [[nodiscard]] double threshold() const noexcept { return m_threshold; }
    /// The LSH shape in use.
    [[nodiscard]] const lsh_params& lsh_shape() const noexcept { return m_lsh.params(); }
    /// The shingler.
    [[nodiscard]] const shingler_type& shingler() const noexcept { return m_shingler; }

private:
    static constexpr std::size_t no_centre = static_cast<std::size_t>(-1);

    static MinHashLsh<NumPerm, Id> make_lsh(double threshold, const std::optional<lsh_params>& params) {
        if (!(threshold > 0.0 && threshold <= 1.0))
            detail::throw_invalid_argument("JaccardClusterer: threshold must be in (0, 1]");
        if (params) return MinHashLsh<NumPerm, Id>(*params);
        // A threshold of 1 means identical sets, which share every band: one band of all values.
        if (threshold >= 1.0) return MinHashLsh<NumPerm, Id>(lsh_params{1, NumPerm});
        return MinHashLsh<NumPerm, Id>(optimal_lsh_params(threshold, NumPerm, 0.02, 0.98));
    }

    double m_threshold;
    shingler_type m_shingler;
    MinHashLsh<NumPerm, Id> m_lsh;              // over the centres; slot = centre index
    std::vector<ShingleSet> m_centre_sets;      // by centre index
    std::vector<std::size_t> m_sizes;           // by centre index
    std::vector<Id> m_centres;                  // by centre index
    std::unordered_map<Id, Id> m_cluster_of;    // text id -> centre id
    std::unordered_map<Id, std::size_t> m_centre_index;  // centre id -> centre index
};

}  // namespace v0
}  // namespace semfp
