#include "zk/filecoin/update/public_inputs.hpp"

#include <stdexcept>

namespace zk::filecoin {

uint64_t update_k_and_h_select(const update_config_t& c, uint32_t k) {
  if (k >= c.partitions)
    throw std::invalid_argument("partition " + std::to_string(k) + " of a sector with " +
                                std::to_string(c.partitions) + " partition(s)");
  return uint64_t(k) | (uint64_t(c.h_select) << c.partition_bits);
}

result_t<std::vector<fr_t>> update_public_inputs(const update_config_t& c, uint32_t k,
                                                 const update_commitments_t& comms) {
  std::vector<fr_t> out;
  out.push_back(fr_t::from_u64(update_k_and_h_select(c, k)));
  const std::pair<const bytes32_t*, const char*> fields[] = {{&comms.comm_r_old, "comm_r_old"},
                                                             {&comms.comm_d_new, "comm_d_new"},
                                                             {&comms.comm_r_new, "comm_r_new"}};
  for (const auto& [b, name] : fields) {
    const std::optional<fr_t> x = fr_from_bytes(*b);
    if (!x) return std::string(name) + " is not a field element (not below r)";
    out.push_back(*x);
  }
  return out;
}

}  // namespace zk::filecoin
