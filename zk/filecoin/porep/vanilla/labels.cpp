#include "zk/filecoin/porep/vanilla/labels.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/core/hashers.hpp"

namespace zk::filecoin {

namespace {

// The message is 64 + 37·32 = 1,248 bytes = 9,984 bits (0x2700).
constexpr uint64_t label_message_bits = (64 + 32 * label_parents) * 8;
// How many nodes ahead the parents' labels are prefetched.
constexpr uint64_t prefetch_distance = 8;

void header_block(uint8_t block[64], const bytes32_t& replica_id, uint32_t layer, uint64_t node) {
  std::memcpy(block, replica_id.data(), 32);
  for (int i = 0; i < 4; ++i) block[32 + i] = uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) block[36 + i] = uint8_t(node >> (56 - 8 * i));
  std::memset(block + 44, 0, 20);
}

// The last block: one 32-byte parent, 0x80, zeros, the bit length (big-endian) at the end.
void final_block(uint8_t block[64], const uint8_t* parent) {
  std::memcpy(block, parent, 32);
  std::memset(block + 32, 0, 32);
  block[32] = 0x80;
  for (int i = 0; i < 8; ++i) block[56 + i] = uint8_t(label_message_bits >> (56 - 8 * i));
}

bytes32_t finish(uint32_t st[8]) {
  bytes32_t out = sha256_state_bytes(st);
  trim_to_fr32(out);
  return out;
}

// Node 0: the header alone, standard padding (a 512-bit message).
bytes32_t label_node0(const bytes32_t& replica_id, uint32_t layer) {
  alignas(16) uint8_t blocks[128] = {};
  header_block(blocks, replica_id, layer, 0);
  blocks[64] = 0x80;
  blocks[126] = 0x02;  // 512 bits
  uint32_t st[8];
  std::memcpy(st, sha256_iv, sizeof st);
  sha256_compress(st, blocks, 2);
  return finish(st);
}

// A label from its distinct parents p (6 in layer 1, 14 later), laid out contiguously.
bytes32_t label_from_distinct(const bytes32_t& replica_id, uint32_t layer, uint64_t node,
                              const uint8_t* p, unsigned distinct) {
  alignas(16) uint8_t block[64];
  uint32_t st[8];
  std::memcpy(st, sha256_iv, sizeof st);
  header_block(block, replica_id, layer, node);
  sha256_compress(st, block, 1);
  if (distinct == drg_degree) {
    // 6 × (P0..P5) = 18 blocks, then P0 in the final block.
    for (int r = 0; r < 6; ++r) sha256_compress(st, p, 3);
    final_block(block, p);
  } else {
    // (P0..P13) twice = 14 blocks, P0..P7 = 4 blocks, then P8 in the final block.
    sha256_compress(st, p, 7);
    sha256_compress(st, p, 7);
    sha256_compress(st, p, 4);
    final_block(block, p + 8 * 32);
  }
  sha256_compress(st, block, 1);
  return finish(st);
}

}  // namespace

parent_table_t::parent_table_t(const graph_t& g) : nodes_(g.nodes()), p_(g.nodes() * graph_degree) {
  parallel_for(nodes_, [&](size_t b, size_t e) {
    for (size_t v = b; v < e; ++v) g.parents(v, &p_[v * graph_degree]);
  });
}

namespace {

constexpr char cache_magic[8] = {'Z', 'K', 'F', 'C', 'P', 'A', 'R', '1'};
constexpr size_t cache_header = 96;

// What fixes the graph: nodes, the ApiVersion, and the seeds derived from porep_id.
std::vector<uint8_t> cache_header_bytes(const graph_t& g) {
  std::vector<uint8_t> h(cache_header, 0);
  std::memcpy(h.data(), cache_magic, 8);
  for (int i = 0; i < 8; ++i) h[8 + i] = uint8_t(g.nodes() >> (8 * i));
  h[16] = uint8_t(g.api_version());
  std::memcpy(h.data() + 24, g.drg_seed().data(), 28);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 8; ++i) h[56 + 8 * k + i] = uint8_t(g.feistel_keys()[k] >> (8 * i));
  return h;
}

}  // namespace

parent_table_t parent_table_t::cached(const graph_t& g, const std::string& dir, bool* loaded) {
  if (loaded) *loaded = false;
  const std::vector<uint8_t> header = cache_header_bytes(g);
  const bytes32_t id = sha256(header.data(), header.size());
  const std::string path =
      dir + "/parents-" + std::to_string(g.nodes()) + "-" + to_hex(id.data(), 16) + ".bin";
  const uint64_t body = g.nodes() * graph_degree * 4;
  {
    std::ifstream f(path, std::ios::binary);
    std::error_code ec;
    if (f && std::filesystem::file_size(path, ec) == cache_header + body + 32 && !ec) {
      std::vector<uint8_t> head(cache_header);
      std::vector<uint32_t> p(g.nodes() * graph_degree);
      bytes32_t digest{};
      f.read(reinterpret_cast<char*>(head.data()), std::streamsize(cache_header));
      f.read(reinterpret_cast<char*>(p.data()), std::streamsize(body));
      f.read(reinterpret_cast<char*>(digest.data()), 32);
      if (f && head == header) {
        sha256_t h;
        h.update(head.data(), head.size()).update(p.data(), body);
        if (h.finalize() == digest) {
          if (loaded) *loaded = true;
          return parent_table_t(g.nodes(), std::move(p));
        }
      }
    }
  }
  parent_table_t t(g);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string tmp = path + ".tmp" + std::to_string(uintptr_t(&t));
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    sha256_t h;
    h.update(header.data(), header.size()).update(t.p_.data(), body);
    const bytes32_t digest = h.finalize();
    f.write(reinterpret_cast<const char*>(header.data()), std::streamsize(header.size()));
    f.write(reinterpret_cast<const char*>(t.p_.data()), std::streamsize(body));
    f.write(reinterpret_cast<const char*>(digest.data()), 32);
    if (!f) {
      std::remove(tmp.c_str());
      return t;  // no cache this time: the table itself is fine
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::remove(tmp.c_str());
  return t;
}

void sdr_label_parents(const parent_table_t& parents, uint32_t layer, uint64_t node,
                       const bytes32_t* cur, const bytes32_t* prev, bytes32_t out[label_parents]) {
  const uint32_t* ps = parents[node];
  for (unsigned i = 0; i < label_parents; ++i) {
    const label_parent_t from = label_parent(layer, i);
    out[i] = (from.layer == layer ? cur : prev)[ps[from.slot]];
  }
}

void sdr_label_layer(const parent_table_t& parents, const bytes32_t& replica_id, uint32_t layer,
                     const bytes32_t* prev, bytes32_t* out) {
  if (layer == 0) throw std::invalid_argument("SDR layers are numbered from 1");
  if (layer > 1 && prev == nullptr)
    throw std::invalid_argument("SDR layer " + std::to_string(layer) +
                                " needs the labels of layer " + std::to_string(layer - 1));
  const uint64_t n = parents.nodes();
  const unsigned distinct = layer == 1 ? drg_degree : graph_degree;
  out[0] = label_node0(replica_id, layer);
  alignas(16) uint8_t gathered[graph_degree * 32];
  for (uint64_t v = 1; v < n; ++v) {
    if (v + prefetch_distance < n) {
      const uint32_t* ahead = parents[v + prefetch_distance];
      for (unsigned k = 0; k < drg_degree; ++k) __builtin_prefetch(&out[ahead[k]]);
      if (layer > 1)
        for (unsigned k = drg_degree; k < graph_degree; ++k) __builtin_prefetch(&prev[ahead[k]]);
    }
    const uint32_t* ps = parents[v];
    for (unsigned k = 0; k < distinct; ++k)
      std::memcpy(gathered + 32 * k, (k < drg_degree ? out[ps[k]] : prev[ps[k]]).data(), 32);
    out[v] = label_from_distinct(replica_id, layer, v, gathered, distinct);
  }
}

std::vector<std::vector<bytes32_t>> sdr_labels(const graph_t& g, const bytes32_t& replica_id,
                                               uint32_t layers) {
  const parent_table_t parents(g);
  std::vector<std::vector<bytes32_t>> out;
  for (uint32_t l = 1; l <= layers; ++l) {
    out.emplace_back(g.nodes());
    sdr_label_layer(parents, replica_id, l, l > 1 ? out[l - 2].data() : nullptr, out.back().data());
  }
  return out;
}

bytes32_t sdr_label_from_parents(const bytes32_t& replica_id, uint32_t layer, uint64_t node,
                                 const bytes32_t* parents, size_t count) {
  alignas(16) uint8_t hdr[64];
  header_block(hdr, replica_id, layer, node);
  sha256_t h;
  h.update(hdr, 64);
  for (size_t i = 0; i < count; ++i) h.update(parents[i].data(), 32);
  bytes32_t out = h.finalize();
  trim_to_fr32(out);
  return out;
}

}  // namespace zk::filecoin
