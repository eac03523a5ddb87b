#pragma once
// Simhash clustering behind `dedup --state / --link / --verify` and `semfp cluster`: documents
// arrive in input order as (id, fingerprint, sketch) and leave, in the same order, with their
// cluster number, centre id and distance, exactly as `semfp dedup` writes them.
//
// Single-Pass (link_kind::single_pass) decides each document on arrival and can save and reload
// its state, so a run over A and a later run over B with the state give the lines of one run over
// A + B. Connected components (link_kind::components) can only decide at the end, when no later
// document can join two components any more: every component is one cluster whose centre is its
// first document (the Python package's semfp.dask link="components"), the distance is the Hamming
// distance to that centre (which may exceed the radius). With verify, the candidates of a document
// are the documents within --hd bits (exact search) and those whose MinHash sketch shares a band
// with its sketch (semfp::SketchBandIndex, 20 bands of 4 bins) at any distance, and a candidate is a
// near-duplicate only if semfp::two_stage_rule accepts it (see signature.hpp: within its radius, 32
// of 64 bits, 40 of 128). --hd is the only radius searched exactly (at most 16 of 64 bits, 32 of
// 128); the rule's radius is never searched, so it does not set the cost, and no exact search at
// it exists in the tool (semfp::TwoStageClusterer; what the banding misses is measured in
// bench/results/two_stage.md). Every decision depends only on the input order, never on threads.

#include "engine.hpp"
#include "options.hpp"

#include <semfp/core/signature.hpp>
#include <semfp/core/sketch.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace semfp::cli {

/// What the linker decided for one document (views valid during the sink call only).
struct linked_document {
    std::string_view id;
    std::size_t cluster = 0;      ///< numbered from 0 by the input position of the centres
    std::string_view centre_id;
    unsigned distance = 0;        ///< Hamming distance to the centre (to the member matched with match_members)
    bool is_new = false;          ///< the document is its cluster's centre
    std::string_view keep;        ///< with is_new: the keep record given to `add`
};

using link_sink = std::function<void(const linked_document&)>;

struct link_settings {
    unsigned bits = 64;
    unsigned hd = 0;          ///< the radius (with verify: pairs this close need no sketch)
    bool match_members = false;
    link_kind link = link_kind::single_pass;
    bool verify = false;      ///< two-stage: candidates within hd, or sharing a sketch band; then the rule
};

class Linker {
public:
    virtual ~Linker() = default;
    /// The next document in input order; `keep` is the line `--keep` writes if it is kept.
    virtual void add(std::string_view id, const fp_value& fp, const MinHashSketch& sketch, std::string_view keep) = 0;
    /// Emits what is still pending (components: everything). Call once, after the last `add`.
    virtual void finish() = 0;
    [[nodiscard]] virtual std::size_t clusters() const noexcept = 0;
    [[nodiscard]] virtual std::size_t documents() const noexcept = 0;
    /// "simhash, Hamming distance <= 5, connected components".
    [[nodiscard]] virtual std::string describe() const = 0;
    /// Single-Pass only: writes the state to `path` atomically, stamped with `identity` and its
    /// digest (digest.hpp).
    virtual void save_state(const std::string& path, const std::string& identity) const = 0;
    /// Single-Pass only: replaces the (empty) state with the one at `path`. Throws
    /// semfp::format_error (damaged or foreign file), semfp::io_error, or
    /// semfp::invalid_argument_error when the file was made with other options (digest mismatch).
    virtual void load_state(const std::string& path, const std::string& identity) = 0;
};

/// A linker for `s` that reports every document to `sink`. Throws invalid_argument_error for a
/// radius beyond the index's limit.
[[nodiscard]] std::unique_ptr<Linker> make_linker(const link_settings& s, link_sink sink);

/// `--hd` in effect: `hd` when given (>= 0), else semfp::recommended_distance of `bits`.
[[nodiscard]] unsigned resolved_radius(int hd, unsigned bits);

/// The two-stage rule `--verify sketch` applies at radius `hd` (the `--hd` in effect): the
/// library's `two_stage_rule::recommended` for `bits`, with `hd` as its accept distance and a
/// candidate radius of at least `hd`. (Inline: the Python package decides pairs with it.)
[[nodiscard]] inline two_stage_rule verify_rule(unsigned bits, unsigned hd) noexcept {
    two_stage_rule r = bits == 128 ? two_stage_rule::recommended<128>() : two_stage_rule::recommended<64>();
    r.accept_distance = hd;
    r.radius = r.radius > hd ? r.radius : hd;
    return r;
}

/// Appends the `dedup --out` line of `d` (JSON Lines, or id<TAB>cluster with `tsv`).
void append_dedup_line(std::string& out, const linked_document& d, bool tsv);

}  // namespace semfp::cli
