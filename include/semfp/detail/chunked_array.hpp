#pragma once
/// \file
/// `chunked_array<T>`: an append-only array stored in fixed-size chunks. Growing never moves
/// or copies existing elements, so there is no transient doubling of memory (a `std::vector`
/// holds old and new storage at once while it grows) and at most one partly used chunk.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {
namespace detail {

template <class T, unsigned ChunkBits = 16>
class chunked_array {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    static constexpr std::size_t chunk_size = std::size_t{1} << ChunkBits;

    chunked_array() = default;
    chunked_array(const chunked_array& o) : m_size(o.m_size) {
        m_chunks.reserve(o.m_chunks.size());
        for (const auto& c : o.m_chunks) {
            m_chunks.push_back(std::make_unique_for_overwrite<T[]>(chunk_size));
            std::copy_n(c.get(), chunk_size, m_chunks.back().get());
        }
    }
    chunked_array& operator=(const chunked_array& o) {
        if (this != &o) {
            chunked_array t(o);
            swap(t);
        }
        return *this;
    }
    chunked_array(chunked_array&&) noexcept = default;
    chunked_array& operator=(chunked_array&&) noexcept = default;
    ~chunked_array() = default;

    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] bool empty() const noexcept { return m_size == 0; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_chunks.size() * chunk_size * sizeof(T) + m_chunks.capacity() * sizeof(void*);
    }

    [[nodiscard]] T& operator[](std::size_t i) noexcept { return m_chunks[i >> ChunkBits][i & (chunk_size - 1)]; }
    [[nodiscard]] const T& operator[](std::size_t i) const noexcept {
        return m_chunks[i >> ChunkBits][i & (chunk_size - 1)];
    }

    /// Makes room so that one `push_back` cannot allocate (strong guarantee).
    void reserve_one_more() {
        if (m_size < m_chunks.size() * chunk_size) return;
        if (m_chunks.size() == m_chunks.capacity()) m_chunks.reserve(m_chunks.size() * 2 + 4);
        m_chunks.push_back(std::make_unique_for_overwrite<T[]>(chunk_size));  // capacity reserved
    }

    /// Appends after `reserve_one_more()`; never allocates.
    void push_back(const T& v) noexcept {
        (*this)[m_size] = v;
        ++m_size;
    }

    void clear() noexcept {
        chunked_array t;
        swap(t);
    }

    void swap(chunked_array& o) noexcept {
        m_chunks.swap(o.m_chunks);
        std::swap(m_size, o.m_size);
    }

private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    std::size_t m_size = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
