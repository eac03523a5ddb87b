#include "workers.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <system_error>

namespace semfp::cli {

namespace {
// Indices handed out per grab: small enough to balance uneven documents, large enough to keep
// the shared counter cold.
constexpr std::size_t grain = 8;

// The test hook SEMFP_THREAD_LIMIT=n makes thread creation fail after n threads in all, as it
// does for real under `ulimit -u` or when the system runs out of threads (root ignores
// `ulimit -u`, so the ctest cases need another way to get there).
unsigned thread_limit_for_tests() {
    const char* v = std::getenv("SEMFP_THREAD_LIMIT");
    if (v == nullptr || *v == '\0') return 0;
    const unsigned long n = std::strtoul(v, nullptr, 10);
    return n == 0 ? 1u : static_cast<unsigned>(std::min(n, 1ul << 20));
}

}  // namespace

WorkerPool::WorkerPool(unsigned threads) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const unsigned limit = thread_limit_for_tests();
    // A thread that cannot be created is not fatal: the job runs on the threads there are (at
    // least the caller's). Without this the pool would be left half-built.
    try {
        m_threads.reserve(threads - 1);
        for (unsigned i = 1; i < threads; ++i) {
            if (limit != 0 && i >= limit) {
                throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
            }
            m_threads.emplace_back([this] { work(); });
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "semfp: warning: could start only %u of %u threads (%s); continuing with %u\n",
                     size(), threads, e.what(), size());
    }
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_start.notify_all();
    for (auto& t : m_threads) t.join();
}

void WorkerPool::drain() {
    // Called with m_mutex unlocked; takes indices until the job is exhausted.
    for (;;) {
        std::size_t begin = 0, end = 0;
        {
            std::lock_guard lock(m_mutex);
            if (m_next >= m_count || m_error) return;
            begin = m_next;
            end = std::min(m_count, begin + grain);
            m_next = end;
        }
        try {
            for (std::size_t i = begin; i < end; ++i) (*m_fn)(i);
        } catch (...) {
            std::lock_guard lock(m_mutex);
            if (!m_error) m_error = std::current_exception();
            return;
        }
    }
}

void WorkerPool::work() {
    std::size_t seen = 0;
    for (;;) {
        const ordered_job* ordered = nullptr;
        {
            std::unique_lock lock(m_mutex);
            m_start.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
            ordered = m_ordered;
            ++m_busy;
        }
        if (ordered != nullptr) {
            drain_ordered(*ordered);
        } else {
            drain();
        }
        {
            std::lock_guard lock(m_mutex);
            --m_busy;
        }
        m_done.notify_all();
    }
}

void WorkerPool::for_each(std::size_t count, const std::function<void(std::size_t)>& fn) {
    if (count == 0) return;
    if (m_threads.empty() || count <= grain) {
        for (std::size_t i = 0; i < count; ++i) fn(i);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_fn = &fn;
        m_count = count;
        m_next = 0;
        m_error = nullptr;
        ++m_generation;
    }
    m_start.notify_all();
    drain();
    std::exception_ptr error;
    {
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_busy == 0 && (m_next >= m_count || m_error); });
        m_fn = nullptr;
        m_count = 0;
        error = m_error;
        m_error = nullptr;
    }
    if (error) std::rethrow_exception(error);
}

bool WorkerPool::grab(std::size_t& slot, std::size_t& begin, std::size_t& end) {
    const std::size_t ring = m_blocks.size();
    for (std::size_t seq = m_head; seq < m_tail; ++seq) {
        block_state& b = m_blocks[seq % ring];
        if (b.next < b.items) {
            slot = seq % ring;
            begin = b.next;
            end = std::min(b.items, begin + grain);
            b.next = end;
            return true;
        }
    }
    return false;
}

void WorkerPool::drain_ordered(const ordered_job& job) {
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_abort || m_error) return;
        std::size_t slot = 0, begin = 0, end = 0;
        if (grab(slot, begin, end)) {
            lock.unlock();
            try {
                for (std::size_t i = begin; i < end; ++i) job.process(slot, i);
            } catch (...) {
                lock.lock();
                if (!m_error) m_error = std::current_exception();
                m_done.notify_all();
                return;
            }
            lock.lock();
            // The slot cannot have been reused meanwhile: it is consumed only when its last
            // item is done, and these were not.
            if ((m_blocks[slot].remaining -= end - begin) == 0) m_done.notify_all();
            continue;
        }
        if (m_input_done) return;  // all handed out and nothing more to come
        m_work.wait(lock);
    }
}

void WorkerPool::run_ordered(const ordered_job& job) {
    const std::size_t ring = std::max<std::size_t>(1, job.ring);
    {
        std::lock_guard lock(m_mutex);
        m_blocks.assign(ring, block_state{});
        m_head = m_tail = 0;
        m_input_done = false;
        m_abort = false;
        m_error = nullptr;
        m_ordered = &job;
        ++m_generation;
    }
    m_start.notify_all();
    std::exception_ptr error;
    try {
        std::unique_lock lock(m_mutex);
        for (;;) {
            if (m_error) break;
            // 1. The oldest block, once complete, goes on at once (output as early as possible).
            if (m_head < m_tail && m_blocks[m_head % ring].remaining == 0) {
                const std::size_t slot = m_head % ring;
                const std::size_t items = m_blocks[slot].items;
                lock.unlock();
                job.consume(slot, items);
                lock.lock();
                ++m_head;
                continue;
            }
            // 2. Reading ahead keeps the other threads busy.
            if (!m_input_done && m_tail - m_head < ring) {
                const std::size_t slot = m_tail % ring;
                lock.unlock();
                const std::size_t items = job.read(slot);
                lock.lock();
                if (items == 0) {
                    m_input_done = true;
                } else {
                    m_blocks[slot] = block_state{items, 0, items};
                    ++m_tail;
                }
                m_work.notify_all();
                continue;
            }
            if (m_input_done && m_head == m_tail) break;
            // 3. Otherwise help with the oldest items, or wait for the oldest block.
            std::size_t slot = 0, begin = 0, end = 0;
            if (grab(slot, begin, end)) {
                lock.unlock();
                for (std::size_t i = begin; i < end; ++i) job.process(slot, i);
                lock.lock();
                m_blocks[slot].remaining -= end - begin;
                continue;
            }
            m_done.wait(lock);
        }
    } catch (...) {
        error = std::current_exception();
    }
    std::unique_lock lock(m_mutex);
    m_abort = true;
    m_work.notify_all();
    m_done.wait(lock, [&] { return m_busy == 0; });
    m_ordered = nullptr;
    if (!error) error = m_error;
    m_error = nullptr;
    m_blocks.clear();
    lock.unlock();
    if (error) std::rethrow_exception(error);
}

}  // namespace semfp::cli
