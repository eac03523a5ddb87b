// Engine helpers and the choice of engine.
#include "engine.hpp"

#include <semfp/core/fingerprint.hpp>

#include <bit>

namespace semfp::cli {

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
    s += m_tokenizer_name + " tokenizer, ";
    s += m_hash_name + " hash";
    return s;
}

std::unique_ptr<Engine> make_engine(const pipeline_options& opt) {
    if (opt.tokenizer == tokenizer_kind::fmm) return make_fmm_engine(opt);
    return make_bigram_engine(opt);
}

}  // namespace semfp::cli
