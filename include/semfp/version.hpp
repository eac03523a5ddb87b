#pragma once
/// \file
/// The library version; CMake's project(VERSION) is the single source and a test checks they agree.

namespace semfp {
inline namespace v0 {

inline constexpr int version_major = 0;
inline constexpr int version_minor = 1;
inline constexpr int version_patch = 0;

}  // namespace v0
}  // namespace semfp
