// Engines over the dictionary-free character-bigram tokenizer, and the engine helpers.
#include "engine_impl.hpp"

#include <semfp/core/fingerprint.hpp>
#include <semfp/core/simhash.hpp>
#include <semfp/text/tokenizers.hpp>

#include <bit>
#include <type_traits>

namespace semfp::cli {

static_assert(std::is_same_v<default_tokenizer, CharBigramTokenizer>,
              "the tool's default tokenizer (bigram) must be semfp::fingerprint's");
static_assert(std::is_same_v<default_hash, Mixed<Murmur3>>,
              "the tool's default hash (murmur, mixed) must be semfp::fingerprint's");

std::string Engine::to_hex(const fp_value& fp) const {
    if (m_bits == 128) return Fingerprint<128>(fp.words).to_hex();
    return Fingerprint<64>(fp.words[0]).to_hex();
}

unsigned Engine::distance(const fp_value& a, const fp_value& b) const noexcept {
    unsigned d = static_cast<unsigned>(std::popcount(a.words[0] ^ b.words[0]));
    if (m_bits == 128) d += static_cast<unsigned>(std::popcount(a.words[1] ^ b.words[1]));
    return d;
}

std::string Engine::describe() const {
    std::string s = std::to_string(m_bits) + "-bit simhash, ";
    s += m_options.tokenizer == tokenizer_kind::fmm ? "fmm" : "bigram";
    s += " tokenizer, ";
    switch (m_options.hash) {
        case hash_kind::murmur: s += "murmur"; break;
        case hash_kind::fnv: s += "fnv"; break;
        case hash_kind::sdbm: s += "sdbm"; break;
    }
    s += m_options.raw_hash ? " hash (raw)" : " hash (mixed)";
    return s;
}

std::unique_ptr<Engine> make_bigram_engine(const pipeline_options& opt) {
    return detail::make_with_tokenizer(opt, CharBigramTokenizer{});
}

std::unique_ptr<Engine> make_engine(const pipeline_options& opt) {
    if (opt.tokenizer == tokenizer_kind::fmm) return make_fmm_engine(opt);
    return make_bigram_engine(opt);
}

}  // namespace semfp::cli
