#include "support/catch.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

// Public headers must be pure ASCII so that they compile identically under any source code page
// (MSVC without /utf-8 on a Chinese-locale system re-encodes non-ASCII bytes).
TEST_CASE("public headers are ASCII-only", "[meta]") {
    const std::filesystem::path root = std::filesystem::path(SEMFP_SOURCE_DIR) / "include" / "semfp";
    REQUIRE(std::filesystem::is_directory(root));
    std::size_t headers = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (entry.path().extension() != ".hpp") continue;
        ++headers;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::size_t bad = std::string::npos;
        for (std::size_t i = 0; i < content.size(); ++i)
            if (static_cast<unsigned char>(content[i]) >= 0x80) {
                bad = i;
                break;
            }
        INFO(entry.path().string() << " byte " << bad);
        CHECK(bad == std::string::npos);
    }
    CHECK(headers >= 10);
}
