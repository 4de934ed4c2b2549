#include "zk/filecoin/core/circuit_parts.hpp"

#include <map>
#include <mutex>

namespace zk::filecoin {

using bellperson::counts_t;

counts_t circuit_layout_t::challenge_start(uint32_t j) const {
  return counts_t{prefix.inputs + j * per_challenge.inputs, prefix.aux + j * per_challenge.aux,
                  prefix.constraints + j * per_challenge.constraints};
}

std::string challenge_region_prefix(uint32_t j) { return "challenge " + std::to_string(j) + ": "; }

std::string circuit_parts_t::where(uint64_t i) const {
  const circuit_layout_t& L = layout;
  std::string w;
  if (i >= L.total.constraints)
    return "input constraint " + std::to_string(i - L.total.constraints);
  if (i < L.prefix.constraints) {
    for (const auto& r : prefix_regions)
      if (r.start.constraints <= i) w = r.name;
    return w;
  }
  const uint64_t rel = i - L.prefix.constraints;
  const uint64_t off = rel % L.per_challenge.constraints;
  for (const auto& r : challenge_regions)
    if (r.start.constraints <= off) w = r.name;
  return challenge_region_prefix(uint32_t(rel / L.per_challenge.constraints)) + w;
}

const circuit_parts_t& cached_parts(const std::string& key,
                                    const std::function<circuit_parts_t()>& make) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<circuit_parts_t>> cache;
  std::lock_guard<std::mutex> lk(mu);
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<circuit_parts_t>(make());
  return *slot;
}

std::shared_ptr<const bellperson::r1cs_shape_t> cached_shape(
    const std::string& key, bool matrices,
    const std::function<bellperson::r1cs_shape_t(bool matrices)>& make) {
  static std::mutex mu;
  static std::map<std::pair<std::string, bool>, std::shared_ptr<const bellperson::r1cs_shape_t>>
      cache;
  std::lock_guard<std::mutex> lk(mu);
  auto& slot = cache[{key, matrices}];
  if (slot) return slot;
  if (!matrices) {
    auto it = cache.find({key, true});
    if (it != cache.end() && it->second) return slot = it->second;
  }
  slot = std::make_shared<const bellperson::r1cs_shape_t>(make(matrices));
  return slot;
}

partition_assignment_t::partition_assignment_t(const circuit_layout_t& L) : counts(L.total) {
  inputs.resize(L.total.inputs);
  aux.resize(L.total.aux);
  const size_t rows = size_t(L.total.constraints) + L.total.inputs;
  a.resize(rows);
  b.resize(rows);
  c.resize(rows);
}

bellperson::assignment_view_t partition_assignment_t::view() {
  bellperson::assignment_view_t v;
  v.inputs = inputs.data();
  v.aux = aux.data();
  v.a = a.data();
  v.b = b.data();
  v.c = c.data();
  v.capacity = counts;
  return v;
}

std::optional<uint64_t> first_failing_row(const fr_t* a, const fr_t* b, const fr_t* c, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    if (!(a[i] * b[i] == c[i])) return i;
  return std::nullopt;
}

std::optional<unsatisfied_t> first_unsatisfied(const circuit_parts_t& parts,
                                               const bellperson::assignment_view_t& v) {
  const circuit_layout_t& L = parts.layout;
  const auto i = first_failing_row(v.a, v.b, v.c, uint64_t(L.total.constraints) + L.total.inputs);
  if (!i) return std::nullopt;
  return unsatisfied_t{*i, parts.where(*i)};
}

}  // namespace zk::filecoin
