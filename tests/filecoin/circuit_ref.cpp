// filecoin_circuit_ref: zkfleet's Filecoin circuit (zk/filecoin/porep/circuit/circuit.hpp) against
// Filecoin's own, as tests/filecoin-ref dumps it (`count ... --dump FILE`, `--witness FILE.bin`).
// Driven by tests/filecoin/circuit_ref.sh; also a diagnosis tool (it names the first constraint
// that differs, with the reference's namespace path).
//
//   filecoin_circuit_ref counts CIRCUIT
//   filecoin_circuit_ref compare-dump CIRCUIT --dump FILE [--sample N]
//   filecoin_circuit_ref compare-witness --c1 FILE --witness FILE.bin [--partition K]
//   filecoin_circuit_ref compare-witness --registered-update-proof NAME --vanilla FILE
//       --comm-r-old HEX --comm-d-new HEX --comm-r-new HEX --witness FILE.bin [--partition K]
//   CIRCUIT = --registered-proof NAME | --test-config 2|8|8-4|8-4-2
//           | --registered-update-proof NAME   (the SnapDeals update's circuit,
//                                               zk/filecoin/update/circuit.hpp)
//
// counts prints the shape's counts, densities and digest as JSON. compare-dump reads the
// reference's dump (a file or a FIFO, streamed) and compares every constraint (or, with
// --sample N, every N-th and the last ones) term by term: the same variables (input/aux and
// index) in the same order with equal coefficients; then the numbers of inputs, aux variables and
// constraints. compare-witness reads a C1 (the API's JSON, zk/filecoin/api/c1.hpp),
// synthesizes partition K in prove mode and compares every input and aux value with the
// reference's witness of that C1 (`count --c1 ... --witness FILE.bin`: 32-byte little-endian
// values, inputs then aux); it also checks that every constraint holds. Exit 0 equal, 1
// different, 2 usage or I/O error. For the update, compare-witness reads the partition proofs
// (snap-vproof.json or raw, zk/filecoin/update/vanilla_proof.hpp; a file of one partition's bytes
// is partition K's) and the commitments, and the
// reference's witness of the same partition (`update-count --vanilla ... --witness FILE.bin`).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/c2.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/update/circuit.hpp"

using namespace zk;
using namespace zk::filecoin;
using zk::bytes32_t;
using zk::sha256_t;
using zk::to_hex;
using namespace zk::bellperson;
using namespace zk::neptune;
using bellperson::r1cs_matrix_t;
using bellperson::r1cs_shape_t;
using bellperson::var_t;

namespace {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

tree_shape_t parse_test_shape(const std::string& s) {
  if (s == "2") return {2, 0, 0};
  if (s == "8") return {8, 0, 0};
  if (s == "8-4") return {8, 4, 0};
  if (s == "8-4-2") return {8, 4, 2};
  throw usage_error("--test-config: 2, 8, 8-4 or 8-4-2, not '" + s + "'");
}

struct args_t {
  std::string cmd;
  circuit_config_t config;
  bool have_config = false;
  std::optional<update_config_t> update;  // --registered-update-proof
  std::string vanilla, comm_r_old, comm_d_new, comm_r_new;
  std::string dump;
  uint64_t sample = 1;
  // compare-witness
  std::string c1, witness;
  uint32_t partition = 0;
};

args_t parse(int argc, char** argv) {
  if (argc < 2) throw usage_error("missing subcommand (counts, compare-dump, compare-witness)");
  args_t a;
  a.cmd = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string k = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw usage_error(k + " needs a value");
      return argv[++i];
    };
    if (k == "--registered-proof") {
      a.config = circuit_config(porep_config(registered_proof(value())));
      a.have_config = true;
    } else if (k == "--registered-update-proof") {
      a.update = update_config(registered_update_proof(value()));
      a.have_config = true;
    } else if (k == "--vanilla") {
      a.vanilla = value();
    } else if (k == "--comm-r-old") {
      a.comm_r_old = value();
    } else if (k == "--comm-d-new") {
      a.comm_d_new = value();
    } else if (k == "--comm-r-new") {
      a.comm_r_new = value();
    } else if (k == "--c1") {
      a.c1 = value();
    } else if (k == "--witness") {
      a.witness = value();
    } else if (k == "--partition") {
      a.partition = uint32_t(std::stoul(value()));
    } else if (k == "--test-config") {
      a.config = test_circuit_config(parse_test_shape(value()));
      a.have_config = true;
    } else if (k == "--dump") {
      a.dump = value();
    } else if (k == "--sample") {
      a.sample = std::stoull(value());
      if (a.sample == 0) throw usage_error("--sample must be ≥ 1");
    } else {
      throw usage_error("unknown argument " + k);
    }
  }
  if (!a.have_config && a.cmd != "compare-witness")
    throw usage_error(
        "give --registered-proof NAME, --test-config SHAPE or --registered-update-proof NAME");
  return a;
}

// The circuit the arguments name: its key, its shape (cached) and its layout.
std::string circuit_key(const args_t& a) {
  return a.update ? "update " + std::to_string(a.update->sector_size) + " bytes" : a.config.key();
}
std::shared_ptr<const r1cs_shape_t> shape_of(const args_t& a, bool matrices) {
  return a.update ? update_circuit_shape(*a.update, matrices) : circuit_shape(a.config, matrices);
}
const circuit_layout_t& layout_of(const args_t& a) {
  return a.update ? update_circuit_layout(*a.update) : circuit_layout(a.config);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int cmd_counts(const args_t& a) {
  const auto t = std::chrono::steady_clock::now();
  const auto s = shape_of(a, false);
  const double secs = seconds_since(t);
  const auto& L = layout_of(a);
  std::printf(
      "{\n  \"config\": \"%s\",\n  \"num_inputs\": %u,\n  \"num_aux\": %u,\n"
      "  \"num_constraints\": %u,\n  \"prover_constraints\": %llu,\n  \"domain_size\": %llu,\n"
      "  \"lc_terms\": %llu,\n  \"a_aux_density\": %zu,\n  \"b_input_density\": %zu,\n"
      "  \"b_aux_density\": %zu,\n  \"digest\": \"%s\",\n"
      "  \"layout_prefix_constraints\": %u,\n  \"layout_per_challenge_constraints\": %u,\n"
      "  \"shape_seconds\": %.3f\n}\n",
      circuit_key(a).c_str(), s->counts.inputs, s->counts.aux, s->counts.constraints,
      (unsigned long long)s->prover_constraints(), (unsigned long long)s->domain_size(),
      (unsigned long long)s->terms, s->a_aux.count(), s->b_input.count(), s->b_aux.count(),
      s->digest_hex().c_str(), L.prefix.constraints, L.per_challenge.constraints, secs);
  return 0;
}

// ---- the reference dump ----------------------------------------------------------------------

class coeff_parser_t {
 public:
  fr_t parse(std::string_view s) {
    auto it = memo_.find(std::string(s));
    if (it != memo_.end()) return it->second;
    const bool neg = !s.empty() && s[0] == '-';
    fr_t v;
    if (!fr_t::from_string(neg ? s.substr(1) : s, v))
      throw std::runtime_error("dump: bad coefficient '" + std::string(s) + "'");
    if (neg) v = -v;
    memo_.emplace(std::string(s), v);
    return v;
  }

 private:
  std::unordered_map<std::string, fr_t> memo_;
};

std::string fmt_term(var_t v, const fr_t& k) {
  const fr_t neg = -k;
  const auto kc = k.to_canonical(), nc = neg.to_canonical();
  // balanced: c if c ≤ (r−1)/2 else −(r−c): the smaller of k and −k as integers.
  const bool use_neg = zk::ff::big_lt(nc, kc);
  return std::string(v.is_input() ? "i" : "a") + std::to_string(v.index()) + "*" +
         (use_neg ? "-" + neg.to_string() : k.to_string());
}

std::string fmt_row(const r1cs_shape_t& s, const r1cs_matrix_t& m, uint64_t row) {
  if (m.row_ptr[row] == m.row_ptr[row + 1]) return "-";
  std::string out;
  for (uint64_t k = m.row_ptr[row]; k < m.row_ptr[row + 1]; ++k) {
    if (!out.empty()) out += ' ';
    out += fmt_term(var_t{m.var[k]}, s.coeffs[m.coeff[k]]);
  }
  return out;
}

struct parsed_term_t {
  var_t var;
  fr_t coeff;
};

// The reference's text of one linear combination ("-" or "i<k>*<c> a<k>*<c> ...").
void parse_lc(std::string_view text, coeff_parser_t& cp, std::vector<parsed_term_t>& out) {
  out.clear();
  if (text == "-") return;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t sp = text.find(' ', pos);
    if (sp == std::string_view::npos) sp = text.size();
    const std::string_view term = text.substr(pos, sp - pos);
    pos = sp + 1;
    const size_t star = term.find('*');
    if (star == std::string_view::npos || star < 2 || (term[0] != 'i' && term[0] != 'a'))
      throw std::runtime_error("dump: bad term '" + std::string(term) + "'");
    const uint32_t idx = uint32_t(std::stoul(std::string(term.substr(1, star - 1))));
    out.push_back(
        {term[0] == 'i' ? var_t::input(idx) : var_t::aux(idx), cp.parse(term.substr(star + 1))});
  }
}

bool same_lc(const std::vector<parsed_term_t>& ref, const r1cs_shape_t& s, const r1cs_matrix_t& m,
             uint64_t row) {
  if (m.row_ptr[row + 1] - m.row_ptr[row] != ref.size()) return false;
  for (size_t k = 0; k < ref.size(); ++k) {
    const uint64_t j = m.row_ptr[row] + k;
    if (m.var[j] != ref[k].var.raw || s.coeffs[m.coeff[j]] != ref[k].coeff) return false;
  }
  return true;
}

// The shape digest of r1cs_shape_t (zk/bellperson/cs.hpp), computed from the reference's terms.
class ref_digest_t {
 public:
  ref_digest_t() {
    static const char tag[] = "zkfleet/bellperson-r1cs/v1";
    h_.update(tag, sizeof(tag) - 1);
  }
  void add(const std::vector<parsed_term_t>& lc) {
    put(uint32_t(lc.size()));
    for (const auto& t : lc) {
      put(t.var.raw);
      auto [it, inserted] = ids_.try_emplace(t.coeff.to_string(), uint32_t(coeffs_.size()));
      if (inserted) coeffs_.push_back(t.coeff);
      put(it->second);
    }
  }
  bytes32_t finish(uint32_t inputs, uint32_t aux, uint32_t constraints) {
    put(inputs);
    put(aux);
    put(constraints);
    put(uint32_t(coeffs_.size()));
    for (const fr_t& k : coeffs_) {
      const auto v = k.to_canonical();
      uint8_t b[32];
      for (int i = 0; i < 32; ++i) b[i] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
      h_.update(b, 32);
    }
    return h_.finalize();
  }

 private:
  void put(uint32_t v) {
    const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    h_.update(b, 4);
  }
  sha256_t h_;
  std::unordered_map<std::string, uint32_t> ids_;  // by canonical decimal
  std::vector<fr_t> coeffs_;
};

int cmd_compare_dump(const args_t& a) {
  if (a.dump.empty()) throw usage_error("compare-dump needs --dump FILE");
  const auto t0 = std::chrono::steady_clock::now();
  const auto s = shape_of(a, true);
  std::fprintf(stderr, "shape of %s: %s, %.1f s\n", circuit_key(a).c_str(),
               bellperson::to_string(s->counts).c_str(), seconds_since(t0));
  std::ifstream in(a.dump);
  if (!in) throw std::runtime_error("cannot open " + a.dump);
  std::vector<char> buf(size_t(1) << 24);
  in.rdbuf()->pubsetbuf(buf.data(), std::streamsize(buf.size()));
  coeff_parser_t cp;
  std::string line;
  uint64_t inputs = 0, aux = 0, constraints = 0, compared = 0;
  const uint64_t n = s->counts.constraints;
  const bool full = a.sample == 1;  // every constraint: the reference's digest too
  ref_digest_t digest;
  std::vector<parsed_term_t> ta, tb, tc;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == 'I') {
      ++inputs;
      continue;
    }
    if (line[0] == 'V') {
      ++aux;
      continue;
    }
    if (line[0] != 'C') throw std::runtime_error("dump: unexpected line: " + line.substr(0, 80));
    const uint64_t i = constraints++;
    if (i >= n) continue;  // counted below
    const bool sampled = a.sample == 1 || i % a.sample == 0 || i + 64 >= n;
    if (!full && !sampled) continue;
    // C <n>\t<path>\t<A>\t<B>\t<C>
    std::string_view v(line);
    size_t t[4];
    size_t p = 0;
    for (int f = 0; f < 4; ++f) {
      p = v.find('\t', p);
      if (p == std::string_view::npos) throw std::runtime_error("dump: short C line " + line);
      t[f] = p++;
    }
    const std::string_view la = v.substr(t[1] + 1, t[2] - t[1] - 1);
    const std::string_view lb = v.substr(t[2] + 1, t[3] - t[2] - 1);
    const std::string_view lc = v.substr(t[3] + 1);
    parse_lc(la, cp, ta);
    parse_lc(lb, cp, tb);
    parse_lc(lc, cp, tc);
    if (full) {
      digest.add(ta);
      digest.add(tb);
      digest.add(tc);
    }
    if (!sampled) continue;
    const bool ok =
        same_lc(ta, *s, s->a, i) && same_lc(tb, *s, s->b, i) && same_lc(tc, *s, s->c, i);
    ++compared;
    if (!ok) {
      std::printf("constraint %llu differs (%s)\n", (unsigned long long)i,
                  std::string(v.substr(t[0] + 1, t[1] - t[0] - 1)).c_str());
      std::printf("  reference A: %s\n  reference B: %s\n  reference C: %s\n",
                  std::string(la).c_str(), std::string(lb).c_str(), std::string(lc).c_str());
      std::printf("  zkfleet   A: %s\n  zkfleet   B: %s\n  zkfleet   C: %s\n",
                  fmt_row(*s, s->a, i).c_str(), fmt_row(*s, s->b, i).c_str(),
                  fmt_row(*s, s->c, i).c_str());
      std::printf("  zkfleet region: %s\n", s->region_of_constraint(i).c_str());
      return 1;
    }
  }
  const bool counts_ok = inputs == s->counts.inputs && aux == s->counts.aux && constraints == n;
  std::string ref_digest = "(sampled)";
  if (full)
    ref_digest = to_hex(digest.finish(uint32_t(inputs), uint32_t(aux), uint32_t(constraints)));
  const bool ok = counts_ok && (!full || ref_digest == s->digest_hex());
  std::printf(
      "{\n  \"config\": \"%s\",\n  \"reference\": {\"inputs\": %llu, \"aux\": %llu, "
      "\"constraints\": %llu, \"digest\": \"%s\"},\n  \"zkfleet\": {\"inputs\": %u, \"aux\": %u, "
      "\"constraints\": %u, \"digest\": \"%s\"},\n  \"constraints_compared\": %llu,\n"
      "  \"equal\": %s,\n  \"seconds\": %.1f\n}\n",
      circuit_key(a).c_str(), (unsigned long long)inputs, (unsigned long long)aux,
      (unsigned long long)constraints, ref_digest.c_str(), s->counts.inputs, s->counts.aux,
      s->counts.constraints, s->digest_hex().c_str(), (unsigned long long)compared,
      ok ? "true" : "false", seconds_since(t0));
  return ok ? 0 : 1;
}

// The partition's prove-mode assignment as zkfleet synthesizes it, what names it, and its first
// unsatisfied constraint.
struct synthesized_t {
  std::string proof;  // the registered (update) proof's name
  partition_assignment_t asg;
  std::optional<unsatisfied_t> bad;
  double seconds = 0;
};

synthesized_t synthesize_c1(const args_t& a) {
  const c1_output_t c1 = read_c1_file(a.c1).c1;
  const circuit_config_t config = circuit_config(porep_config(*c1.registered_proof));
  synthesized_t r;
  r.proof = std::string(c1.registered_proof->name);
  const auto t = std::chrono::steady_clock::now();
  r.asg = synthesize_partition(c1, a.partition);
  r.seconds = seconds_since(t);
  r.bad = first_unsatisfied(config, r.asg.view());
  return r;
}

synthesized_t synthesize_update(const args_t& a) {
  if (a.vanilla.empty() || a.comm_r_old.empty() || a.comm_d_new.empty() || a.comm_r_new.empty())
    throw usage_error(
        "compare-witness of an update needs --vanilla, --comm-r-old, --comm-d-new, --comm-r-new");
  const update_config_t& c = *a.update;
  update_commitments_t comms;
  comms.comm_r_old = parse_hex32(a.comm_r_old, "--comm-r-old");
  comms.comm_d_new = parse_hex32(a.comm_d_new, "--comm-d-new");
  comms.comm_r_new = parse_hex32(a.comm_r_new, "--comm-r-new");
  // A file of one partition's bytes is partition K's; else all the sector's partitions.
  const std::string bytes = read_text(a.vanilla);
  const update_partition_proof_t proof =
      bytes.size() == update_partition_proof_size(c)
          ? decode_update_partition_proof(reinterpret_cast<const uint8_t*>(bytes.data()),
                                          bytes.size(), c, a.vanilla, a.partition)
          : read_update_vanilla_file(a.vanilla, c).at(a.partition);
  synthesized_t r;
  r.proof = std::string(c.proof->name);
  const auto t = std::chrono::steady_clock::now();
  r.asg = synthesize_update_partition(c, update_witness_from_vanilla(c, a.partition, comms, proof));
  r.seconds = seconds_since(t);
  r.bad = first_unsatisfied_update(c, r.asg.view());
  return r;
}

int cmd_compare_witness(const args_t& a) {
  if (a.witness.empty()) throw usage_error("compare-witness needs --witness");
  if (a.c1.empty() == !a.update)
    throw usage_error("compare-witness needs --c1 FILE or --registered-update-proof NAME");
  synthesized_t r = a.update ? synthesize_update(a) : synthesize_c1(a);
  const partition_assignment_t& asg = r.asg;

  std::ifstream in(a.witness, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + a.witness);
  in.seekg(0, std::ios::end);
  const uint64_t bytes = uint64_t(in.tellg());
  in.seekg(0);
  const uint64_t expected = 32 * (uint64_t(asg.inputs.size()) + asg.aux.size());
  if (bytes != expected) {
    std::printf("witness %s holds %llu values, zkfleet's %zu inputs + %zu aux\n", a.witness.c_str(),
                (unsigned long long)(bytes / 32), asg.inputs.size(), asg.aux.size());
    return 1;
  }
  uint64_t differ = 0, first = ~uint64_t(0);
  uint8_t buf[32];
  auto check = [&](const fr_t& mine, uint64_t i) {
    in.read(reinterpret_cast<char*>(buf), 32);
    bytes32_t ref;
    std::memcpy(ref.data(), buf, 32);
    if (fr_to_bytes(mine) != ref) {
      if (differ++ == 0) first = i;
    }
  };
  for (size_t i = 0; i < asg.inputs.size(); ++i) check(asg.inputs[i], i);
  for (size_t i = 0; i < asg.aux.size(); ++i) check(asg.aux[i], asg.inputs.size() + i);
  const bool ok = differ == 0 && !r.bad;
  std::printf(
      "{\n  \"registered_proof\": \"%s\",\n  \"partition\": %u,\n  \"inputs\": %zu,\n"
      "  \"aux\": %zu,\n  \"values_differing\": %llu,\n  \"first_differing\": %lld,\n"
      "  \"satisfied\": %s,\n  \"equal\": %s,\n  \"synthesis_seconds\": %.3f\n}\n",
      r.proof.c_str(), a.partition, asg.inputs.size(), asg.aux.size(), (unsigned long long)differ,
      differ ? (long long)first : -1LL, r.bad ? "false" : "true", ok ? "true" : "false", r.seconds);
  if (r.bad)
    std::printf("unsatisfied: constraint %llu (%s)\n", (unsigned long long)r.bad->constraint,
                r.bad->where.c_str());
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const args_t a = parse(argc, argv);
    if (a.cmd == "counts") return cmd_counts(a);
    if (a.cmd == "compare-dump") return cmd_compare_dump(a);
    if (a.cmd == "compare-witness") return cmd_compare_witness(a);
    throw usage_error("unknown subcommand " + a.cmd);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "filecoin_circuit_ref: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "filecoin_circuit_ref: %s\n", e.what());
    return 2;
  }
}
