#pragma once
/// \file
/// `id_column`: the caller's ids of a clusterer's items, by item number. Callers usually number
/// their documents consecutively (`add_range(fps, first_id)` does), so while every id is the
/// previous one plus one the column stores only the first id: item i has id `first + i` and
/// costs no memory. The first id that breaks the run writes the run out to a `chunked_array`
/// (8 bytes per item from then on). Either way `operator[]` answers the same.

#include <semfp/detail/chunked_array.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace semfp {
inline namespace v0 {
namespace detail {

class id_column {
public:
    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] bool empty() const noexcept { return m_size == 0; }
    /// True while the ids are a run `first, first + 1, ...` (nothing stored per item).
    [[nodiscard]] bool consecutive() const noexcept { return m_consecutive; }

    [[nodiscard]] std::uint64_t operator[](std::size_t i) const noexcept {
        return m_consecutive ? m_first + i : m_ids[i];
    }

    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_ids.memory_bytes(); }

    /// Makes room so that `push_back(id)` cannot allocate (strong guarantee).
    void reserve_for(std::uint64_t id) {
        if (m_consecutive) {
            if (m_size == 0 || id == m_first + m_size) return;
            // The run ends: write it out (into a fresh array, swapped in when complete).
            chunked_array<std::uint64_t> t;
            for (std::size_t i = 0; i < m_size; ++i) {
                t.reserve_one_more();
                t.push_back(m_first + i);
            }
            t.reserve_one_more();
            m_ids.swap(t);
            m_consecutive = false;
            return;
        }
        m_ids.reserve_one_more();
    }

    /// Appends `id` after `reserve_for(id)`; never allocates.
    void push_back(std::uint64_t id) noexcept {
        if (m_consecutive) {
            if (m_size == 0) m_first = id;
        } else {
            m_ids.push_back(id);
        }
        ++m_size;
    }

    void clear() noexcept {
        id_column t;
        swap(t);
    }

    void swap(id_column& o) noexcept {
        m_ids.swap(o.m_ids);
        std::swap(m_first, o.m_first);
        std::swap(m_size, o.m_size);
        std::swap(m_consecutive, o.m_consecutive);
    }

private:
    chunked_array<std::uint64_t> m_ids;  // used once the run is broken
    std::uint64_t m_first = 0;
    std::size_t m_size = 0;
    bool m_consecutive = true;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
