// A job as a user types it: its id or its number, in the forms logs and the dashboard show, or
// the request id it was submitted with.
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
              "' is not a job: give its id (32 hex digits, as zkfleet submit printed it), its "
              "number (7, #7 or job7, as logs and the dashboard show it) or request:<its request "
              "id>");
  }
}

TEST_CASE("a job submitted with a request id is typed request:<id>") {
  // Curio's ids as they are (WindowPoSt's hold spaces and brackets): the text after the prefix.
  for (const char* rid : {"porep-1000-42", "wdpost-1000-0-[12 34 56 78 90 1 2 3]", "7"}) {
    CAPTURE(rid);
    auto r = parse_job_ref(std::string("request:") + rid);
    REQUIRE(r.ok());
    CHECK(r.value().request_id == rid);
    CHECK(r.value().id.empty());
    CHECK(r.value().number == 0);
  }
  CHECK_FALSE(parse_job_ref("request:").ok());
  CHECK(parse_job_ref("7").value().request_id.empty());
}
