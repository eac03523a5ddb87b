#pragma once
/// \file
/// `advise_huge_pages`: asks for transparent huge pages on a large buffer that is about to be
/// written from start to end (Linux `madvise(MADV_HUGEPAGE)`; nothing elsewhere).
///
/// Why: on some virtual machines a page fault costs tens of microseconds, so writing a fresh
/// 200 MB result vector costs more in 4 KiB faults than in stores. With 2 MiB pages the kernel
/// takes one fault per 2 MiB. Only whole 2 MiB pages inside the range are advised, so the hint
/// never commits memory outside the buffer; it is a hint (no effect on any value), and a refused
/// `madvise` (THP disabled, old kernel) leaves the buffer as it was.

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace semfp {
inline namespace v0 {
namespace detail {

/// Advises transparent huge pages for the 2 MiB-aligned pages inside [p, p + bytes), when the
/// range spans at least two of them. Never fails.
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
    if (p == nullptr || bytes < 2 * huge) {
        return;
    }
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (at + huge - 1) & ~(huge - 1);
    const std::uintptr_t end = (at + bytes) & ~(huge - 1);
    if (end > begin) {
        (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#else
    (void)p;
    (void)bytes;
#endif
}

}  // namespace detail
}  // namespace v0
}  // namespace semfp
