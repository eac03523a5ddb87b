#include "overlap.hpp"

#include <semfp/error.hpp>

#include <filesystem>
#include <system_error>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#include <unistd.h>
#define SEMFP_CLI_HAVE_FSTAT 1
#else
#define SEMFP_CLI_HAVE_FSTAT 0
#endif

namespace semfp::cli {

namespace fs = std::filesystem;

namespace {

bool path_exists(const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec);
}

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    const bool same = fs::equivalent(a, b, ec);
    return !ec && same;
}

// Where a not yet existing output will be: its directory resolved, its name appended.
fs::path canonical_spelling(const fs::path& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec) return p.lexically_normal();
    fs::path c = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : c;
}

// Whether `out` lies inside directory `dir` (at any depth), by identity of its ancestors.
bool inside_directory(const fs::path& out, const fs::path& dir) {
    std::error_code ec;
    fs::path parent = fs::weakly_canonical(fs::absolute(out, ec), ec);
    if (ec) return false;
    parent = parent.parent_path();
    for (;;) {
        if (path_exists(parent) && same_file(parent, dir)) return true;
        fs::path up = parent.parent_path();
        if (up.empty() || up == parent) return false;
        parent = std::move(up);
    }
}

// Whether standard input is redirected from the file `out`.
bool is_stdin_file(const fs::path& out) {
#if SEMFP_CLI_HAVE_FSTAT
    struct stat in {}, o {};
    if (::fstat(STDIN_FILENO, &in) != 0 || !S_ISREG(in.st_mode)) return false;
    if (::stat(out.c_str(), &o) != 0) return false;
    return in.st_dev == o.st_dev && in.st_ino == o.st_ino;
#else
    (void)out;
    return false;
#endif
}

[[noreturn]] void refuse(const named_output& out, const std::string& what) {
    semfp::detail::throw_invalid_argument("refusing to write " + std::string(out.option) + " " +
                                          std::string(out.path) + ": " + what + " (choose another output path)");
}

}  // namespace

void check_no_overlap(const std::vector<std::string>& inputs, std::initializer_list<named_output> outputs) {
    std::vector<const named_output*> seen;
    for (const named_output& out : outputs) {
        if (out.path.empty() || out.path == "-") continue;
        const fs::path o{std::string(out.path)};
        const bool o_exists = path_exists(o);
        for (const std::string& in : inputs) {
            if (in == "-") {
                if (o_exists && is_stdin_file(o)) refuse(out, "it is the file standard input reads");
                continue;
            }
            const fs::path i{in};
            std::error_code ec;
            if (fs::is_directory(i, ec)) {
                if (inside_directory(o, i)) refuse(out, "it lies inside input directory " + in);
            } else if (o_exists && same_file(o, i)) {
                refuse(out, "it is the same file as input " + in);
            }
        }
        for (const named_output* other : seen) {
            const fs::path p{std::string(other->path)};
            const bool same = o_exists ? same_file(o, p)
                                       : !path_exists(p) && canonical_spelling(o) == canonical_spelling(p);
            if (same) {
                refuse(out, "it is the same file as " + std::string(other->option) + " " + std::string(other->path));
            }
        }
        seen.push_back(&out);
    }
}

}  // namespace semfp::cli
