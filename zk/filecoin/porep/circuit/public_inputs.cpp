#include "zk/filecoin/porep/circuit/public_inputs.hpp"

#include <stdexcept>

namespace zk::filecoin {

void append_challenge_inputs(const challenge_t& ch, std::vector<fr_t>& out) {
  const fr_t c = fr_t::from_u64(ch.node);
  out.push_back(c);  // comm_d inclusion: the data leaf's index
  for (uint32_t p : ch.drg) out.push_back(fr_t::from_u64(p));
  for (uint32_t p : ch.exp) out.push_back(fr_t::from_u64(p));
  out.push_back(c);  // the labelled node
  out.push_back(c);  // comm_r_last inclusion
  out.push_back(c);  // comm_c inclusion
}

partition_inputs_t partition_inputs(const porep_config_t& c, const graph_t& g,
                                    const sector_ids_t& s, uint32_t k) {
  const auto comm_d = fr_from_bytes(s.comm_d);
  if (!comm_d) throw std::invalid_argument("comm_d is not a field element (not below r)");
  const auto comm_r = fr_from_bytes(s.comm_r);
  if (!comm_r) throw std::invalid_argument("comm_r is not a field element (not below r)");
  const bytes32_t rid = replica_id(s.prover_id, s.sector, s.ticket, s.comm_d, c.porep_id);
  partition_inputs_t p;
  p.k = k;
  for (uint64_t node : porep_challenges(c, rid, s.seed, s.comm_r, k)) {
    challenge_t ch;
    ch.node = node;
    g.drg_parents(node, ch.drg);
    g.exp_parents(node, ch.exp);
    p.challenges.push_back(ch);
  }
  p.inputs.reserve(c.public_inputs_per_partition());
  p.inputs.push_back(*fr_from_bytes(rid));  // top bits cleared: always below r
  p.inputs.push_back(*comm_d);
  p.inputs.push_back(*comm_r);
  for (const auto& ch : p.challenges) append_challenge_inputs(ch, p.inputs);
  return p;
}

}  // namespace zk::filecoin
