#pragma once
// The first thing every command that writes files does: make sure no output is also an input
// (or another output), so that a run can never destroy the data it reads. Paths are compared by
// file identity (device and inode, as std::filesystem::equivalent does), never by spelling:
// `x.jsonl`, `./x.jsonl`, `dir/../x.jsonl`, a symbolic link to it and a hard link all name the
// same file. An output inside a directory given as input is refused as well, since the scan
// would (or might, with another --format) read it.

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace semfp::cli {

/// An output path and the option that named it (for the message), e.g. {"--out", cmd.out}.
struct named_output {
    std::string_view option;
    std::string_view path;  ///< "" (not written) and "-" (standard output) are ignored
};

/// Refuses outputs that would overwrite or feed an input: each output must not be the same file
/// as any input file, lie inside any input directory (at any depth), be the file standard input
/// is redirected from when "-" is an input, or be the same file as another output. Call it
/// before anything is opened.
///
/// Throws `semfp::invalid_argument_error` (exit status 2) with a message naming both paths.
/// Never touches the file system beyond `stat`; outputs that do not exist yet are compared with
/// each other by their canonical spelling (their directories exist or the run fails anyway).
void check_no_overlap(const std::vector<std::string>& inputs, std::initializer_list<named_output> outputs);

}  // namespace semfp::cli
