#pragma once
// `semfp copies QUERY... --against CORPUS...`: which corpus documents share passages with each
// query, how much of the query they cover, and where (cmd_copies.cpp), registered by args.cpp.

#include "options.hpp"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace semfp::cli {

struct copies_command {
    input_options input;                ///< the queries (paths) and the reading options of both sides
    std::vector<std::string> against;   ///< the corpus: files, directories or -
    std::size_t min_passage = 50;       ///< shortest passage reported, in code points
    std::size_t max_sources = 20;       ///< most sources examined per query (by shared fingerprints)
    bool json = false;
    bool quiet = false;
    std::string out = "-";
};

/// Registers `semfp copies` on `app`; returns the subcommand.
CLI::App* add_copies_command(CLI::App& app, copies_command& cmd);

/// Runs `semfp copies`; returns the exit status.
[[nodiscard]] int run_copies(const copies_command& cmd);

}  // namespace semfp::cli
