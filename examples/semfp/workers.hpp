#pragma once
// A fixed pool of worker threads that runs index ranges of one job at a time; the caller's
// thread takes part. Results go to caller-owned slots, so output order never depends on timing.
// Besides plain parallel loops it runs ordered pipelines: blocks read in order, their items
// processed on any thread, the blocks consumed in input order as they complete.

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace semfp::cli {

/// An ordered pipeline over a ring of `ring` block slots (see WorkerPool::run_ordered).
struct ordered_job {
    /// Blocks in flight at most (>= 1): memory is bounded by this many blocks.
    std::size_t ring = 1;
    /// Fills ring slot `slot` with the next block; returns its number of items, 0 at the end of
    /// the input. Called on the caller's thread, in input order.
    std::function<std::size_t(std::size_t slot)> read;
    /// Processes item `item` of the block in `slot`. Called on any thread; thread-safe.
    std::function<void(std::size_t slot, std::size_t item)> process;
    /// Takes the block in `slot` (`items` items, all processed). Called on the caller's thread,
    /// in input order; the slot is read into again afterwards.
    std::function<void(std::size_t slot, std::size_t items)> consume;
};

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

    /// Runs `job`: the caller's thread reads blocks while the ring has room and consumes the
    /// oldest block as soon as all its items are processed; the other threads process items,
    /// oldest block first, and the caller helps when it has nothing else to do. So reading and
    /// consuming overlap the processing, and what `consume` sees never depends on the number of
    /// threads or their timing. Returns when the input is exhausted and every block consumed;
    /// rethrows the first exception a callback threw (after the other threads stopped).
    void run_ordered(const ordered_job& job);

private:
    struct block_state {
        std::size_t items = 0;      // in the block
        std::size_t next = 0;       // first item not yet handed out
        std::size_t remaining = 0;  // items not yet processed
    };

    void work();
    void drain();
    void drain_ordered(const ordered_job& job);
    // Hands out the next items of the oldest block that has some (m_mutex held); false if none.
    bool grab(std::size_t& slot, std::size_t& begin, std::size_t& end);

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

    // The ordered job being run (null: none), its ring and sequence numbers (slot = seq % ring).
    std::condition_variable m_work;  // a block was published, the input ended or the job stops
    const ordered_job* m_ordered = nullptr;
    std::vector<block_state> m_blocks;
    std::size_t m_head = 0;  // oldest block not consumed
    std::size_t m_tail = 0;  // next block to read
    bool m_input_done = false;
    bool m_abort = false;
};

}  // namespace semfp::cli
