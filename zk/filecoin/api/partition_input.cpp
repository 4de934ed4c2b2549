#include "zk/filecoin/api/partition_input.hpp"

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "zk/base/error.hpp"
#include "zk/filecoin/api/registry.hpp"

namespace zk::filecoin {

namespace {

constexpr size_t header_bytes = 24;
constexpr size_t shared_bytes = 5 * 32;
constexpr size_t record_bytes = 8 + 4 * (drg_degree + exp_degree);  // node and parents

// What the registered proof fixes of every partition input: the circuit and its path arities.
struct layout_t {
  circuit_config_t cc;
  std::vector<uint32_t> d_arities, rc_arities;  // tree D (binary); trees R and C
  uint64_t path_bytes(const std::vector<uint32_t>& arities) const {
    uint64_t n = 0;
    for (uint32_t a : arities) n += 1 + uint64_t(a - 1) * 32;
    return n;
  }
  uint64_t challenge_bytes() const {
    const uint64_t tree = path_bytes(rc_arities);
    return record_bytes + 32 + path_bytes(d_arities) + 2 * tree +
           (drg_degree + exp_degree) * (uint64_t(cc.layers) * 32 + tree);
  }
  uint64_t total() const {
    return header_bytes + shared_bytes + uint64_t(cc.challenges) * challenge_bytes();
  }
};

layout_t layout_of(const porep_config_t& pc) {
  layout_t l;
  l.cc = circuit_config(pc);
  l.d_arities = path_arities(l.cc.nodes, tree_shape_t{2, 0, 0});
  l.rc_arities = path_arities(l.cc.nodes, l.cc.shape);
  return l;
}

// --- writing ---------------------------------------------------------------------------------

struct writer_t {
  std::vector<uint8_t> out;
  void le(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
  }
  void fr(const fr_t& x) {
    const bytes32_t b = fr_to_bytes(x);
    out.insert(out.end(), b.begin(), b.end());
  }
  void path(const circuit_path_t& p) {
    for (const auto& e : p) {
      out.push_back(uint8_t(e.index));
      for (const auto& s : e.siblings) fr(s);
    }
  }
};

// --- reading ---------------------------------------------------------------------------------

struct reader_t {
  const uint8_t* p;
  size_t at = 0;
  const std::string& name;

  [[noreturn]] void fail(size_t offset, const std::string& what) const {
    throw_file_error(name, "at byte " + std::to_string(offset) + ": " + what);
  }
  uint64_t le(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(p[at + i]) << (8 * i);
    at += size_t(bytes);
    return v;
  }
  fr_t fr(const char* what) {
    const auto x = fr_from_bytes(p + at);
    if (!x) fail(at, std::string(what) + ": value not below the field modulus");
    at += 32;
    return *x;
  }
  circuit_path_t path(const std::vector<uint32_t>& arities, const char* what) {
    circuit_path_t out(arities.size());
    for (size_t e = 0; e < arities.size(); ++e) {
      const uint32_t index = p[at];
      if (index >= arities[e])
        fail(at, std::string(what) + " element " + std::to_string(e) + ": index " +
                     std::to_string(index) + " is not below the arity " +
                     std::to_string(arities[e]));
      ++at;
      out[e].index = index;
      out[e].siblings.reserve(arities[e] - 1);
      for (uint32_t s = 1; s < arities[e]; ++s) out[e].siblings.push_back(fr(what));
    }
    return out;
  }
};

}  // namespace

uint64_t partition_input_size(const porep_config_t& pc) { return layout_of(pc).total(); }

std::vector<uint8_t> write_partition_input(const porep_config_t& pc, uint32_t partition,
                                           const partition_witness_t& w,
                                           const std::vector<challenge_t>& challenges) {
  if (!pc.proof) throw std::invalid_argument("partition input: no registered proof");
  const layout_t l = layout_of(pc);
  if (partition >= pc.partitions)
    throw std::invalid_argument("partition input: partition " + std::to_string(partition) + " of " +
                                std::to_string(pc.partitions));
  check_witness(l.cc, w);
  if (challenges.size() != w.challenges.size())
    throw std::invalid_argument("partition input: " + std::to_string(challenges.size()) +
                                " challenges for a witness of " +
                                std::to_string(w.challenges.size()));
  writer_t out;
  out.out.reserve(size_t(l.total()));
  out.out.insert(out.out.end(), partition_input_magic, partition_input_magic + 4);
  out.le(partition_input_version, 2);
  out.le(0, 2);
  out.le(pc.proof->id, 8);
  out.le(partition, 4);
  out.le(l.cc.challenges, 4);
  for (const fr_t* x : {&w.replica_id, &w.comm_d, &w.comm_r, &w.comm_r_last, &w.comm_c}) out.fr(*x);
  for (size_t j = 0; j < challenges.size(); ++j) {
    const challenge_t& ch = challenges[j];
    const challenge_proof_t& cp = w.challenges[j];
    if (cp.challenge != ch.node)
      throw std::invalid_argument("partition input: challenge " + std::to_string(j) +
                                  ": the vanilla proof opens node " + std::to_string(cp.challenge) +
                                  ", the challenge is node " + std::to_string(ch.node));
    out.le(ch.node, 8);
    for (uint32_t d : ch.drg) out.le(d, 4);
    for (uint32_t e : ch.exp) out.le(e, 4);
    out.fr(cp.data_leaf);
    out.path(cp.comm_d_path);
    out.path(cp.comm_r_last_path);
    out.path(cp.comm_c_path);
    for (const auto* cols : {&cp.drg_parents, &cp.exp_parents})
      for (const auto& col : *cols) {
        for (const auto& r : col.rows) out.fr(r);
        out.path(col.path);
      }
  }
  if (out.out.size() != l.total())
    throw std::logic_error("partition input: wrote " + std::to_string(out.out.size()) +
                           " bytes, the layout has " + std::to_string(l.total()));
  return std::move(out.out);
}

std::vector<uint8_t> partition_input_from_c1(const porep_config_t& pc, const graph_t& g,
                                             const c1_output_t& c1, const sector_ids_t& ids,
                                             uint32_t k) {
  if (k >= c1.vanilla_proofs.size())
    throw std::invalid_argument("partition input: the C1 has no partition " + std::to_string(k));
  const partition_witness_t w =
      witness_from_vanilla({c1.replica_id, c1.comm_d, c1.comm_r, c1.seed}, c1.vanilla_proofs[k]);
  return write_partition_input(pc, k, w, partition_inputs(pc, g, ids, k).challenges);
}

partition_input_t read_partition_input(const porep_config_t& pc, const uint8_t* p, size_t n,
                                       const std::string& name) {
  if (!pc.proof) throw std::invalid_argument("partition input: no registered proof");
  const layout_t l = layout_of(pc);
  reader_t r{p, 0, name};
  // The length first: nothing is read or allocated for an input of another shape.
  if (n != l.total())
    r.fail(0, std::to_string(n) + " bytes, a partition input of " + std::string(pc.proof->name) +
                  " has " + std::to_string(l.total()));
  if (std::memcmp(p, partition_input_magic, 4) != 0)
    r.fail(0, "not a partition input (its magic is not \"ZKFP\")");
  r.at = 4;
  const uint64_t version = r.le(2);
  if (version != partition_input_version)
    r.fail(4, "version " + std::to_string(version) + ", this zkfleet reads version " +
                  std::to_string(partition_input_version));
  if (r.le(2) != 0) r.fail(6, "the reserved field is not 0");
  const uint64_t id = r.le(8);
  if (id != pc.proof->id)
    r.fail(8, "registered proof id " + std::to_string(id) + ", the circuit's (" +
                  std::string(pc.proof->name) + ") is " + std::to_string(pc.proof->id));
  partition_input_t in;
  in.proof = pc.proof;
  in.partition = uint32_t(r.le(4));
  if (in.partition >= pc.partitions)
    r.fail(16, "partition " + std::to_string(in.partition) + ", " + std::string(pc.proof->name) +
                   " has " + std::to_string(pc.partitions));
  const uint64_t challenges = r.le(4);
  if (challenges != l.cc.challenges)
    r.fail(20, std::to_string(challenges) + " challenges, a partition of " +
                   std::string(pc.proof->name) + " has " + std::to_string(l.cc.challenges));
  partition_witness_t& w = in.witness;
  w.replica_id = r.fr("replica_id");
  w.comm_d = r.fr("comm_d");
  w.comm_r = r.fr("comm_r");
  w.comm_r_last = r.fr("comm_r_last");
  w.comm_c = r.fr("comm_c");
  w.challenges.resize(l.cc.challenges);
  in.challenges.resize(l.cc.challenges);
  auto below_nodes = [&](uint64_t v, size_t offset, const std::string& what) {
    if (v >= l.cc.nodes)
      r.fail(offset, what + " " + std::to_string(v) + " is not below the graph's " +
                         std::to_string(l.cc.nodes) + " nodes");
  };
  for (uint32_t j = 0; j < l.cc.challenges; ++j) {
    challenge_t& ch = in.challenges[j];
    challenge_proof_t& cp = w.challenges[j];
    const std::string c = "challenge " + std::to_string(j);
    ch.node = r.le(8);
    below_nodes(ch.node, r.at - 8, c + ": node");
    if (ch.node == 0) r.fail(r.at - 8, c + ": node 0 is never challenged");
    for (auto& d : ch.drg) {
      d = uint32_t(r.le(4));
      below_nodes(d, r.at - 4, c + ": DRG parent");
    }
    for (auto& e : ch.exp) {
      e = uint32_t(r.le(4));
      below_nodes(e, r.at - 4, c + ": expander parent");
    }
    cp.challenge = ch.node;
    cp.data_leaf = r.fr("data leaf");
    cp.comm_d_path = r.path(l.d_arities, "tree D path");
    cp.comm_r_last_path = r.path(l.rc_arities, "tree R path");
    cp.comm_c_path = r.path(l.rc_arities, "tree C path");
    for (auto [cols, count] :
         {std::pair{&cp.drg_parents, drg_degree}, std::pair{&cp.exp_parents, exp_degree}}) {
      cols->resize(count);
      for (auto& col : *cols) {
        col.rows.reserve(l.cc.layers);
        for (uint32_t row = 0; row < l.cc.layers; ++row) col.rows.push_back(r.fr("column row"));
        col.path = r.path(l.rc_arities, "column path");
      }
    }
  }
  return in;
}

partition_input_t read_partition_input_file(const porep_config_t& pc, const std::string& path) {
  if (!pc.proof) throw std::invalid_argument("partition input: no registered proof");
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw_file_error(path, "cannot open the partition input");
  const auto size = uint64_t(f.tellg());
  const uint64_t want = partition_input_size(pc);
  if (size != want)
    throw_file_error(path, "at byte 0: " + std::to_string(size) + " bytes, a partition input of " +
                               std::string(pc.proof->name) + " has " + std::to_string(want));
  std::vector<uint8_t> data(static_cast<size_t>(size));
  f.seekg(0);
  if (!f.read(reinterpret_cast<char*>(data.data()), std::streamsize(size)))
    throw_file_error(path, "cannot read the partition input");
  return read_partition_input(pc, data.data(), data.size(), path);
}

std::vector<fr_t> public_inputs_of(const partition_input_t& in) {
  std::vector<fr_t> out{in.witness.replica_id, in.witness.comm_d, in.witness.comm_r};
  for (const auto& ch : in.challenges) append_challenge_inputs(ch, out);
  return out;
}

}  // namespace zk::filecoin
