#pragma once
/// \file
/// `plan_cache`: the query plans a `multi_index` has built, kept for later queries, safe under
/// concurrent const queries (see the class comment).

#include <array>
#include <atomic>
#include <cstddef>

namespace semfp {
inline namespace v0 {
namespace detail {

/// Query plans built so far, one slot per radius (`Radii` slots of a copyable `Plan`). A slot
/// is written once, by the thread that claims it, and read only after it is published
/// (release / acquire), so concurrent const queries may build and share plans; a query that
/// finds its slot claimed but not yet published builds the same plan on its own stack. Copies
/// keep the published plans.
template <class Plan, std::size_t Radii>
class plan_cache {
public:
    static constexpr std::size_t radii = Radii;
    plan_cache() = default;
    plan_cache(const plan_cache& o) noexcept { copy_from(o); }
    plan_cache& operator=(const plan_cache& o) noexcept {
        if (this != &o) copy_from(o);
        return *this;
    }
    ~plan_cache() = default;
    [[nodiscard]] const Plan* find(unsigned k) const noexcept {
        return m_state[k].load(std::memory_order_acquire) == ready ? &m_plans[k] : nullptr;
    }
    void publish(unsigned k, const Plan& p) noexcept {
        unsigned char expected = empty;
        if (!m_state[k].compare_exchange_strong(expected, claimed, std::memory_order_acquire,
                                                std::memory_order_relaxed))
            return;
        m_plans[k] = p;
        m_state[k].store(ready, std::memory_order_release);
    }

private:
    static constexpr unsigned char empty = 0;
    static constexpr unsigned char claimed = 1;
    static constexpr unsigned char ready = 2;
    void copy_from(const plan_cache& o) noexcept {
        for (std::size_t k = 0; k < radii; ++k) {
            if (o.m_state[k].load(std::memory_order_acquire) == ready) {
                m_plans[k] = o.m_plans[k];
                m_state[k].store(ready, std::memory_order_release);
            } else {
                m_state[k].store(empty, std::memory_order_relaxed);
            }
        }
    }
    std::array<std::atomic<unsigned char>, radii> m_state{};
    std::array<Plan, radii> m_plans;
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp
