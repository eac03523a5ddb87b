#pragma once
// The tokens a tokenizer emits for a text, copied out so tests can compare them with literals.

#include <string>
#include <string_view>
#include <vector>

namespace semfp_test {

using strings = std::vector<std::string>;

template <class Tok>
strings tokens(const Tok& tok, std::string_view text) {
    strings out;
    tok.tokenize(text, [&](std::string_view t) { out.emplace_back(t); });
    return out;
}

}  // namespace semfp_test
