#pragma once
// Random edits of real or fixture text for property tests.

#include <semfp/text/char_class.hpp>
#include <semfp/text/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace semfp_test {

// Replaces `fraction` of the Han characters of `text` by random Han characters (U+4E00..U+9FA5).
inline std::string substitute_han(std::string_view text, double fraction, std::mt19937& rng) {
    std::u32string cps;
    for (auto d : semfp::utf8::code_points(text)) cps.push_back(d.code_point);
    std::vector<std::size_t> han;
    for (std::size_t i = 0; i < cps.size(); ++i)
        if (semfp::is_han(cps[i])) han.push_back(i);
    std::shuffle(han.begin(), han.end(), rng);
    const auto n = static_cast<std::size_t>(fraction * static_cast<double>(han.size()));
    std::uniform_int_distribution<std::uint32_t> pick(0x4E00, 0x9FA5);
    for (std::size_t i = 0; i < n; ++i) cps[han[i]] = pick(rng);
    std::string out;
    for (char32_t c : cps) semfp::utf8::append(out, c);
    return out;
}

}  // namespace semfp_test
