// semfp: the command-line tool. See `semfp --help` and examples/README.md.
#include "args.hpp"
#include "commands.hpp"
#include "diagnostics.hpp"

#include <semfp/error.hpp>

#include <cstdio>
#include <exception>
#include <new>

int main(int argc, char** argv) {
    using namespace semfp::cli;
    try {
        return parse_and_run(argc, argv);
    } catch (const bad_input_error& e) {
        std::fprintf(stderr, "semfp: error: %s (--strict)\n", e.what());
        return exit_failure;
    } catch (const output_error& e) {
        std::fprintf(stderr, "semfp: error: %s\n", e.what());
        return exit_failure;
    } catch (const semfp::invalid_argument_error& e) {
        std::fprintf(stderr, "semfp: error: %s\n", e.what());
        return exit_usage;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "semfp: error: out of memory\n");
        return exit_failure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "semfp: error: %s\n", e.what());
        return exit_failure;
    }
}
