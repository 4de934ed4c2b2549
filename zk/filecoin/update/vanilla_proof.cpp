#include "zk/filecoin/update/vanilla_proof.hpp"

#include <nlohmann/json.hpp>

#include "zk/base/base64.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/le_bytes.hpp"

namespace zk::filecoin {

namespace {

// bincode sizes.
constexpr uint64_t len_size = 8, variant_size = 4, domain_size = 32;

uint64_t path_size(uint64_t elements, uint32_t arity) {
  return len_size + elements * (len_size + (arity - 1) * domain_size + len_size);
}

uint64_t merkle_proof_size(const merkle_shape_t& s) {
  uint64_t n = variant_size + 2 * domain_size + path_size(s.base_levels, s.base_arity);
  if (s.sub_arity) n += path_size(1, s.sub_arity);
  if (s.top_arity) n += path_size(1, s.top_arity);
  return n;
}

merkle_kind_t kind_of(const merkle_shape_t& s) {
  return s.top_arity   ? merkle_kind_t::top
         : s.sub_arity ? merkle_kind_t::sub
                       : merkle_kind_t::single;
}

const char* kind_name(merkle_kind_t k) {
  return k == merkle_kind_t::single ? "Single (0)"
         : k == merkle_kind_t::sub  ? "Sub (1)"
                                    : "Top (2)";
}

// A bounded reader over one buffer: every read names its field and offset on failure.
class reader_t {
 public:
  reader_t(const uint8_t* data, uint64_t n, std::string_view file, uint32_t partition)
      : data_(data), n_(n), file_(file), partition_(partition) {}

  uint64_t offset() const { return at_; }
  uint64_t left() const { return n_ - at_; }

  [[noreturn]] void fail(const std::string& field, uint64_t offset, const std::string& why) const {
    throw_file_error(file_, "partition " + std::to_string(partition_) + ": " + field + " (offset " +
                                hex(offset) + "): " + why);
  }
  void need(const std::string& field, uint64_t bytes) const {
    if (left() < bytes)
      fail(field, at_,
           "truncated: needs " + std::to_string(bytes) + " bytes, " + std::to_string(left()) +
               " left");
  }
  uint64_t u64(const std::string& field) {
    need(field, 8);
    const uint64_t v = le_get<uint64_t>(data_, size_t(at_));
    at_ += 8;
    return v;
  }
  uint32_t u32(const std::string& field) {
    need(field, 4);
    const uint32_t v = le_get<uint32_t>(data_, size_t(at_));
    at_ += 4;
    return v;
  }
  domain_t domain(const std::string& field) {
    need(field, domain_size);
    domain_t d;
    std::copy(data_ + at_, data_ + at_ + domain_size, d.begin());
    at_ += domain_size;
    return d;
  }
  // A u64 length that must be exactly `want` (checked before anything is allocated).
  uint64_t length(const std::string& field, uint64_t want) {
    const uint64_t at = at_;
    const uint64_t v = u64(field + " length");
    if (v != want)
      fail(field, at, "length " + std::to_string(v) + ", expected " + std::to_string(want));
    return v;
  }

  inclusion_path_t path(const std::string& field, uint64_t elements, uint32_t arity) {
    length(field, elements);
    inclusion_path_t out(elements);
    for (uint64_t e = 0; e < elements; ++e) {
      const std::string f = field + "[" + std::to_string(e) + "]";
      length(f + ".hashes", arity - 1);
      out[e].hashes.resize(arity - 1);
      for (uint32_t h = 0; h < arity - 1; ++h)
        out[e].hashes[h] = domain(f + ".hashes[" + std::to_string(h) + "]");
      const uint64_t at = at_;
      out[e].index = u64(f + ".index");
      if (out[e].index >= arity)
        fail(f + ".index", at,
             "index " + std::to_string(out[e].index) + " is not below the arity " +
                 std::to_string(arity));
    }
    return out;
  }

  merkle_proof_t merkle(const std::string& field, const merkle_shape_t& s) {
    merkle_proof_t p;
    const uint64_t at = at_;
    const uint32_t variant = u32(field + " variant");
    const merkle_kind_t want = kind_of(s);
    if (variant > 2)
      fail(field, at, "variant " + std::to_string(variant) + " is none of Single, Sub, Top");
    p.kind = merkle_kind_t(variant);
    if (p.kind != want)
      fail(
          field, at,
          std::string("variant ") + kind_name(p.kind) + " where the tree needs " + kind_name(want));
    if (p.kind == merkle_kind_t::single) {
      p.root = domain(field + ".root");
      p.leaf = domain(field + ".leaf");
      p.base = path(field + ".path", s.base_levels, s.base_arity);
      return p;
    }
    p.base = path(field + ".base_proof", s.base_levels, s.base_arity);
    p.sub = path(field + ".sub_proof", 1, s.sub_arity);
    if (p.kind == merkle_kind_t::top) p.top = path(field + ".top_proof", 1, s.top_arity);
    p.root = domain(field + ".root");
    p.leaf = domain(field + ".leaf");
    return p;
  }

 private:
  const uint8_t* data_;
  uint64_t n_;
  std::string_view file_;
  uint32_t partition_;
  uint64_t at_ = 0;
};

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put_domain(std::vector<uint8_t>& out, const domain_t& d) {
  out.insert(out.end(), d.begin(), d.end());
}
void put_path(std::vector<uint8_t>& out, const inclusion_path_t& p) {
  put_u64(out, p.size());
  for (const path_element_t& e : p) {
    put_u64(out, e.hashes.size());
    for (const domain_t& h : e.hashes) put_domain(out, h);
    put_u64(out, e.index);
  }
}
void put_merkle(std::vector<uint8_t>& out, const merkle_proof_t& p) {
  put_u32(out, uint32_t(p.kind));
  if (p.kind == merkle_kind_t::single) {
    put_domain(out, p.root);
    put_domain(out, p.leaf);
    put_path(out, p.base);
    return;
  }
  put_path(out, p.base);
  put_path(out, p.sub);
  if (p.kind == merkle_kind_t::top) put_path(out, p.top);
  put_domain(out, p.root);
  put_domain(out, p.leaf);
}

// One partition from the reader's position; leaves the reader after it.
update_partition_proof_t read_partition(reader_t& r, const update_config_t& c) {
  const merkle_shape_t sr = update_tree_r_shape(c), sd = update_tree_d_shape(c);
  update_partition_proof_t p;
  p.comm_c = r.domain("comm_c");
  r.length("apex_leafs", c.apex_leaves);
  p.apex_leafs.resize(c.apex_leaves);
  for (uint32_t i = 0; i < c.apex_leaves; ++i)
    p.apex_leafs[i] = r.domain("apex_leafs[" + std::to_string(i) + "]");
  r.length("challenge_proofs", c.challenges);
  p.challenge_proofs.resize(c.challenges);
  for (uint32_t i = 0; i < c.challenges; ++i) {
    const std::string f = "challenge_proofs[" + std::to_string(i) + "]";
    update_challenge_proof_t& q = p.challenge_proofs[i];
    q.proof_r_old = r.merkle(f + ".proof_r_old", sr);
    q.proof_d_new = r.merkle(f + ".proof_d_new", sd);
    q.proof_r_new = r.merkle(f + ".proof_r_new", sr);
  }
  return p;
}

}  // namespace

merkle_shape_t update_tree_r_shape(const update_config_t& c) {
  return merkle_shape(merkle_hasher_t::poseidon, c.shape, c.nodes);
}
merkle_shape_t update_tree_d_shape(const update_config_t& c) {
  return merkle_shape(merkle_hasher_t::sha256, c.shape, c.nodes);
}

uint64_t update_partition_proof_size(const update_config_t& c) {
  const uint64_t challenge =
      2 * merkle_proof_size(update_tree_r_shape(c)) + merkle_proof_size(update_tree_d_shape(c));
  return domain_size + len_size + c.apex_leaves * domain_size + len_size + c.challenges * challenge;
}

update_partition_proof_t decode_update_partition_proof(const uint8_t* data, uint64_t n,
                                                       const update_config_t& c,
                                                       std::string_view file, uint32_t partition) {
  reader_t r(data, n, file, partition);
  update_partition_proof_t p = read_partition(r, c);
  if (r.left() != 0)
    r.fail("end", r.offset(),
           std::to_string(r.left()) + " bytes after the proof's " + std::to_string(r.offset()));
  return p;
}

std::vector<uint8_t> encode_update_partition_proof(const update_partition_proof_t& p) {
  std::vector<uint8_t> out;
  put_domain(out, p.comm_c);
  put_u64(out, p.apex_leafs.size());
  for (const domain_t& d : p.apex_leafs) put_domain(out, d);
  put_u64(out, p.challenge_proofs.size());
  for (const update_challenge_proof_t& q : p.challenge_proofs) {
    put_merkle(out, q.proof_r_old);
    put_merkle(out, q.proof_d_new);
    put_merkle(out, q.proof_r_new);
  }
  return out;
}

std::vector<std::vector<uint8_t>> parse_snap_vproof_json(std::string_view text,
                                                         std::string_view file) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw_file_error(file, std::string("not JSON: ") + e.what());
  }
  if (!j.is_array()) throw_file_error(file, "not a JSON list of base64 strings (one a partition)");
  std::vector<std::vector<uint8_t>> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string what = "element " + std::to_string(i);
    if (!j[i].is_string()) throw_file_error(file, what + ": not a string (base64 bytes)");
    const std::optional<std::string> bytes = base64_decode(j[i].get_ref<const std::string&>());
    if (!bytes) throw_file_error(file, what + ": not standard padded base64");
    out.emplace_back(bytes->begin(), bytes->end());
  }
  return out;
}

std::string snap_vproof_json(const std::vector<std::vector<uint8_t>>& partitions) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : partitions) j.push_back(base64_encode(p.data(), p.size()));
  return j.dump();
}

std::vector<update_partition_proof_t> read_update_vanilla_file(const std::string& path,
                                                               const update_config_t& c) {
  const std::string text = read_text(path);
  std::vector<update_partition_proof_t> out;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '[') {
    const std::vector<std::vector<uint8_t>> parts = parse_snap_vproof_json(text, path);
    if (parts.size() != c.partitions)
      throw_file_error(path, std::to_string(parts.size()) + " partition proofs, the sector has " +
                                 std::to_string(c.partitions));
    for (uint32_t k = 0; k < c.partitions; ++k)
      out.push_back(decode_update_partition_proof(parts[k].data(), parts[k].size(), c, path, k));
    return out;
  }
  const uint64_t one = update_partition_proof_size(c);
  if (text.size() != one * c.partitions)
    throw_file_error(path, std::to_string(text.size()) + " bytes; " + std::to_string(c.partitions) +
                               " partition proof(s) of " + std::to_string(one) + " bytes are " +
                               std::to_string(one * c.partitions));
  const auto* data = reinterpret_cast<const uint8_t*>(text.data());
  for (uint32_t k = 0; k < c.partitions; ++k)
    out.push_back(decode_update_partition_proof(data + k * one, one, c, path, k));
  return out;
}

}  // namespace zk::filecoin
