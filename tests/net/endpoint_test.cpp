#include "common/net/endpoint.hpp"

#include <doctest/doctest.h>

using zk::net::data_endpoint_t;

TEST_CASE("data endpoints: one text form, parsed and printed") {
  auto t = data_endpoint_t::parse("tcp:127.0.0.1:9501");
  REQUIRE(t);
  CHECK(t->is_tcp());
  CHECK(t->host == "127.0.0.1");
  CHECK(t->port == 9501);
  CHECK(t->str() == "tcp:127.0.0.1:9501");
  auto v6 = data_endpoint_t::parse("tcp:[::1]:0");
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(v6->port == 0);
  CHECK(v6->str() == "tcp:[::1]:0");
  auto l = data_endpoint_t::parse("local:synth-0");
  REQUIRE(l);
  CHECK_FALSE(l->is_tcp());
  CHECK(l->str() == "local:synth-0");
  for (const char* bad :
       {"", "tcp:", "tcp:host", "tcp:host:", "tcp:host:65536", "tcp:host:9x", "udp:h:1", "local:"})
    CHECK_MESSAGE(!data_endpoint_t::parse(bad), bad);
}
