#pragma once
// Command-line options of the signature methods (cmd_signatures.cpp) and the `seen` subcommand
// (cmd_seen.cpp), registered by args.cpp.

#include "options.hpp"

#include <CLI/CLI.hpp>

namespace semfp::cli {

/// Adds --keywords, --frequencies, --idf, --idf-band, --lexicons, --keep-fraction to `app`
/// (with --method too when `with_method`: simhash|keyword|imatch|exact).
void add_signature_options(CLI::App& app, signature_options& sig, bool with_method);

/// Registers `semfp seen` on `app`; returns the subcommand.
CLI::App* add_seen_command(CLI::App& app, seen_command& cmd);

/// `fingerprint --method keyword|imatch|exact`: id<TAB>hex (K signatures joined by commas).
[[nodiscard]] int run_signature_fingerprint(const fingerprint_command& cmd);

}  // namespace semfp::cli
