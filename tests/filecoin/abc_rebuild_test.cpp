// The packed wire's two halves (issue 35 item 3): a partition's witness packed and unpacked
// (zk/formats/packed_witness.hpp), and its a, b, c rebuilt on the prover host from that witness
// and the circuit's structure (zk/bellperson/abc_program.hpp, circuit_program) — bit for bit what
// prove-mode synthesis writes, at 2 KiB (a sector sealed here: sealed_2k.hpp) and 8 MiB (a sparse
// seal).
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/filecoin/sealed_2k.hpp"
#include "zk/base/error.hpp"
#include "zk/base/le_bytes.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/c2.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/api/sparse_seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/formats/packed_witness.hpp"

using namespace zk::filecoin;
using zk::bellperson::counts_t;
namespace fmt = zk::formats;

namespace {

c1_output_t sparse_c1(const char* proof) {
  sparse_seal_request_t q;
  q.config = porep_config(registered_proof(proof));
  q.prover_id.fill(1);
  q.sector = 7;
  q.ticket.fill(2);
  q.seed.fill(3);
  q.random = 5;
  return c1_of(q, sparse_seal_sector(q));
}

// The witness as a synth buffer carries it: inputs then aux, canonical little-endian.
std::vector<uint8_t> canonical_witness(const partition_assignment_t& a) {
  std::vector<uint8_t> w(32 * (a.inputs.size() + a.aux.size()));
  zk::ff::write_canonical_le(a.inputs.data(), a.inputs.size(), w.data());
  zk::ff::write_canonical_le(a.aux.data(), a.aux.size(), w.data() + 32 * a.inputs.size());
  return w;
}

std::vector<uint8_t> pack(const std::vector<uint8_t>& w) {
  const uint64_t n = w.size() / 32;
  const uint64_t others = fmt::count_others(w.data(), n);
  std::vector<uint8_t> p(fmt::packed_witness_bytes(n, others));
  CHECK(fmt::pack_witness(w.data(), n, others, p.data()) == p.size());
  return p;
}

void check_rebuild(const c1_output_t& c1, uint32_t partition) {
  const circuit_config_t c = circuit_config(porep_config(*c1.registered_proof));
  partition_assignment_t want = synthesize_partition(c1, partition);
  const std::vector<uint8_t> w = canonical_witness(want);
  const std::vector<uint8_t> p = pack(w);
  // Mostly bits: the packed form is far below the 32 bytes a value of the witness.
  CHECK(p.size() * 4 < w.size());
  const auto info = fmt::check_packed_witness(p.data(), p.size(), fr_t::modulus.l, "partition");
  CHECK(info.n == w.size() / 32);
  std::vector<uint8_t> back(w.size(), 0xee);
  fmt::unpack_witness(p.data(), back.data());
  CHECK(back == w);

  // The synthesis node's way: the witness streamed a part at a time (checked as made) into a
  // packer, never whole — the same bytes.
  {
    const partition_witness_t in = witness_from_vanilla(
        {c1.replica_id, c1.comm_d, c1.comm_r, c1.seed}, c1.vanilla_proofs[partition]);
    std::vector<fr_t> inputs(want.counts.inputs);
    zk::formats::witness_packer_t packer(w.size() / 32);
    const auto bad = synthesize_partition_streamed(
        c, in, inputs.data(), true, [&](uint32_t first, const fr_t* v, uint32_t n) {
          packer.put(uint64_t(want.counts.inputs) + first, v, n);
        });
    CHECK(!bad);
    packer.put(0, inputs.data(), inputs.size());
    CHECK(packer.finish() == p);
  }

  const auto program = circuit_program(c);
  const counts_t t = program->total();
  REQUIRE(t == want.counts);
  const size_t rows = size_t(t.constraints) + t.inputs;
  partition_assignment_t got;
  got.counts = t;
  got.a.assign(rows, fr_t::one());
  got.b.assign(rows, fr_t::one());
  got.c.assign(rows, fr_t::one());
  const fmt::witness_bits_t bits = fmt::witness_bits(p.data());
  program->eval(bits, got.view());
  CHECK(got.a == want.a);
  CHECK(got.b == want.b);
  CHECK(got.c == want.c);
  // The structure is one challenge's, not the partition's.
  CHECK(program->terms_kept() * c.challenges < want.a.size() * 3 * 8);

  // The rebuild reads the witness: one aux value changed changes some row.
  std::vector<uint8_t> tampered = w;
  tampered[32 * (uint64_t(t.inputs) + t.aux / 2)] ^= 1;
  const std::vector<uint8_t> tp = pack(tampered);
  const fmt::witness_bits_t tbits = fmt::witness_bits(tp.data());
  program->eval(tbits, got.view());
  CHECK((got.a != want.a || got.b != want.b || got.c != want.c));
}

}  // namespace

TEST_CASE("packed wire: a 2 KiB partition's a, b, c rebuilt from its packed witness, bit for bit") {
  check_rebuild(zk::test::sealed_2k().c1, 0);
}

TEST_CASE("packed wire: an 8 MiB partition (sparse seal) rebuilt bit for bit") {
  check_rebuild(sparse_c1("StackedDrg8MiBV1_1"), 0);
}

TEST_CASE("packed wire: a packed witness that does not add up is refused by name and byte") {
  std::vector<uint8_t> w(32 * 7, 0);
  w[32 * 1] = 1;          // one
  w[32 * 3] = 5;          // other
  w[32 * 5 + 31] = 0x10;  // other, large but below p
  const std::vector<uint8_t> p = pack(w);
  REQUIRE(p.size() == fmt::packed_witness_bytes(7, 2));
  const uint64_t* m = fr_t::modulus.l;
  CHECK_NOTHROW(fmt::check_packed_witness(p.data(), p.size(), m, "x"));
  auto refused = [&](std::vector<uint8_t> q, const std::string& why) {
    CAPTURE(why);
    try {
      fmt::check_packed_witness(q.data(), q.size(), m, "job 9 partition 2");
      FAIL("accepted");
    } catch (const zk::format_error& e) {
      const std::string s = e.what();
      CHECK_MESSAGE(s.find("job 9 partition 2: packed witness: ") == 0, s);
      CHECK_MESSAGE(s.find(why) != std::string::npos, s);
      CHECK_MESSAGE(s.find("(at byte ") != std::string::npos, s);
    }
  };
  refused(std::vector<uint8_t>(p.begin(), p.begin() + 10), "the header needs 24 bytes");
  refused(std::vector<uint8_t>(p.begin(), p.end() - 1), "the counts (n = 7, others = 2) need");
  std::vector<uint8_t> q = p;
  q[0] ^= 1;
  refused(q, "magic");
  q = p;
  q[4] = 2;
  refused(q, "version 2 is not supported");
  q = p;
  q[fmt::packed_witness_header] |= 3 << 4;  // value 2: code 3
  refused(q, "value 2 has the invalid code 3");
  q = p;
  q[fmt::packed_witness_header] |= 2 << 4;  // value 2: zero → other, one more than counted
  refused(q, "3 codes say \"other\", the header says 2");
  q = p;
  q[fmt::packed_witness_header + 1] |= 1 << 6;  // bits past value 6
  refused(q, "unused bits");
  q = p;
  const size_t second = fmt::packed_witness_header + 2 + 32;
  for (int i = 0; i < 32; ++i) q[second + size_t(i)] = 0xff;
  refused(q, "other value 1 is not below the field's modulus");
  q = p;
  std::memset(q.data() + second, 0, 32);
  q[second] = 1;
  refused(q, "other value 1 is 0 or 1");
}
