#pragma once
// One compute pool per process (docs/design.md "Performance principles": no oversubscription among
// concurrent stages). parallel_for splits [0, n) into chunks run by the pool's workers and the
// calling thread; a call made from inside a worker runs inline, so nesting never deadlocks.
#include <cstddef>
#include <functional>

namespace zk {

// Number of compute threads (hardware concurrency unless ZK_THREADS is set).
unsigned compute_threads();

// Runs fn(begin, end) over disjoint chunks covering [0, n), at most `chunks` of them
// (0 = one per compute thread), and returns when all are done. Exceptions propagate.
void parallel_for(size_t n, const std::function<void(size_t, size_t)>& fn, size_t chunks = 0);

// Runs each task on the pool concurrently and waits for all of them.
void run_parallel(const std::function<void(size_t)>& task, size_t count);

}  // namespace zk
