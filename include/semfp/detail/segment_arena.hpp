#pragma once
/// \file
/// `segment_arena`: where a `packed_table` keeps its bucket segments. Small tables take their
/// blocks from the heap (`operator new`). Once the blocks held reach a threshold (16 MiB by
/// default), new blocks are carved from large anonymous mappings that ask the kernel for
/// transparent huge pages (`madvise(MADV_HUGEPAGE)`, Linux). A query of a large index touches a
/// few buckets spread over hundreds of megabytes; with 4 KiB pages nearly every bucket costs a
/// TLB miss and a page walk, with 2 MiB pages the whole table fits the TLB. The threshold keeps
/// small tables as small as before: a huge page is committed 2 MiB at a time. The tables of one
/// `multi_index` share an arena with a 1 MiB threshold (see `multi_index::shared_arena_threshold`):
/// where a 4 KiB page fault costs tens of microseconds (virtual machines), faulting a 1 M-entry
/// index in on the heap took a third of a Single-Pass run.
///
/// Inside the mappings, free ranges are kept in an address-ordered array beside them, merged
/// with their neighbours; a request takes the best fit (the smallest range that fits, the lowest
/// address among equals). The array is contiguous: a best-fit search reads it without a cache
/// miss per range (a list threaded through the free memory itself cost one miss per range, 3 %
/// of a 10 M Single-Pass run), and a release finds its place by binary search.
/// Where mappings or `madvise` are unavailable (other systems, THP disabled) every block comes
/// from the heap, with the same results.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace semfp {
inline namespace v0 {
namespace detail {

class segment_arena {
public:
    /// Alignment of every block (a cache line).
    static constexpr std::size_t alignment = 64;
    static constexpr std::size_t default_threshold = std::size_t{16} << 20;
    static constexpr std::size_t huge_page = std::size_t{2} << 20;
    static constexpr std::size_t mapping_size = std::size_t{32} << 20;

    segment_arena() = default;
    explicit segment_arena(std::size_t threshold) noexcept : m_threshold(threshold) {}
    segment_arena(const segment_arena&) = delete;
    segment_arena& operator=(const segment_arena&) = delete;
    segment_arena(segment_arena&& o) noexcept { swap(o); }
    segment_arena& operator=(segment_arena&& o) noexcept {
        segment_arena t(std::move(o));
        swap(t);
        return *this;
    }
    /// Every block must have been returned (the mappings are released as a whole).
    ~segment_arena() { release_mappings(); }

    /// Bytes held by live blocks (rounded to the alignment).
    [[nodiscard]] std::size_t live_bytes() const noexcept { return m_live; }
    /// Bytes mapped for huge pages (0 while every block comes from the heap).
    [[nodiscard]] std::size_t mapped_bytes() const noexcept { return m_mapped; }
    [[nodiscard]] std::size_t threshold() const noexcept { return m_threshold; }
    /// Live bytes from which blocks come from huge-page mappings (0: always; tests use it).
    void set_threshold(std::size_t bytes) noexcept { m_threshold = bytes; }

    /// A block of `bytes` (aligned to `alignment`). Throws `std::bad_alloc`.
    [[nodiscard]] void* allocate(std::size_t bytes) {
        const std::size_t n = round_up(std::max<std::size_t>(bytes, 1), alignment);
        void* p = nullptr;
        if (m_enabled && m_live + n >= m_threshold) p = take(n);
        if (p == nullptr) p = ::operator new(n, std::align_val_t{alignment});
        m_live += n;
        return p;
    }

    /// Returns a block of `allocate(bytes)`.
    void deallocate(void* p, std::size_t bytes) noexcept {
        if (p == nullptr) return;
        const std::size_t n = round_up(std::max<std::size_t>(bytes, 1), alignment);
        m_live -= n;
        if (mapped(p)) give_back(static_cast<std::byte*>(p), n);
        else ::operator delete(p, std::align_val_t{alignment});
    }

    void swap(segment_arena& o) noexcept {
        m_maps.swap(o.m_maps);
        m_free.swap(o.m_free);
        std::swap(m_live, o.m_live);
        std::swap(m_mapped, o.m_mapped);
        std::swap(m_threshold, o.m_threshold);
        std::swap(m_enabled, o.m_enabled);
    }

private:
    /// A free range of a mapping.
    struct free_range {
        std::byte* base;
        std::size_t size;
    };
    struct mapping {
        std::byte* base;
        std::size_t size;
    };

    [[nodiscard]] static constexpr std::size_t round_up(std::size_t x, std::size_t a) noexcept {
        return (x + a - 1) / a * a;
    }

    [[nodiscard]] bool mapped(const void* p) const noexcept {
        const auto a = reinterpret_cast<std::uintptr_t>(p);
        for (const mapping& m : m_maps) {
            const auto b = reinterpret_cast<std::uintptr_t>(m.base);
            if (a >= b && a < b + m.size) return true;
        }
        return false;
    }

    /// Best fit from the free ranges, mapping more memory if none fits; nullptr to fall back
    /// to the heap.
    [[nodiscard]] void* take(std::size_t n) {
        void* p = best_fit(n);
        if (p != nullptr || !map_more(n)) return p;
        return best_fit(n);
    }

    [[nodiscard]] void* best_fit(std::size_t n) noexcept {
        std::size_t best = m_free.size();
        for (std::size_t i = 0; i < m_free.size(); ++i)
            if (m_free[i].size >= n && (best == m_free.size() || m_free[i].size < m_free[best].size)) best = i;
        if (best == m_free.size()) return nullptr;
        free_range& r = m_free[best];
        if (r.size == n) {
            std::byte* p = r.base;
            m_free.erase(m_free.begin() + static_cast<std::ptrdiff_t>(best));
            return p;
        }
        // Keep the front of the range free; hand out its end.
        r.size -= n;
        return r.base + r.size;
    }

    /// Maps at least `n` more bytes as huge-page memory and frees them into the list; false
    /// (and the arena stops trying) where that is not possible.
    bool map_more(std::size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        const std::size_t size = round_up(std::max(n, mapping_size), huge_page);
        // Map one huge page more and trim, so that the range starts on a huge-page boundary.
        const std::size_t span = size + huge_page;
        void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) {
            m_enabled = false;
            return false;
        }
        const auto at = reinterpret_cast<std::uintptr_t>(raw);
        const std::uintptr_t start = round_up(at, huge_page);
        if (start != at) ::munmap(raw, start - at);
        const std::uintptr_t tail = start + size;
        if (at + span != tail) ::munmap(reinterpret_cast<void*>(tail), at + span - tail);
        auto* base = reinterpret_cast<std::byte*>(start);
        if (::madvise(base, size, MADV_HUGEPAGE) != 0) {
            // No transparent huge pages here: the heap serves as well.
            ::munmap(base, size);
            m_enabled = false;
            return false;
        }
        try {
            m_maps.push_back({base, size});
        } catch (...) {
            ::munmap(base, size);
            throw;
        }
        m_mapped += size;
        give_back(base, size);
        return true;
#else
        (void)n;
        m_enabled = false;
        return false;
#endif
    }

    /// Adds [p, p + n) to the free ranges, merged with adjacent ones. Where the array would have
    /// to grow and cannot, the range stays unused until the mappings are released.
    void give_back(std::byte* p, std::size_t n) noexcept {
        auto next = std::lower_bound(m_free.begin(), m_free.end(), p,
                                     [](const free_range& r, const std::byte* x) { return r.base < x; });
        const bool join_next = next != m_free.end() && p + n == next->base;
        const bool join_prev = next != m_free.begin() && (next - 1)->base + (next - 1)->size == p;
        if (join_prev && join_next) {
            (next - 1)->size += n + next->size;
            m_free.erase(next);
        } else if (join_prev) {
            (next - 1)->size += n;
        } else if (join_next) {
            next->base = p;
            next->size += n;
        } else {
            if (m_free.size() == m_free.capacity()) {
                const std::ptrdiff_t at = next - m_free.begin();
                try {
                    m_free.reserve(m_free.capacity() * 2 + 16);
                } catch (...) {
                    return;
                }
                next = m_free.begin() + at;
            }
            m_free.insert(next, free_range{p, n});
        }
    }

    void release_mappings() noexcept {
#if defined(__linux__)
        for (const mapping& m : m_maps) ::munmap(m.base, m.size);
#endif
        m_maps.clear();
        m_free.clear();
        m_mapped = 0;
    }

    std::vector<mapping> m_maps;
    std::vector<free_range> m_free;  // address order
    std::size_t m_live = 0;
    std::size_t m_mapped = 0;
    std::size_t m_threshold = default_threshold;
    bool m_enabled = true;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
