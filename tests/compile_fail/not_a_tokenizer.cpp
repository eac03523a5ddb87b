// A type without tokenize() used as a Fingerprinter's tokenizer must be rejected, and the
// diagnostic must name the concept.
// expect: Tokenizer
#include <semfp/simhash.hpp>

struct not_a_tokenizer {};

int main() {
    const semfp::Fingerprinter<not_a_tokenizer> fp;
    return static_cast<int>(fp("text").value() & 1u);
}
