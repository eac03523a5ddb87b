#pragma once
// A fixed pool of worker threads that runs index ranges of one job at a time; the caller's
// thread takes part. Results go to caller-owned slots, so output order never depends on timing.

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace semfp::cli {

class WorkerPool {
public:
    /// A pool of `threads` threads in all (the caller included); 0 means one per hardware thread.
    explicit WorkerPool(unsigned threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    /// Number of threads taking part in a job, the caller included.
    [[nodiscard]] unsigned size() const noexcept { return static_cast<unsigned>(m_threads.size()) + 1; }

    /// Calls `fn(i)` for every i in [0, count), spread over the threads, and returns when all
    /// calls are done. Rethrows the first exception a call threw.
    void for_each(std::size_t count, const std::function<void(std::size_t)>& fn);

private:
    void work();
    void drain();

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_start;
    std::condition_variable m_done;
    const std::function<void(std::size_t)>* m_fn = nullptr;
    std::size_t m_count = 0;
    std::size_t m_next = 0;
    std::size_t m_generation = 0;
    unsigned m_busy = 0;
    bool m_stop = false;
    std::exception_ptr m_error;
};

}  // namespace semfp::cli
