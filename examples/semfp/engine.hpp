#pragma once
// The fingerprint pipeline chosen on the command line (bits x tokenizer x hash), behind one
// run-time interface so the commands are written once.

#include "options.hpp"

#include <semfp/baseline/shingle.hpp>
#include <semfp/core/sketch.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace semfp::cli {

/// A fingerprint of 64 or 128 bits: words[0] holds the most significant 64 bits (the 64-bit
/// value itself for 64-bit fingerprints), as in semfp::Fingerprint.
struct fp_value {
    std::array<std::uint64_t, 2> words{};
};

/// The fingerprint of a text and the MinHash sketch of the same tokens.
struct signature_value {
    fp_value fingerprint;
    MinHashSketch sketch;
};

/// The configured pipeline. All members are const and thread-safe.
class Engine {
public:
    virtual ~Engine() = default;
    /// The fingerprint of `text` (normalized, tokenized, hashed as configured).
    [[nodiscard]] virtual fp_value fingerprint(std::string_view text) const = 0;
    /// The fingerprint of `text` (equal to `fingerprint(text)`) and the MinHash sketch of the
    /// features it is built from, from one normalization and tokenization (semfp's
    /// SignatureFingerprinter: with bigram tokenizers, the fused fingerprint pass).
    [[nodiscard]] virtual signature_value signature(std::string_view text) const = 0;
    /// The w-shingle set of `text` with the same normalization, tokenizer and hash.
    [[nodiscard]] virtual ShingleSet shingles(std::string_view text) const = 0;
    /// Fingerprint width in bits.
    [[nodiscard]] unsigned bits() const noexcept { return m_bits; }
    /// Lower-case hexadecimal of a fingerprint, bits / 4 digits.
    [[nodiscard]] std::string to_hex(const fp_value& fp) const;
    /// Hamming distance of two fingerprints of this engine.
    [[nodiscard]] unsigned distance(const fp_value& a, const fp_value& b) const noexcept;
    /// "64-bit simhash, bigram tokenizer, sdbm (mixed) hash".
    [[nodiscard]] std::string describe() const;

protected:
    Engine(const pipeline_options& opt, std::string tokenizer_name, std::string hash_name)
        : m_bits(opt.bits), m_tokenizer_name(std::move(tokenizer_name)), m_hash_name(std::move(hash_name)) {}

private:
    unsigned m_bits;
    std::string m_tokenizer_name;
    std::string m_hash_name;
};

/// The engine for `opt`. Builds the embedded dictionary on first use when the tokenizer is fmm.
[[nodiscard]] std::unique_ptr<Engine> make_engine(const pipeline_options& opt);

/// Engines per tokenizer (engine_bigram.cpp: bigram and the library default; engine_fmm.cpp).
[[nodiscard]] std::unique_ptr<Engine> make_bigram_engine(const pipeline_options& opt);
[[nodiscard]] std::unique_ptr<Engine> make_fmm_engine(const pipeline_options& opt);

}  // namespace semfp::cli
