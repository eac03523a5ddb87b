#pragma once
// Exact-signature methods of the tool (keyword fingerprints, I-Match, exact digests) behind one
// run-time interface, beside the Simhash engines of engine.hpp. A method gives every document
// one or more 128-bit signatures; two documents are duplicates when any signature at the same
// position is equal (one signature except for multi-lexicon I-Match).

#include "options.hpp"

#include <semfp/core/fingerprint.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace semfp::cli {

/// A configured signature method. All members are const and thread-safe.
class SignatureEngine {
public:
    virtual ~SignatureEngine() = default;
    /// Number of signatures per document.
    [[nodiscard]] virtual std::size_t size() const noexcept = 0;
    /// Writes the `size()` signatures of `text` to `out`.
    virtual void sign(std::string_view text, std::span<Fingerprint<128>> out) const = 0;
    /// "keyword fingerprint: 8 keywords, bigram tokenizer, TF".
    [[nodiscard]] virtual std::string describe() const = 0;
    /// Identifies the method and the parameters that change its signatures (recorded in a
    /// `seen` store so that a store is never consulted with another method).
    [[nodiscard]] virtual std::string identity() const = 0;
};

/// What separates a method's parameters from the digest of its IDF file in `identity()`:
/// "keyword 8 keywords, fmm tokenizer, TF-IDF; IDF table MD5 <32 hex digits>".
inline constexpr std::string_view idf_identity_marker = "; IDF table MD5 ";

/// The engine for `sig` with the tokenizer of `pipe`. Throws semfp::invalid_argument_error
/// (usage) for impossible combinations and semfp::error when the IDF file cannot be loaded.
[[nodiscard]] std::unique_ptr<SignatureEngine> make_signature_engine(const signature_options& sig,
                                                                     const pipeline_options& pipe);

/// "keyword", "imatch", "exact", "simhash".
[[nodiscard]] const char* method_name(signature_method m) noexcept;

}  // namespace semfp::cli
