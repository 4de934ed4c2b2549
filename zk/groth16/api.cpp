#include "zk/groth16/api.hpp"

#include <stdexcept>
#include <type_traits>

#include "zk/ec/with_curve.hpp"
#include "zk/formats/paths.hpp"
#include "zk/formats/wtns.hpp"
#include "zk/groth16/prove_verified.hpp"

namespace zk::groth16 {
namespace {

double seconds_since(uint64_t t0) { return double(now_ns() - t0) * 1e-9; }

template <class C>
void prove_typed(const formats::zkey_file_t& zkey, const formats::wtns_file_t& wtns,
                 const std::string& proof_path, const std::string& public_path,
                 const prove_options_t& options, prove_report_t& report) {
  auto pk = proving_key_t<C>::view(zkey);
  prover_t<C> prover(pk);
  prover.set_release_key_pages(options.release_key_pages);
  prover.set_accelerator(options.accelerators.of<C>());
  key_tables_t<C> tables;
  if (options.precompute.enabled()) {
    tables = key_tables_t<C>::build(pk, options.precompute);
    prover.set_tables(&tables);
  }
  prove_call_t call;
  call.observe = options.observe;
  call.self_verify = options.self_verify;
  call.what = wtns.path();
  call.hint = ": the witness does not satisfy " + zkey.path() +
              "'s circuit, or that key is damaged (a point section altered after setup)";
  const auto p = prove_verified(prover, verifying_key_t<C>::from_zkey(pk), wtns.values(), call);
  report.prove_seconds = p.prove_seconds;
  report.verify_seconds = p.verify_seconds;
  write_proof_files(p, proof_path, public_path);
}

}  // namespace

prove_report_t prove_files(const std::string& zkey_path, const std::string& wtns_path,
                           const std::string& proof_path, const std::string& public_path,
                           const prove_options_t& options) {
  formats::check_outputs(
      {{"the proving key (.zkey)", zkey_path}, {"the witness (.wtns)", wtns_path}},
      {{"the proof output", proof_path}, {"the public signals output", public_path}});
  prove_report_t report;
  uint64_t t0 = now_ns();
  formats::zkey_file_t zkey(zkey_path);
  formats::wtns_file_t wtns(wtns_path);
  formats::check_witness_matches(zkey, wtns);
  const auto& h = zkey.header();
  report.curve = curve_name(h.curve);
  report.n_vars = h.n_vars;
  report.n_public = h.n_public;
  report.domain_size = h.domain_size;
  report.load_seconds = seconds_since(t0);
  curves::with_curve(h.curve, [&](auto tag) {
    prove_typed<decltype(tag)>(zkey, wtns, proof_path, public_path, options, report);
  });
  return report;
}

check_t verify_files(const std::string& vkey_path, const std::string& public_path,
                     const std::string& proof_path) {
  auto vj = formats::read_vkey_json(vkey_path);
  auto pub_json = formats::read_public_json(public_path);
  auto pj = formats::read_proof_json(proof_path);
  // read_vkey_json refused any protocol but groth16 and an unknown curve, naming the file.
  return curves::with_curve(*parse_curve_name(vj.curve), [&](auto tag) {
    using C = decltype(tag);
    auto vk = verifying_key_t<C>::from_json(vj, vkey_path);
    auto pub = public_from_json<C>(pub_json, public_path);
    auto proof = proof_t<C>::from_json(pj, proof_path);
    return verify(vk, pub, proof);
  });
}

}  // namespace zk::groth16
