#include "node/cancelled_jobs.hpp"

#include <doctest/doctest.h>

using zk::node::cancelled_jobs_t;

TEST_CASE("cancelled jobs are remembered for their retention, then forgotten") {
  using namespace std::chrono_literals;
  cancelled_jobs_t c(10min);
  const auto t0 = cancelled_jobs_t::steady_clock_t::now();
  c.add(1, t0);
  c.add(2, t0 + 5min);
  CHECK(c.has(1));
  CHECK(c.has(2));
  CHECK_FALSE(c.has(3));
  c.add(3, t0 + 11min);  // job 1 is past its 10 minutes: forgotten; job 2 is not
  CHECK_FALSE(c.has(1));
  CHECK(c.has(2));
  CHECK(c.has(3));
  CHECK(c.size() == 2);
  c.add(2, t0 + 12min);        // cancelled again: its retention starts over
  c.add(4, t0 + 21min + 30s);  // job 3 is 10.5 minutes old, job 2 (again) 9.5
  CHECK(c.has(2));
  CHECK_FALSE(c.has(3));
}
