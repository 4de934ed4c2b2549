#include "common/groth16/api.hpp"

#include <cstring>
#include <type_traits>
#include <stdexcept>

#include "common/formats/paths.hpp"
#include "common/formats/wtns.hpp"
#include "common/groth16/verifier.hpp"

namespace zk::groth16 {
namespace {

double seconds_since(uint64_t t0) { return double(now_ns() - t0) * 1e-9; }

template <class C>
void prove_typed(const formats::zkey_file& zkey, const formats::wtns_file& wtns, const std::string& proof_path,
                 const std::string& public_path, const prove_options& options, prove_report& report) {
  auto pk = proving_key_t<C>::view(zkey);
  prover_t<C> prover(pk);
  prover.set_release_key_pages(options.release_key_pages);
  if constexpr (std::is_same_v<C, curves::bn254>) prover.set_accelerator(options.bn254_accelerator);
  else prover.set_accelerator(options.bls12_381_accelerator);
  uint64_t t0 = now_ns();
  proof_t<C> proof = prover.prove(wtns.values(), options.observe);
  report.prove_seconds = seconds_since(t0);

  std::vector<typename C::fr_t> pub(pk.n_public);
  std::vector<std::string> pub_json(pk.n_public);
  for (uint32_t i = 0; i < pk.n_public; ++i) {
    typename C::fr_t::big_t v;
    std::memcpy(v.l, wtns.value(i + 1), sizeof(v.l));
    pub[i] = C::fr_t::from_canonical(v);
    pub_json[i] = ff::to_decimal(v);
  }
  if (options.self_verify) {
    uint64_t t1 = now_ns();
    std::string why;
    bool ok = verify(verifying_key_t<C>::from_zkey(pk), pub, proof, &why);
    if (options.observe) options.observe(stage::verify, t1, now_ns());
    report.verify_seconds = seconds_since(t1);
    if (!ok)
      throw std::runtime_error(wtns.path() + ": the proof made from this witness fails verification (" + why +
                               "): the witness does not satisfy " + zkey.path() + "'s circuit, or that key is damaged (a " +
                               "point section altered after setup)");
  }
  formats::write_proof_json(proof_path, proof.to_json());
  formats::write_public_json(public_path, pub_json);
}

template <class C>
verify_result verify_typed(const formats::vkey_json& vj, const std::string& vkey_path,
                           const std::vector<std::string>& pub_json, const std::string& public_path,
                           const formats::proof_json& pj, const std::string& proof_path) {
  auto vk = verifying_key_t<C>::from_json(vj, vkey_path);
  auto pub = public_from_json<C>(pub_json, public_path);
  auto proof = proof_t<C>::from_json(pj, proof_path);
  verify_result r;
  r.valid = verify(vk, pub, proof, &r.reason);
  return r;
}

}  // namespace

prove_report prove_files(const std::string& zkey_path, const std::string& wtns_path, const std::string& proof_path,
                         const std::string& public_path, const prove_options& options) {
  formats::check_outputs({{"the proving key (.zkey)", zkey_path}, {"the witness (.wtns)", wtns_path}},
                         {{"the proof output", proof_path}, {"the public signals output", public_path}});
  prove_report report;
  uint64_t t0 = now_ns();
  formats::zkey_file zkey(zkey_path);
  formats::wtns_file wtns(wtns_path);
  formats::check_witness_matches(zkey, wtns);
  const auto& h = zkey.header();
  report.curve = formats::curve_name(h.curve);
  report.n_vars = h.n_vars;
  report.n_public = h.n_public;
  report.domain_size = h.domain_size;
  report.load_seconds = seconds_since(t0);
  if (h.curve == formats::curve_id::bn254)
    prove_typed<curves::bn254>(zkey, wtns, proof_path, public_path, options, report);
  else
    prove_typed<curves::bls12_381>(zkey, wtns, proof_path, public_path, options, report);
  return report;
}

verify_result verify_files(const std::string& vkey_path, const std::string& public_path,
                           const std::string& proof_path) {
  auto vj = formats::read_vkey_json(vkey_path);
  auto pub = formats::read_public_json(public_path);
  auto pj = formats::read_proof_json(proof_path);
  // read_vkey_json refused any protocol but groth16 and an unknown curve, naming the file.
  if (*formats::parse_curve_name(vj.curve) == formats::curve_id::bn254)
    return verify_typed<curves::bn254>(vj, vkey_path, pub, public_path, pj, proof_path);
  return verify_typed<curves::bls12_381>(vj, vkey_path, pub, public_path, pj, proof_path);
}

}  // namespace zk::groth16
