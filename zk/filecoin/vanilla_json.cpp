#include "zk/filecoin/vanilla_json.hpp"

#include <string>

#include "zk/base/error.hpp"

namespace zk::filecoin {

namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

ojson bytes_json(const bytes32_t& b) {
  ojson a = ojson::array();
  for (uint8_t x : b) a.push_back(x);
  return a;
}

ojson bytes_list(const std::vector<bytes32_t>& v) {
  ojson a = ojson::array();
  for (const bytes32_t& b : v) a.push_back(bytes_json(b));
  return a;
}

ojson path_json(const std::vector<merkle_path_element_t>& path) {
  ojson elems = ojson::array();
  for (const merkle_path_element_t& e : path) {
    ojson o;
    o["hashes"] = bytes_list(e.hashes);
    o["index"] = e.index;
    elems.push_back(std::move(o));
  }
  ojson o;
  o["path"] = std::move(elems);
  return o;
}

ojson labeling_json(const labeling_proof_t& l) {
  ojson o;
  o["parents"] = bytes_list(l.parents);
  o["layer_index"] = l.layer_index;
  o["node"] = l.node;
  return o;
}

ojson column_proof_json(const column_proof_t& c) {
  ojson col;
  col["index"] = c.column.index;
  col["rows"] = bytes_list(c.column.rows);
  col["_h"] = nullptr;
  ojson o;
  o["column"] = std::move(col);
  o["inclusion_proof"] = merkle_proof_to_json(c.inclusion_proof);
  return o;
}

// --- reading ---------------------------------------------------------------------------------

[[noreturn]] void bad(const std::string& what, const std::string& path, const std::string& msg) {
  throw format_error(what + ": " + (path.empty() ? "/" : path) + ": " + msg);
}

const json& field(const json& j, const char* key, const std::string& what,
                  const std::string& path) {
  if (!j.is_object()) bad(what, path, "expected an object");
  auto it = j.find(key);
  if (it == j.end()) bad(what, path, std::string("missing \"") + key + "\"");
  return *it;
}

bytes32_t bytes_from(const json& j, const std::string& what, const std::string& path) {
  if (!j.is_array()) bad(what, path, "expected an array of 32 bytes");
  if (j.size() != 32) bad(what, path, "expected 32 bytes, got " + std::to_string(j.size()));
  bytes32_t b;
  for (size_t i = 0; i < 32; ++i) {
    if (!j[i].is_number_unsigned() || j[i].get<uint64_t>() > 255)
      bad(what, path + "/" + std::to_string(i), "expected a byte (0..255)");
    b[i] = uint8_t(j[i].get<uint64_t>());
  }
  return b;
}

template <class F>
auto list_from(const json& j, const std::string& what, const std::string& path, F f) {
  if (!j.is_array()) bad(what, path, "expected an array");
  std::vector<decltype(f(j, path))> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) out.push_back(f(j[i], path + "/" + std::to_string(i)));
  return out;
}

uint64_t uint_from(const json& j, uint64_t max, const std::string& what, const std::string& path) {
  if (!j.is_number_unsigned() || j.get<uint64_t>() > max)
    bad(what, path, "expected an unsigned integer up to " + std::to_string(max));
  return j.get<uint64_t>();
}

std::vector<bytes32_t> bytes_list_from(const json& j, const std::string& what,
                                       const std::string& path) {
  return list_from(j, what, path,
                   [&](const json& e, const std::string& p) { return bytes_from(e, what, p); });
}

std::vector<merkle_path_element_t> path_from(const json& j, const std::string& what,
                                             const std::string& path) {
  const json& elems = field(j, "path", what, path);
  return list_from(elems, what, path + "/path", [&](const json& e, const std::string& p) {
    merkle_path_element_t el;
    el.hashes = bytes_list_from(field(e, "hashes", what, p), what, p + "/hashes");
    el.index = uint32_t(uint_from(field(e, "index", what, p), 0xffffffffu, what, p + "/index"));
    return el;
  });
}

labeling_proof_t labeling_from(const json& j, const std::string& what, const std::string& path) {
  labeling_proof_t l;
  l.parents = bytes_list_from(field(j, "parents", what, path), what, path + "/parents");
  l.layer_index = uint32_t(
      uint_from(field(j, "layer_index", what, path), 0xffffffffu, what, path + "/layer_index"));
  l.node = uint_from(field(j, "node", what, path), UINT64_MAX, what, path + "/node");
  return l;
}

column_proof_t column_proof_from(const json& j, const std::string& what, const std::string& path) {
  column_proof_t c;
  const std::string cp = path + "/column";
  const json& col = field(j, "column", what, path);
  c.column.index =
      uint32_t(uint_from(field(col, "index", what, cp), 0xffffffffu, what, cp + "/index"));
  c.column.rows = bytes_list_from(field(col, "rows", what, cp), what, cp + "/rows");
  c.inclusion_proof = merkle_proof_from_json(field(j, "inclusion_proof", what, path), what,
                                             path + "/inclusion_proof");
  return c;
}

}  // namespace

ojson merkle_proof_to_json(const merkle_proof_t& p) {
  ojson body;
  const char* variant = "Single";
  if (p.sub_path.empty() && p.top_path.empty()) {
    body["root"] = bytes_json(p.root);
    body["leaf"] = bytes_json(p.leaf);
    body["path"] = path_json(p.base_path);
  } else {
    variant = p.top_path.empty() ? "Sub" : "Top";
    body["base_proof"] = path_json(p.base_path);
    body["sub_proof"] = path_json(p.sub_path);
    if (!p.top_path.empty()) body["top_proof"] = path_json(p.top_path);
    body["root"] = bytes_json(p.root);
    body["leaf"] = bytes_json(p.leaf);
  }
  ojson data;
  data[variant] = std::move(body);
  ojson o;
  o["data"] = std::move(data);
  return o;
}

ojson vanilla_proof_to_json(const vanilla_proof_t& p) {
  ojson o;
  o["comm_d_proofs"] = merkle_proof_to_json(p.comm_d_proofs);
  o["comm_r_last_proof"] = merkle_proof_to_json(p.comm_r_last_proof);
  ojson rc;
  rc["c_x"] = column_proof_json(p.replica_column_proofs.c_x);
  rc["drg_parents"] = ojson::array();
  for (const auto& c : p.replica_column_proofs.drg_parents)
    rc["drg_parents"].push_back(column_proof_json(c));
  rc["exp_parents"] = ojson::array();
  for (const auto& c : p.replica_column_proofs.exp_parents)
    rc["exp_parents"].push_back(column_proof_json(c));
  o["replica_column_proofs"] = std::move(rc);
  o["labeling_proofs"] = ojson::array();
  for (const auto& l : p.labeling_proofs) o["labeling_proofs"].push_back(labeling_json(l));
  o["encoding_proof"] = labeling_json(p.encoding_proof);
  return o;
}

ojson vanilla_partitions_to_json(const vanilla_partitions_t& parts) {
  ojson a = ojson::array();
  for (const auto& part : parts) {
    ojson b = ojson::array();
    for (const auto& p : part) b.push_back(vanilla_proof_to_json(p));
    a.push_back(std::move(b));
  }
  return a;
}

merkle_proof_t merkle_proof_from_json(const json& j, const std::string& what,
                                      const std::string& path) {
  const json& data = field(j, "data", what, path);
  const std::string dp = path + "/data";
  if (!data.is_object() || data.size() != 1) bad(what, dp, "expected one of Single, Sub, Top");
  const std::string variant = data.begin().key();
  const json& body = data.begin().value();
  const std::string bp = dp + "/" + variant;
  if (variant != "Single" && variant != "Sub" && variant != "Top")
    bad(what, dp, "unknown variant \"" + variant + "\" (expected Single, Sub or Top)");
  merkle_proof_t p;
  p.root = bytes_from(field(body, "root", what, bp), what, bp + "/root");
  p.leaf = bytes_from(field(body, "leaf", what, bp), what, bp + "/leaf");
  if (variant == "Single") {
    p.base_path = path_from(field(body, "path", what, bp), what, bp + "/path");
  } else {
    p.base_path = path_from(field(body, "base_proof", what, bp), what, bp + "/base_proof");
    p.sub_path = path_from(field(body, "sub_proof", what, bp), what, bp + "/sub_proof");
    if (variant == "Top")
      p.top_path = path_from(field(body, "top_proof", what, bp), what, bp + "/top_proof");
    if (p.sub_path.size() != 1 || (variant == "Top" && p.top_path.size() != 1))
      bad(what, bp, "a " + variant + " proof has one sub (and top) path element");
  }
  return p;
}

vanilla_proof_t vanilla_proof_from_json(const json& j, const std::string& what,
                                        const std::string& path) {
  vanilla_proof_t p;
  p.comm_d_proofs =
      merkle_proof_from_json(field(j, "comm_d_proofs", what, path), what, path + "/comm_d_proofs");
  p.comm_r_last_proof = merkle_proof_from_json(field(j, "comm_r_last_proof", what, path), what,
                                               path + "/comm_r_last_proof");
  const std::string rp = path + "/replica_column_proofs";
  const json& rc = field(j, "replica_column_proofs", what, path);
  p.replica_column_proofs.c_x = column_proof_from(field(rc, "c_x", what, rp), what, rp + "/c_x");
  auto cols = [&](const char* key) {
    return list_from(
        field(rc, key, what, rp), what, rp + "/" + key,
        [&](const json& e, const std::string& pp) { return column_proof_from(e, what, pp); });
  };
  p.replica_column_proofs.drg_parents = cols("drg_parents");
  p.replica_column_proofs.exp_parents = cols("exp_parents");
  p.labeling_proofs =
      list_from(field(j, "labeling_proofs", what, path), what, path + "/labeling_proofs",
                [&](const json& e, const std::string& pp) { return labeling_from(e, what, pp); });
  p.encoding_proof =
      labeling_from(field(j, "encoding_proof", what, path), what, path + "/encoding_proof");
  return p;
}

vanilla_partitions_t vanilla_partitions_from_json(const json& j, const std::string& what,
                                                  const std::string& path) {
  return list_from(j, what, path, [&](const json& part, const std::string& pp) {
    return list_from(part, what, pp, [&](const json& e, const std::string& ep) {
      return vanilla_proof_from_json(e, what, ep);
    });
  });
}

ojson c1_json(const c1_fields_t& c1) {
  ojson o;
  o["registered_proof"] = std::string(c1.proof->name);
  ojson vp;
  vp[std::string(c1.proof->vanilla_variant)] = vanilla_partitions_to_json(c1.vanilla_proofs);
  o["vanilla_proofs"] = std::move(vp);
  o["comm_r"] = bytes_json(c1.comm_r);
  o["comm_d"] = bytes_json(c1.comm_d);
  o["replica_id"] = bytes_json(c1.replica_id);
  o["seed"] = bytes_json(c1.seed);
  o["ticket"] = bytes_json(c1.ticket);
  return o;
}

c1_fields_t c1_from_json(const json& j, const std::string& what) {
  c1_fields_t c1;
  const json& rp = field(j, "registered_proof", what, "");
  if (!rp.is_string()) bad(what, "/registered_proof", "expected a string");
  try {
    c1.proof = &registered_proof(rp.get<std::string>());
  } catch (const std::invalid_argument& e) {
    bad(what, "/registered_proof", e.what());
  }
  const json& vp = field(j, "vanilla_proofs", what, "");
  const std::string variant(c1.proof->vanilla_variant);
  if (!vp.is_object() || vp.size() != 1 || vp.begin().key() != variant)
    bad(what, "/vanilla_proofs", "expected one key, \"" + variant + "\"");
  c1.vanilla_proofs =
      vanilla_partitions_from_json(vp.begin().value(), what, "/vanilla_proofs/" + variant);
  c1.comm_r = bytes_from(field(j, "comm_r", what, ""), what, "/comm_r");
  c1.comm_d = bytes_from(field(j, "comm_d", what, ""), what, "/comm_d");
  c1.replica_id = bytes_from(field(j, "replica_id", what, ""), what, "/replica_id");
  c1.seed = bytes_from(field(j, "seed", what, ""), what, "/seed");
  c1.ticket = bytes_from(field(j, "ticket", what, ""), what, "/ticket");
  return c1;
}

}  // namespace zk::filecoin
