#pragma once
// The subcommands. Each returns the process exit status (see main.cpp) or throws
// bad_input_error / output_error / semfp::error, which main.cpp turns into one.

#include "options.hpp"

namespace semfp::cli {

/// Exit statuses of the semfp tool.
enum exit_status : int {
    exit_ok = 0,         ///< the run completed (bad input, if any, was reported and skipped)
    exit_failure = 1,    ///< bad input under --strict, or an output could not be written
    exit_usage = 2,      ///< invalid command line
};

[[nodiscard]] int run_fingerprint(const fingerprint_command& cmd);
[[nodiscard]] int run_dedup(const dedup_command& cmd);
[[nodiscard]] int run_compare(const compare_command& cmd);
[[nodiscard]] int run_seen(const seen_command& cmd);
/// `dedup --method keyword|imatch|exact` (cmd_signatures.cpp).
[[nodiscard]] int run_signature_dedup(const dedup_command& cmd);
/// `dedup` with --state, --link components or --verify sketch (cmd_dedup_linked.cpp).
[[nodiscard]] int run_linked_dedup(const dedup_command& cmd);
/// `cluster FP_FILES...` (cmd_cluster.cpp).
[[nodiscard]] int run_cluster(const cluster_command& cmd);
/// `dedup --method period` (cmd_dedup_period.cpp).
[[nodiscard]] int run_period_dedup(const dedup_command& cmd);

}  // namespace semfp::cli
