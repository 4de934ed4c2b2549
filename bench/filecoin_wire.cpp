// bench_filecoin_wire: one Filecoin PoRep partition from synthesis node to prover over the packed
// wire, as two nodes move it (issue 35 item 5; bench/filecoin-32g runs it at 32 GiB):
//
//   bench_filecoin_wire --c1 FILE --prover-id HEX --sector N [--partition K] [--no-reference]
//
//   1. reference  the partition in prove mode into today's full buffer (synthesize_porep_payload:
//                 a, b, c and the witness; 16.7 GB at 32 GiB), every constraint checked, and the
//                 SHA-256 of its a, b, c rows; the buffer freed (--no-reference skips this)
//   2. synthesis  the packed wire's synthesis (synthesize_porep_packed: the witness a challenge at
//                 a time into a packed witness, every constraint checked, a, b, c never held)
//   3. transfer   its header and payload sent by the data plane's client to a data server over
//                 127.0.0.1 (net::data_client_t → net::data_server_t: the receiver checks the
//                 payload's XXH64 before it ACKs), into the receiver's buffer store
//   4. prover     from the received buffer: the packed witness checked and read into bit sets,
//                 a, b, c rebuilt from the circuit's structure (built once, timed apart) into
//                 arrays of the prover's rows, and their SHA-256 compared with the reference's
//
// Prints one JSON object: bytes on the wire, seconds and CPU seconds of each step, the peak RSS,
// and `abc_equal` (the rebuilt a, b, c hash to the reference's: bit for bit what prove mode
// wrote). Exit 1 when they differ or a step fails. Both ends of the transfer share this
// process's cores (CPU per byte: bench_net).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "common/buffer/synth_buffer.hpp"
#include "common/net/data_client.hpp"
#include "common/net/data_server.hpp"
#include "node/filecoin_job.hpp"
#include "node/synth/filecoin_synth.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/process.hpp"
#include "zk/base/sha256.hpp"
#include "zk/bellperson/abc_program.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/formats/packed_witness.hpp"

namespace {

namespace fc = zk::filecoin;
using clock_t_ = std::chrono::steady_clock;

double since(clock_t_::time_point t) {
  return std::chrono::duration<double>(clock_t_::now() - t).count();
}

// SHA-256 of a, b, c's first `rows` rows (Montgomery form, 32 bytes each), a then b then c.
std::string abc_digest(const uint8_t* a, const uint8_t* b, const uint8_t* c, uint64_t rows) {
  zk::sha256_t h;
  for (const uint8_t* m : {a, b, c}) h.update(m, rows * 32);
  const auto d = h.finalize();
  return zk::to_hex(d.data(), d.size());
}

int usage(const char* why) {
  std::fprintf(stderr,
               "bench_filecoin_wire: %s\nusage: bench_filecoin_wire --c1 FILE --prover-id HEX "
               "--sector N [--partition K] [--no-reference]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string c1_path, prover_hex;
  uint64_t sector = 0;
  uint32_t k = 0;
  bool reference = true, have_sector = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--c1")
      c1_path = next();
    else if (a == "--prover-id")
      prover_hex = next();
    else if (a == "--sector")
      sector = std::stoull(next()), have_sector = true;
    else if (a == "--partition")
      k = uint32_t(std::stoul(next()));
    else if (a == "--no-reference")
      reference = false;
    else
      return usage(("unknown option " + a).c_str());
  }
  if (c1_path.empty() || prover_hex.empty() || !have_sector)
    return usage("--c1, --prover-id and --sector are required");
  nlohmann::ordered_json out;
  try {
    auto t = clock_t_::now();
    const fc::c1_read_t read = fc::read_c1_file(c1_path);
    const fc::c1_output_t& c1 = read.c1;
    const fc::porep_config_t pc = fc::porep_config(*c1.registered_proof);
    if (k >= c1.vanilla_proofs.size()) return usage("--partition: not a partition of the C1");
    const std::vector<uint8_t> input = fc::partition_input_from_c1(
        pc, fc::graph_t(pc), c1,
        fc::sector_ids_of(c1, zk::parse_hex32(prover_hex, "--prover-id"), sector), k);
    const std::string name = c1_path + " partition " + std::to_string(k);
    zk::node::porep_input_ref_t ref;
    ref.name = name;
    ref.bytes = &input;
    const std::string proof_name(pc.proof->name);
    out["registered_proof"] = proof_name;
    out["partition"] = k;
    out["c1_read_seconds"] = since(t);

    // The circuit as the nodes describe it (its hash: the buffers' digest).
    t = clock_t_::now();
    const zk::node::circuit_def_t def =
        zk::node::filecoin_circuit("filecoin", proof_name, zk::config::wire_t::packed);
    out["describe_seconds"] = since(t);

    // 1. The reference: prove mode into the full buffer, the digest of its a, b, c.
    std::string want;
    if (reference) {
      zk::node::circuit_def_t full =
          zk::node::filecoin_circuit_counts("filecoin", proof_name, zk::config::wire_t::full);
      full.digest = def.digest;
      const uint64_t bytes = zk::buffer::payload_bytes_for(full.n_vars, full.domain_rows,
                                                           zk::buffer::synth_shape_t::abc_witness);
      std::unique_ptr<uint8_t[]> payload(new uint8_t[bytes]);  // not zeroed: synthesis writes it
      t = clock_t_::now();
      const auto r = zk::node::synthesize_porep_payload(full, ref, 1, k, payload.get(), true);
      if (r.unsatisfied) throw std::runtime_error(name + ": a constraint is not satisfied");
      out["reference_synthesis_seconds"] = since(t);
      const auto lay = zk::buffer::payload_layout(r.header);
      t = clock_t_::now();
      want = abc_digest(payload.get() + lay.a, payload.get() + lay.b, payload.get() + lay.c,
                        r.header.domain_rows);
      out["reference_buffer_bytes"] = bytes;
      out["reference_digest_seconds"] = since(t);
      out["reference_peak_rss_bytes"] = zk::peak_rss_bytes();
    }

    // 2. The synthesis node's half: the packed witness.
    t = clock_t_::now();
    double cpu = zk::cpu_seconds();
    zk::node::porep_packed_t packed = zk::node::synthesize_porep_packed(def, ref, 1, k);
    if (packed.unsatisfied) throw std::runtime_error(name + ": a constraint is not satisfied");
    out["synthesis_seconds"] = since(t);
    out["synthesis_cpu_seconds"] = zk::cpu_seconds() - cpu;

    // 3. Across the data plane, over loopback, into the receiver's store.
    zk::buffer::buffer_store_t store(2 * packed.header.payload_bytes + (64u << 20));
    zk::net::data_server_t server(store, {}, nullptr);
    zk::net::data_client_t client("127.0.0.1", server.port());
    t = clock_t_::now();
    cpu = zk::cpu_seconds();
    const auto sent = client.send(
        packed.header, {boost::asio::buffer(packed.payload.data(), packed.payload.size())});
    if (!sent.ok) throw std::runtime_error("the transfer failed: " + sent.error);
    out["wire_bytes"] = sent.payload_bytes + sizeof(zk::buffer::synth_header_t);
    out["transfer_seconds"] = since(t);
    out["transfer_cpu_seconds"] = zk::cpu_seconds() - cpu;  // both ends: one process
    packed.payload = {};
    const auto got = store.find(sent.buffer_id);
    if (!got)
      throw std::runtime_error("the receiver's store has no buffer " +
                               std::to_string(sent.buffer_id));

    // 4. The prover's half: check, bit sets, a, b, c rebuilt into the prover's rows.
    t = clock_t_::now();
    const auto program = fc::circuit_program(fc::circuit_config(pc));
    out["structure_seconds"] = since(t);
    const zk::buffer::synth_header_t& h = got->header();
    const uint64_t rows = h.domain_rows;
    std::unique_ptr<fc::fr_t[]> abc(new fc::fr_t[3 * rows]);  // not zeroed: the rebuild writes it
    zk::bellperson::assignment_view_t view;
    view.a = abc.get(), view.b = abc.get() + rows, view.c = abc.get() + 2 * rows;
    t = clock_t_::now();
    cpu = zk::cpu_seconds();
    const uint8_t* p = got->data() + zk::buffer::payload_layout(h).witness;
    zk::formats::check_packed_witness(p, h.payload_bytes, fc::fr_t::modulus.l, name);
    const zk::formats::witness_bits_t bits = zk::formats::witness_bits(p);
    program->eval(bits, view);
    out["rebuild_seconds"] = since(t);
    out["rebuild_cpu_seconds"] = zk::cpu_seconds() - cpu;  // fresh arrays: page faults included
    if (reference) {
      t = clock_t_::now();
      const std::string got_digest = abc_digest(reinterpret_cast<const uint8_t*>(view.a),
                                                reinterpret_cast<const uint8_t*>(view.b),
                                                reinterpret_cast<const uint8_t*>(view.c), rows);
      out["rebuilt_digest_seconds"] = since(t);
      out["abc_sha256"] = got_digest;
      out["abc_equal"] = got_digest == want;
    }
    out["peak_rss_bytes"] = zk::peak_rss_bytes();
    std::printf("%s\n", out.dump(2).c_str());
    return reference && !out["abc_equal"].get<bool>() ? 1 : 0;
  } catch (const std::exception& e) {
    out["error"] = e.what();
    std::printf("%s\n", out.dump(2).c_str());
    return 1;
  }
}
