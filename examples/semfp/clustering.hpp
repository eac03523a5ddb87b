#pragma once
// The clustering back ends of `semfp dedup`: a per-document preparation that runs in parallel
// (fingerprint, shingles, signature) and a single-pass assignment that runs in input order.

#include "engine.hpp"
#include "options.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace semfp::cli {

/// Where a document went.
struct assignment {
    std::uint64_t centre = 0;   ///< ordinal (0-based input position) of the cluster's centre
    bool is_new = false;        ///< the document started a new cluster
    double distance = 0;        ///< Hamming distance (simhash) or 1 - Jaccard to the centre
    double similarity = 1;      ///< Jaccard similarity to the centre (shingle, minhash)
};

class Clustering {
public:
    virtual ~Clustering() = default;
    /// Makes room for a batch of `n` documents.
    virtual void begin_batch(std::size_t n) = 0;
    /// Computes what document `slot` of the batch is clustered by. Thread-safe across slots.
    virtual void prepare(std::size_t slot, std::string_view text) = 0;
    /// Clusters document `slot` of the batch, the `ordinal`-th document of the run.
    [[nodiscard]] virtual assignment add(std::size_t slot, std::uint64_t ordinal) = 0;
    /// Whether distances are Hamming distances (integers) rather than 1 - Jaccard.
    [[nodiscard]] virtual bool hamming() const noexcept = 0;
    /// "simhash, Hamming distance <= 3".
    [[nodiscard]] virtual std::string describe() const = 0;
};

/// The clustering `cmd` asks for over `engine` (which must outlive it).
[[nodiscard]] std::unique_ptr<Clustering> make_clustering(const dedup_command& cmd, const Engine& engine);

}  // namespace semfp::cli
