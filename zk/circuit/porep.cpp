#include "zk/circuit/porep.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

namespace zk::circuit {
namespace {

void put_be(std::vector<uint8_t>& out, uint64_t v, unsigned bytes) {
  for (unsigned i = bytes; i-- > 0;) out.push_back(uint8_t(v >> (8 * i)));
}
std::vector<uint8_t> tagged(const char* tag, uint64_t seed) {
  std::vector<uint8_t> m(tag, tag + std::char_traits<char>::length(tag));
  put_be(m, seed, 8);
  return m;
}
// The big-endian integer of `bytes` 32 bytes, keeping its low `bits` bits.
template <class Fr>
Fr be_to_field(const uint8_t* bytes, unsigned bits) {
  typename Fr::big_t v{};
  for (unsigned i = 0; i < 32; ++i) {
    unsigned bitpos = 8 * (31 - i);  // of the least significant bit of byte i
    v.l[bitpos / 64] |= uint64_t(bytes[i]) << (bitpos % 64);
  }
  for (unsigned i = bits; i < 256; ++i) v.l[i / 64] &= ~(1ULL << (i % 64));
  return Fr::from_canonical(v);
}
uint64_t parse_u64(const std::string& key, const std::string& v, uint64_t lo, uint64_t hi) {
  size_t used = 0;
  unsigned long long x = 0;
  try {
    x = std::stoull(v, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || v[0] == '-')
    throw std::invalid_argument("--params: " + key + " needs a non-negative integer, got '" + v +
                                "'");
  if (x < lo || x > hi)
    throw std::invalid_argument("--params: " + key + " = " + v + " is out of range [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

}  // namespace

porep_params_t porep_params_t::parse(const std::string& text) {
  porep_params_t p;
  std::set<std::string> seen;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument(
          "--params: '" + item +
          "' is not key=value (keys: curve, partitions, challenges, depth, seed)");
    std::string key = item.substr(0, eq), val = item.substr(eq + 1);
    if (!seen.insert(key).second)
      throw std::invalid_argument("--params: '" + key + "' is given twice");
    if (key == "curve") {
      auto c = parse_curve_name(val);
      if (!c)
        throw std::invalid_argument("--params: curve '" + val + "' is not bn254 or bls12-381");
      p.curve = *c;
    } else if (key == "partitions") {
      p.partitions = uint32_t(parse_u64(key, val, 1, 1u << 20));
    } else if (key == "challenges") {
      p.challenges = uint32_t(parse_u64(key, val, 1, 1u << 20));
    } else if (key == "depth") {
      p.depth = uint32_t(parse_u64(key, val, 1, 32));
    } else if (key == "seed") {
      p.seed = parse_u64(key, val, 0, ~0ULL);
    } else {
      throw std::invalid_argument("--params: unknown key '" + key +
                                  "' (keys: curve, partitions, challenges, depth, seed)");
    }
    start = end + 1;
    if (end == text.size()) break;
  }
  const uint64_t total = uint64_t(p.partitions) * p.challenges;
  if (total > (uint64_t(1) << p.depth))
    throw std::invalid_argument("--params: partitions·challenges = " + std::to_string(total) +
                                " exceeds the 2^depth = " + std::to_string(uint64_t(1) << p.depth) +
                                " leaves");
  if (total >= (uint64_t(1) << 32))
    throw std::invalid_argument("--params: partitions·challenges must be below 2^32");
  // compute_h needs the 2n-th roots of unity: a domain of at most 2^(two-adicity − 1) rows.
  const unsigned max_log = (p.curve == curve_id_t::bn254 ? bn254::fr_params_t::two_adicity
                                                         : bls12_381::fr_params_t::two_adicity) -
                           1;
  const uint64_t rows =
      porep_constraint_mix(p).total + 3 + 1;  // + public inputs (root, replica_id, partition) + one
  if (rows > (uint64_t(1) << max_log))
    throw std::invalid_argument("--params: challenges=" + std::to_string(p.challenges) +
                                ", depth=" + std::to_string(p.depth) + " make " +
                                std::to_string(rows) + " rows per partition, past the 2^" +
                                std::to_string(max_log) + " domain " + curve_name(p.curve) +
                                " proofs can use: fewer challenges per partition");
  return p;
}

std::string porep_params_t::to_string() const {
  return std::string("curve=") + param_name(curve) + ",partitions=" + std::to_string(partitions) +
         ",challenges=" + std::to_string(challenges) + ",depth=" + std::to_string(depth) +
         ",seed=" + std::to_string(seed);
}

std::string porep_params_t::shape_key() const { return "porep-lite:" + shape_params(); }

std::string porep_params_t::shape_params() const {
  return std::string("curve=") + param_name(curve) + ",challenges=" + std::to_string(challenges) +
         ",depth=" + std::to_string(depth);
}

uint64_t porep_params_t::constraints() const { return porep_constraint_mix(*this).total; }

porep_mix_t porep_constraint_mix(const porep_params_t& p) {
  porep_mix_t m{};
  const uint64_t c = p.challenges;
  m.replica_bits = 249;
  m.index_and_data_bits = c * (65 + 65);
  m.sha256 = c * porep_sha256_block_constraints;
  m.leaf_poseidon = c * 243;
  m.merkle = c * (244 * uint64_t(p.depth) + 1);
  m.total = m.replica_bits + m.index_and_data_bits + m.sha256 + m.leaf_poseidon + m.merkle;
  return m;
}

uint64_t porep_params_t::challenge_leaf(uint32_t partition, uint32_t j) const {
  return ((uint64_t(partition) * challenges + j) * porep_challenge_mul) &
         ((uint64_t(1) << depth) - 1);
}

// ---- synthetic replica ---------------------------------------------------------------------

template <class Fr>
porep_data_t<Fr>::porep_data_t(const porep_params_t& p) : p_(p) {
  auto rid = sha256(tagged("zkfleet/porep-lite/replica", p.seed));
  replica_id_ = be_to_field<Fr>(rid.data(), 248);
  for (uint32_t k = 0; k < p.partitions; ++k)
    for (uint32_t j = 0; j < p.challenges; ++j) challenged_.push_back(p.challenge_leaf(k, j));
  std::sort(challenged_.begin(), challenged_.end());
  root_ = node(p.depth, 0);
}

template <class Fr>
uint64_t porep_data_t<Fr>::data(uint64_t leaf) const {
  auto m = tagged("zkfleet/porep-lite/data", p_.seed);
  put_be(m, leaf, 8);
  auto d = sha256(m);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | d[i];
  return v;
}

template <class Fr>
Fr porep_data_t<Fr>::label(uint64_t leaf) const {
  std::vector<uint8_t> m;
  auto rid = replica_id_.to_canonical();
  for (int i = 31; i >= 0; --i) m.push_back(uint8_t(rid.l[i / 8] >> (8 * (i % 8))));
  put_be(m, leaf, 8);
  put_be(m, data(leaf), 8);
  auto d = sha256(m);
  return be_to_field<Fr>(d.data(), 253);
}

template <class Fr>
Fr porep_data_t<Fr>::leaf(uint64_t leaf) const {
  const Fr in[2] = {label(leaf), Fr::from_u64(data(leaf))};
  return poseidon_native(in, 2);
}

template <class Fr>
bool porep_data_t<Fr>::challenged_under(unsigned level, uint64_t index) const {
  const uint64_t lo = index << level, hi = (index + 1) << level;
  auto it = std::lower_bound(challenged_.begin(), challenged_.end(), lo);
  return it != challenged_.end() && *it < hi;
}

template <class Fr>
Fr porep_data_t<Fr>::opaque(unsigned level, uint64_t index) const {
  auto m = tagged("zkfleet/porep-lite/node", p_.seed);
  put_be(m, level, 4);
  put_be(m, index, 8);
  auto d = sha256(m);
  return be_to_field<Fr>(d.data(), 253);
}

template <class Fr>
Fr porep_data_t<Fr>::node(unsigned level, uint64_t index) {
  if (!challenged_under(level, index)) return opaque(level, index);
  auto key = std::make_pair(level, index);
  auto it = nodes_.find(key);
  if (it != nodes_.end()) return it->second;
  Fr v;
  if (level == 0) {
    v = leaf(index);
  } else {
    const Fr in[2] = {node(level - 1, 2 * index), node(level - 1, 2 * index + 1)};
    v = poseidon_native(in, 2);
  }
  nodes_.emplace(key, v);
  return v;
}

template <class Fr>
std::vector<Fr> porep_data_t<Fr>::path(uint64_t leaf) const {
  if (!std::binary_search(challenged_.begin(), challenged_.end(), leaf))
    throw std::invalid_argument("porep-lite: leaf " + std::to_string(leaf) + " is not challenged");
  std::vector<Fr> sib(p_.depth);
  for (unsigned level = 0; level < p_.depth; ++level) {
    const uint64_t s = (leaf >> level) ^ 1;
    if (!challenged_under(level, s)) {
      sib[level] = opaque(level, s);
    } else {
      sib[level] = nodes_.at({level, s});  // built with the root
    }
  }
  return sib;
}

// ---- the circuit ---------------------------------------------------------------------------

template <class CS>
void porep_lite(CS& cs, const porep_data_t<typename CS::fr_t>& data, uint32_t partition) {
  using Fr = typename CS::fr_t;
  using lc_t = lc_of_t<CS>;
  const porep_params_t& p = data.params();
  if (partition >= p.partitions)
    throw std::invalid_argument("porep-lite: partition " + std::to_string(partition) +
                                " is not below partitions = " + std::to_string(p.partitions));
  const lc_t root = cs.alloc_public(data.root());
  const lc_t rid = cs.alloc_public(data.replica_id());
  const lc_t part = cs.alloc_public(Fr::from_u64(partition));

  // SHA-256 message, stream order: replica_id (256 bits BE) ‖ leaf index (64 BE) ‖ data (64 BE).
  std::array<lc_t, 384> msg;
  std::array<lc_t, 248> rid_bits;
  to_bits(cs, rid, 248, rid_bits.data());
  for (unsigned s = 0; s < 256; ++s) msg[s] = s < 8 ? lc_t{} : rid_bits[255 - s];

  std::array<lc_t, 64> idx_bits, data_bits;
  std::array<lc_t, 256> digest;
  const Fr ck = Fr::from_u64(uint64_t(p.challenges) * porep_challenge_mul);
  for (uint32_t j = 0; j < p.challenges; ++j) {
    const uint64_t leaf_index = p.challenge_leaf(partition, j);
    // (k·C + j)·K = k·(C·K) + j·K
    to_bits(cs, part * ck + cs.constant(Fr::from_u64(uint64_t(j) * porep_challenge_mul)), 64,
            idx_bits.data());
    const uint64_t d = data.data(leaf_index);
    const lc_t dw = cs.alloc(Fr::from_u64(d));
    to_bits(cs, dw, 64, data_bits.data());
    for (unsigned s = 0; s < 64; ++s) {
      const unsigned bit = 63 - s;
      msg[256 + s] = bit < p.depth ? idx_bits[bit] : lc_t{};
      msg[320 + s] = data_bits[bit];
    }
    sha256_bits(cs, msg.data(), msg.size(), digest.data());
    lc_t label{};
    for (unsigned i = 0; i < 253; ++i) label += digest[255 - i] * pow2<Fr>(i);
    const lc_t leaf = poseidon2(cs, label, dw);
    const std::vector<Fr> path = data.path(leaf_index);
    std::array<lc_t, 32> sib;
    for (unsigned level = 0; level < p.depth; ++level) sib[level] = cs.alloc(path[level]);
    merkle_verify(cs, root, leaf, idx_bits.data(), sib.data(), p.depth);
  }
}

template class porep_data_t<bn254::fr_t>;
template class porep_data_t<bls12_381::fr_t>;
template void porep_lite(shape_cs_t<bn254::fr_t>&, const porep_data_t<bn254::fr_t>&, uint32_t);
template void porep_lite(shape_cs_t<bls12_381::fr_t>&, const porep_data_t<bls12_381::fr_t>&,
                         uint32_t);
template void porep_lite(prove_cs_t<bn254::fr_t>&, const porep_data_t<bn254::fr_t>&, uint32_t);
template void porep_lite(prove_cs_t<bls12_381::fr_t>&, const porep_data_t<bls12_381::fr_t>&,
                         uint32_t);

}  // namespace zk::circuit
