#pragma once
// Template glue of engine_*.cpp: one Engine implementation per (tokenizer, hash, bits).

#include "engine.hpp"

#include <semfp/baseline/shingle.hpp>
#include <semfp/core/fingerprinter.hpp>
#include <semfp/core/hash.hpp>
#include <semfp/core/signature.hpp>
#include <semfp/text/segmenter.hpp>
#include <semfp/text/tokenizers.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace semfp::cli::detail {

template <class H>
struct policy_name {
    static std::string get() {
        if constexpr (std::is_same_v<H, Murmur3>) return "murmur";
        if constexpr (std::is_same_v<H, Fnv1a>) return "fnv";
        if constexpr (std::is_same_v<H, Sdbm>) return "sdbm";
        return "custom";
    }
};
template <class H>
struct policy_name<Mixed<H>> {
    static std::string get() { return policy_name<H>::get() + " (mixed)"; }
};

template <class Tok>
std::string tokenizer_name() {
    if constexpr (std::is_same_v<Tok, CharBigramTokenizer>) return "bigram";
    if constexpr (std::is_same_v<Tok, FmmSegmenter>) return "fmm";
    return "default";
}

template <class Tok, class Hash, std::size_t Bits>
class EngineImpl final : public Engine {
public:
    EngineImpl(const pipeline_options& opt, Tok tok)
        : Engine(opt, tokenizer_name<Tok>(), policy_name<Hash>::get()),
          m_signer(Fingerprinter<Tok, Hash, Bits>(tok)),
          m_shingler(tok, opt.shingle_width) {}

    [[nodiscard]] fp_value fingerprint(std::string_view text) const override {
        return value_of(m_signer.fingerprinter()(text));
    }
    [[nodiscard]] signature_value signature(std::string_view text) const override {
        auto s = m_signer(text);
        return {value_of(s.fingerprint), std::move(s.sketch)};
    }
    [[nodiscard]] ShingleSet shingles(std::string_view text) const override { return m_shingler(text); }

private:
    [[nodiscard]] static fp_value value_of(const Fingerprint<Bits>& fp) noexcept {
        fp_value v;
        for (std::size_t i = 0; i < Bits / 64; ++i) v.words[i] = fp.word(i);
        return v;
    }

    // Fingerprints alone go through its fingerprinter; signatures through it (one pass).
    SignatureFingerprinter<Tok, Hash, Bits> m_signer;
    Shingler<Tok, Hash> m_shingler;
};

template <class Tok, class Hash>
std::unique_ptr<Engine> make_with_bits(const pipeline_options& opt, const Tok& tok) {
    if (opt.bits == 128) return std::make_unique<EngineImpl<Tok, Hash, 128>>(opt, tok);
    return std::make_unique<EngineImpl<Tok, Hash, 64>>(opt, tok);
}

template <class Tok>
std::unique_ptr<Engine> make_with_tokenizer(const pipeline_options& opt, const Tok& tok) {
    switch (opt.hash) {
        case hash_kind::fnv:
            return opt.raw_hash ? make_with_bits<Tok, Fnv1a>(opt, tok) : make_with_bits<Tok, Mixed<Fnv1a>>(opt, tok);
        case hash_kind::sdbm:
            return opt.raw_hash ? make_with_bits<Tok, Sdbm>(opt, tok) : make_with_bits<Tok, Mixed<Sdbm>>(opt, tok);
        case hash_kind::murmur:
            return opt.raw_hash ? make_with_bits<Tok, Murmur3>(opt, tok) : make_with_bits<Tok, Mixed<Murmur3>>(opt, tok);
        case hash_kind::library_default: break;
    }
    if constexpr (requires { typename default_hash::base_policy; }) {
        if (opt.raw_hash) return make_with_bits<Tok, typename default_hash::base_policy>(opt, tok);
    }
    return make_with_bits<Tok, default_hash>(opt, tok);
}

}  // namespace semfp::cli::detail
