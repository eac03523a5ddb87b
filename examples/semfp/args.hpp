#pragma once
// The command line: subcommands, options, validation and help text (CLI11).

namespace semfp::cli {

/// Parses the command line and runs the chosen subcommand; returns the exit status.
[[nodiscard]] int parse_and_run(int argc, char** argv);

}  // namespace semfp::cli
