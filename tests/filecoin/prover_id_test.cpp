// A prover id as an operator gives it (zk/filecoin/api/prover_id.hpp): 64 hex digits as they are,
// an actor address or id as lotus makes it (the ID address payload: LEB128, then zeros).
#include "zk/filecoin/api/prover_id.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"

using namespace zk;

TEST_CASE("prover ids: hex, f0/t0 addresses and actor ids") {
  const std::string hex = "e807" + std::string(60, '0');
  CHECK(filecoin::parse_prover_id(hex, "--prover-id") == parse_hex32(hex, "x"));
  // f01000: the ID address payload of 1000 is its uvarint e8 07 (filecoin-ffi toProverID).
  CHECK(filecoin::parse_prover_id("f01000", "--prover-id") == parse_hex32(hex, "x"));
  CHECK(filecoin::parse_prover_id("t01000", "--prover-id") == parse_hex32(hex, "x"));
  CHECK(filecoin::parse_prover_id("1000", "--prover-id") == parse_hex32(hex, "x"));
  CHECK(to_hex(filecoin::prover_id_of_actor(0).data(), 2) == "0000");
  CHECK(to_hex(filecoin::prover_id_of_actor(127).data(), 2) == "7f00");
  CHECK(to_hex(filecoin::prover_id_of_actor(128).data(), 3) == "800100");
  for (const char* bad : {"f1abcdef", "f0", "x1000", "f0-1", "12345678901234567890123"}) {
    CAPTURE(bad);
    try {
      (void)filecoin::parse_prover_id(bad, "--prover-id");
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      const std::string why = e.what();
      CHECK(why.rfind("--prover-id: ", 0) == 0);
      CHECK(why.find("f0N / t0N") != std::string::npos);  // says which forms are taken
    }
  }
  // 64 characters that are not hex: the hex reader's position, and the forms.
  try {
    (void)filecoin::parse_prover_id(std::string(64, 'g'), "prover_id");
    FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("is not a hex byte") != std::string::npos);
  }
}
