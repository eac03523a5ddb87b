#pragma once
// The options digest stamped on the tool's saved artifacts (dedup --state, fingerprint
// --out-format bin): 16 hexadecimal digits of the SHA-256 of a canonical JSON text of the
// options and the semfp version. For a clustering state the text is exactly the one the Python
// package hashes for `semfp.Options(...).digest` (keys sorted, no spaces, radius resolved), so
// the tool and the package call the same options by the same digest; `--verify sketch` adds a
// key of its own. Fingerprint files hash the pipeline and input fields only (not the radius), so
// one set of fingerprints can be clustered at any radius.

#include "options.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace semfp::cli {

/// Lower-case hexadecimal SHA-256 (FIPS 180-4) of `data`.
[[nodiscard]] std::string sha256_hex(std::string_view data);

/// "0.1.0".
[[nodiscard]] std::string semfp_version_string();

/// The canonical JSON text of the fingerprint pipeline and the input fields (what a fingerprint
/// depends on), with `"sketch":true` when sketches are computed too.
[[nodiscard]] std::string pipeline_identity(const pipeline_options& p, const input_options& in, bool sketch);

/// The canonical JSON text of a clustering state: `pipeline_identity`'s fields plus `hd` (the
/// radius in effect) and `match_members`, and `"verify":"sketch"` for two-stage runs. Without
/// the sketch it equals the text `semfp.Options(...).digest` hashes.
[[nodiscard]] std::string clustering_identity(const pipeline_options& p, const input_options& in, unsigned radius,
                                              bool match_members, bool sketch);

/// The first 16 hexadecimal digits of the SHA-256 of `identity`.
[[nodiscard]] std::string digest_of(std::string_view identity);

}  // namespace semfp::cli
