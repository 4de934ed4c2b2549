// Jobs that bring an input.json: intake (take_in) accepts one only for a circuit with a witness
// generator; synthesize() runs the generator (argv, no shell, "{input}"/"{output}" replaced),
// uses its .wtns exactly as a job's .wtns, removes it afterwards, and reports a failing
// generator with the circuit, the program, how it ended and what it printed.
#include "node/synth/synthesize.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "tests/test_util.hpp"

using namespace zk::node;
using zk::check_t;
using zk::test::contains;
namespace fs = std::filesystem;

namespace {

const std::string mc = zk::test::fixture_dir("bn254", "mulchain");

// A circom partition of one file, by its path (".json": an input.json).
synth_result_t synth(const circuit_def_t& c, const std::string& path, uint32_t partitions,
                     uint64_t job, uint32_t part, zk::buffer::buffer_store_t& store,
                     csr_cache_t& cache, const std::function<bool()>& stop = {}) {
  const partition_spec_t in{circom_input_t{circom_form_of_path(path), input_file_t::at(path)}};
  return synthesize(c, in, path, path, partitions, job, part, store, cache, stop);
}

// The circom intake of these paths (any path may be read here): passes, or the refusal.
check_t check_inputs(const circuit_def_t& c, const std::vector<std::string>& paths,
                     uint32_t partitions) {
  circom_spec_t s;
  for (const auto& p : paths) s.inputs.push_back({circom_form_of_path(p), input_file_t::at(p)});
  auto r = take_in(c, job_spec_t{s}, partitions, intake_env_t{{"/"}, nullptr});
  if (r) return {};
  return r.error();
}

std::string synth_error(const circuit_def_t& c, const std::string& input) {
  zk::buffer::buffer_store_t store(64ull << 20);
  csr_cache_t cache;
  try {
    synth(c, input, 1, 1, 0, store, cache);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("intake: an input.json needs a witness generator in the circuit's config") {
  circuit_def_t c = describe_zkey_circuit("mulchain", mc + "/circuit.zkey", mc + "/circuit.r1cs");
  REQUIRE(c.witness_generator.empty());
  auto why = check_inputs(c, {mc + "/input.json"}, 2);
  REQUIRE_FALSE(why);
  CHECK(contains(why.reason(),
                 "circuit 'mulchain' has no witness_generator in its config: give a .wtns"));
  CHECK(contains(why.reason(), mc + "/input.json"));
  // One .wtns and one input.json (one per partition): the .json is still refused.
  CHECK_FALSE(check_inputs(c, {mc + "/witness.wtns", mc + "/input.json"}, 2));
  CHECK(check_inputs(c, {mc + "/witness.wtns"}, 2));

  c.witness_generator = {"gen", "{input}", "{output}"};
  CHECK(check_inputs(c, {mc + "/input.json"}, 2));
  CHECK(check_inputs(c, {mc + "/witness.wtns", mc + "/input.json"}, 2));
  auto missing = check_inputs(c, {mc + "/no-such-input.json"}, 1);
  REQUIRE_FALSE(missing);
  CHECK(contains(missing.reason(), "no-such-input.json: no such input file"));
  auto missing_wtns = check_inputs(c, {mc + "/no-such.wtns"}, 1);
  REQUIRE_FALSE(missing_wtns);
  CHECK(contains(missing_wtns.reason(), "no such witness file"));
}

TEST_CASE("synthesize: a generated witness is used as a .wtns would be, and removed afterwards") {
  zk::test::temp_dir_t tmp("zk_wgen");
  const std::string log = tmp.file("generator.log");
  for (bool abc : {false, true}) {
    CAPTURE(abc);
    circuit_def_t c =
        describe_zkey_circuit("mulchain", mc + "/circuit.zkey", abc ? mc + "/circuit.r1cs" : "");
    // The "generator": checks it got the input.json (as one argument, in a "--in=" form too),
    // logs where it writes, copies the fixture's witness there.
    c.witness_generator = {
        "sh",
        "-c",
        "test -s \"$1\" && test \"$2\" = \"--in=$1\" && echo \"$3\" > \"$5\" && cp \"$4\" \"$3\"",
        "gen",
        "{input}",
        "--in={input}",
        "{output}",
        mc + "/witness.wtns",
        log};
    zk::buffer::buffer_store_t store(64ull << 20);
    csr_cache_t cache;
    auto direct = synth(c, mc + "/witness.wtns", 2, 7, 1, store, cache);
    auto generated = synth(c, mc + "/input.json", 2, 7, 1, store, cache);
    CHECK(generated.payload_bytes == direct.payload_bytes);
    CHECK(generated.checksum == direct.checksum);
    auto a = store.find(direct.buffer_id), b = store.find(generated.buffer_id);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->header().shape() ==
          (abc ? zk::buffer::synth_shape_t::abc_witness : zk::buffer::synth_shape_t::witness_only));
    CHECK(b->size() == a->size());
    CHECK(std::memcmp(a->data(), b->data(), size_t(a->size())) == 0);
    // The generator wrote under a fresh directory of the temp dir, gone now.
    std::ifstream f(log);
    std::string written;
    REQUIRE(std::getline(f, written));
    CHECK(fs::path(written).filename() == "witness.wtns");
    CHECK(contains(fs::path(written).parent_path().filename().string(), "zkfleet-wtns-"));
    CHECK_FALSE(fs::exists(written));
    CHECK_FALSE(fs::exists(fs::path(written).parent_path()));
  }
}

TEST_CASE(
    "synthesize: a failing generator is reported with its message and its scratch is removed") {
  zk::test::temp_dir_t tmp("zk_wgen");
  const std::string log = tmp.file("generator.log");
  circuit_def_t c = describe_zkey_circuit("mulchain", mc + "/circuit.zkey", mc + "/circuit.r1cs");
  c.witness_generator = {"sh",
                         "-c",
                         "echo \"$2\" > \"$3\"; echo 'computing...'; printf "
                         "'\\033[31;22m[ERROR]\\033[0m snarkJS: ' >&2; "
                         "echo \"Error: Unexpected token } in JSON at $1\" >&2; exit 2",
                         "gen",
                         "{input}",
                         "{output}",
                         log};
  const std::string input = tmp.file("bad-input.json");
  std::ofstream(input) << "{\"x\": 1,}\n";
  std::string e = synth_error(c, input);
  CAPTURE(e);
  CHECK(contains(e, "circuit 'mulchain'"));
  CHECK(contains(e, "witness generator sh on " + input + " failed: exit status 2"));
  CHECK(contains(e, "Error: Unexpected token } in JSON at " + input));
  CHECK(contains(e, "computing..."));
  CHECK(contains(e, "[ERROR] snarkJS: Error: Unexpected token"));  // terminal colour codes dropped
  std::ifstream f(log);
  std::string written;
  REQUIRE(std::getline(f, written));
  CHECK_FALSE(fs::exists(fs::path(written).parent_path()));

  SUBCASE("a program that does not exist") {
    c.witness_generator = {"zkfleet-no-such-generator", "{input}", "{output}"};
    e = synth_error(c, input);
    CHECK(contains(
        e, "witness generator zkfleet-no-such-generator on " + input + " failed: cannot start"));
  }
  SUBCASE("exit status 0 without a witness") {
    c.witness_generator = {"sh", "-c", "echo nothing to do", "gen", "{input}", "{output}"};
    e = synth_error(c, input);
    CHECK(contains(e, "exit status 0 but it wrote no witness"));
    CHECK(contains(e, "nothing to do"));
  }
  SUBCASE("killed by a signal") {
    c.witness_generator = {"sh", "-c", "kill -KILL $$", "gen", "{input}", "{output}"};
    e = synth_error(c, input);
    CHECK(contains(e, "failed: killed by signal 9"));
  }
  SUBCASE("a witness of another circuit: the usual checks apply") {
    const std::string other = zk::test::fixture_dir("bn254", "poseidon") + "/witness.wtns";
    c.witness_generator = {"sh", "-c", "cp \"$2\" \"$1\"", "gen", "{output}", other, "{input}"};
    e = synth_error(c, input);
    CHECK(contains(e, "the witness that sh generated from " + input));
    CHECK(contains(e, "not a witness of circuit 'mulchain'"));
  }
  SUBCASE("a circuit without a generator refuses the input.json at synthesis too") {
    c.witness_generator.clear();
    e = synth_error(c, input);
    CHECK(contains(e, "has no witness_generator in its config: give a .wtns"));
  }
}

TEST_CASE("synthesize: a cancelled job's witness generator is killed, not waited for") {
  zk::test::temp_dir_t tmp("zk_wgen_stop");
  circuit_def_t c = describe_zkey_circuit("mulchain", mc + "/circuit.zkey", mc + "/circuit.r1cs");
  c.witness_generator = {"sh", "-c", "exec sleep 30", "gen", "{input}", "{output}"};
  const std::string input = tmp.file("input.json");
  std::ofstream(input) << "{}\n";
  zk::buffer::buffer_store_t store(64ull << 20);
  csr_cache_t cache;
  const auto t0 = std::chrono::steady_clock::now();
  auto cancelled_after_300ms = [t0] {
    return std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(300);
  };
  std::string e;
  try {
    synth(c, input, 1, 1, 0, store, cache, cancelled_after_300ms);
  } catch (const std::exception& ex) {
    e = ex.what();
  }
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CAPTURE(e);
  CHECK(contains(e, "witness generator sh on " + input + ": stopped after"));
  CHECK(contains(e, "the job was cancelled"));
  CHECK(took < 5.0);  // not the generator's 30 s
  CHECK(store.stats().registered == 0);
}

namespace {

// The fixture's witness with wire `wire` changed: it no longer satisfies mulchain's constraints.
std::string unsatisfying_witness(const zk::test::temp_dir_t& tmp, uint32_t wire) {
  std::string bytes = zk::test::read_text(mc + "/witness.wtns");
  // values start after the 12-byte file header, section 1 (12 + 40) and section 2's 12-byte header
  const size_t v0 = 12 + 12 + 40 + 12;
  REQUIRE(bytes.size() > v0 + 32 * (size_t(wire) + 1));
  bytes[v0 + 32 * size_t(wire)] ^= 1;
  const std::string path = tmp.file("unsat.wtns");
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("synthesize: a witness that does not satisfy the r1cs fails as bad input, nothing kept") {
  zk::test::temp_dir_t tmp("zk_unsat");
  const std::string bad = unsatisfying_witness(tmp, 500);
  for (auto shape :
       {zk::buffer::synth_shape_t::abc_witness, zk::buffer::synth_shape_t::witness_only}) {
    CAPTURE(int(shape));
    circuit_def_t c = describe_zkey_circuit("mulchain", mc + "/circuit.zkey", mc + "/circuit.r1cs");
    c.shape = shape;  // witness-only buffers are checked too when the r1cs is known
    zk::buffer::buffer_store_t store(64ull << 20);
    csr_cache_t cache;
    std::string e;
    bool bad_input = false;
    try {
      synth(c, bad, 1, 1, 0, store, cache);
    } catch (const bad_input_error& ex) {
      bad_input = true;
      e = ex.what();
    } catch (const std::exception& ex) {
      e = ex.what();
    }
    CAPTURE(e);
    CHECK(bad_input);
    CHECK(contains(e, bad + ": the witness does not satisfy the circuit (constraint "));
    CHECK(contains(e, "of circuit 'mulchain' in " + mc + "/circuit.r1cs"));
    CHECK(contains(e, "not retried"));
    CHECK(store.stats().registered == 0);
    // The fixture's own witness still passes the same check.
    CHECK_NOTHROW(synth(c, mc + "/witness.wtns", 1, 1, 0, store, cache));
  }
  SUBCASE("a generated witness that does not satisfy it is bad input too, naming the generator") {
    circuit_def_t c = describe_zkey_circuit("mulchain", mc + "/circuit.zkey", mc + "/circuit.r1cs");
    c.witness_generator = {"sh", "-c", "cp \"$2\" \"$1\"", "gen", "{output}", bad, "{input}"};
    const std::string input = tmp.file("input.json");
    std::ofstream(input) << "{}\n";
    zk::buffer::buffer_store_t store(64ull << 20);
    csr_cache_t cache;
    CHECK_THROWS_AS(synth(c, input, 1, 1, 0, store, cache), bad_input_error);
    const std::string e = synth_error(c, input);
    CHECK(contains(e, "the witness that sh generated from " + input));
    CHECK(contains(e, "does not satisfy the circuit"));
  }
  SUBCASE("without an r1cs nothing can be checked before the prover") {
    circuit_def_t c = describe_zkey_circuit("mulchain", mc + "/circuit.zkey");
    CHECK(synth_error(c, bad) == "");
  }
}
