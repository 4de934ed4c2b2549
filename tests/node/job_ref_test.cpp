// A job as a user types it: its id or its number, in the forms logs and the dashboard show.
#include "node/job_ref.hpp"

#include <doctest/doctest.h>

using zk::node::parse_job_ref;

TEST_CASE("a job is typed by its id or by its number") {
  const std::string id = "0123456789abcdef0123456789abcdef";
  CHECK(parse_job_ref(id).value().id == id);
  CHECK(parse_job_ref(id).value().number == 0);
  CHECK(parse_job_ref("0123456789ABCDEF0123456789ABCDEF").value().id == id);
  for (const char* seven : {"7", "#7", "job7", "job 7"}) {
    CAPTURE(seven);
    REQUIRE(parse_job_ref(seven).ok());
    CHECK(parse_job_ref(seven).value().number == 7);
    CHECK(parse_job_ref(seven).value().id.empty());
  }
  CHECK(parse_job_ref("#11").value().number == 11);
  for (const char* bad :
       {"", "#", "0", "-3", "job", "7x", "#-1", "0123456789abcdef0123456789abcdeg",
        "0123456789abcdef", "1234567890123456789012"}) {
    CAPTURE(bad);
    REQUIRE_FALSE(parse_job_ref(bad).ok());
    CHECK(parse_job_ref(bad).error() ==
          "'" + std::string(bad) +
              "' is not a job: give its id (32 hex digits, as zkfleet submit printed it) or its "
              "number (7, #7 or job7, as logs and the dashboard show it)");
  }
}
