// SnapDeals formats and checks (zk/filecoin/update, zk/filecoin/api/registry's update proofs,
// zk/filecoin/api/verify_update) against values Filecoin's own 19.1.0 code produced
// (tests/fixtures/filecoin/snap-2k, snap-8m: golden.txt is that code's log) and the vectors of
// storage-proofs-update's own tests.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/update_input.hpp"
#include "zk/filecoin/api/verify_update.hpp"
#include "zk/filecoin/update/config.hpp"
#include "zk/filecoin/update/public_inputs.hpp"
#include "zk/filecoin/update/vanilla.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::parse_hex32;
using zk::to_hex;

namespace {

std::string fixture(const std::string& name) {
  return std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/" + name;
}

std::vector<uint8_t> fixture_bytes(const std::string& name) {
  const std::string t = zk::read_text(fixture(name));
  return std::vector<uint8_t>(t.begin(), t.end());
}

// The value after "key=" in a golden.txt (up to the next space or the end of the line).
std::string golden(const std::string& file, const std::string& key) {
  const std::string t = zk::read_text(fixture(file));
  size_t at = 0;
  while ((at = t.find(key + "=", at)) != std::string::npos) {
    if (at == 0 || t[at - 1] == '\n' || t[at - 1] == ' ') break;
    ++at;
  }
  REQUIRE_MESSAGE(at != std::string::npos, key << " not in " << file);
  at += key.size() + 1;
  return t.substr(at, t.find_first_of(" \n", at) - at);
}

bytes32_t golden32(const std::string& file, const std::string& key) {
  return parse_hex32(golden(file, key), key);
}

// "[a, b, c]" of numbers.
std::vector<uint64_t> golden_list(const std::string& file, const std::string& key) {
  const std::string t = zk::read_text(fixture(file));
  size_t at = t.find(key + "=[");
  REQUIRE(at != std::string::npos);
  at += key.size() + 2;
  std::vector<uint64_t> out;
  const std::string body = t.substr(at, t.find(']', at) - at);
  size_t p = 0;
  while (p < body.size()) {
    const size_t e = body.find(',', p);
    out.push_back(std::stoull(body.substr(p, e == std::string::npos ? std::string::npos : e - p)));
    if (e == std::string::npos) break;
    p = e + 1;
  }
  return out;
}

fr_t fr_of(const bytes32_t& b) {
  const auto x = fr_from_bytes(b);
  REQUIRE(x);
  return *x;
}

update_commitments_t comms_2k() {
  return {golden32("snap-2k/golden.txt", "comm_r_old"),
          golden32("snap-2k/golden.txt", "comm_d_new"),
          golden32("snap-2k/golden.txt", "comm_r_new")};
}
update_commitments_t comms_8m() {
  return {golden32("snap-8m/golden.txt", "comm_r_old"),
          golden32("snap-8m/golden.txt", "comm_d_new"),
          golden32("snap-8m/golden.txt", "comm_r_new")};
}

// decode's message on `bytes`, or "" when it decodes.
std::string refusal(const std::vector<uint8_t>& bytes, const update_config_t& c) {
  try {
    decode_update_partition_proof(bytes.data(), bytes.size(), c, "v.bin", 0);
  } catch (const zk::format_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// --- registry and configuration -----------------------------------------------------------------

TEST_CASE("update registry: RegisteredUpdateProof names and numbers") {
  const auto& all = registered_update_proofs();
  REQUIRE(all.size() == 5);
  const char* names[] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                         "StackedDrg32GiBV1", "StackedDrg64GiBV1"};
  const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(all[i].name == names[i]);
    CHECK(all[i].id == i);
    CHECK(all[i].sector_size == sizes[i]);
    CHECK(all[i].api_version == api_version_t::v1_1_0);
    CHECK(&registered_update_proof(names[i]) == &all[i]);
    CHECK(&registered_update_proof_by_id(i) == &all[i]);
  }
  CHECK_THROWS_WITH_AS(registered_update_proof("StackedDrg2KiBV1_1"),
                       doctest::Contains("unknown registered update proof 'StackedDrg2KiBV1_1'"),
                       std::invalid_argument);
  CHECK_THROWS_AS(registered_update_proof_by_id(5), std::invalid_argument);
}

TEST_CASE("update config: partitions, challenges, h, h_select, apex leaves, TreeR per size") {
  struct row_t {
    const char* name;
    uint32_t partitions, challenges, apex, h, h_select;
    tree_shape_t shape;
    uint64_t vanilla_bytes;
  };
  // storage-proofs-update constants.rs; vanilla sizes: 2 KiB and 8 MiB measured from Filecoin's
  // own proofs (the fixtures), the others computed from the same layout.
  const row_t rows[] = {
      {"StackedDrg2KiBV1", 1, 10, 8, 1, 1, {8, 0, 0}, 15064},
      {"StackedDrg8MiBV1", 4, 10, 128, 10, 8, {8, 0, 0}, 43864},
      {"StackedDrg512MiBV1", 16, 86, 128, 10, 8, {8, 0, 0}, 453064},
      {"StackedDrg32GiBV1", 16, 86, 128, 10, 8, {8, 8, 0}, 561768},
      {"StackedDrg64GiBV1", 16, 86, 128, 10, 8, {8, 8, 2}, 575528},
  };
  for (const row_t& r : rows) {
    CAPTURE(r.name);
    const update_config_t c = update_config(registered_update_proof(r.name));
    CHECK(c.partitions == r.partitions);
    CHECK(c.challenges == r.challenges);
    CHECK(c.apex_leaves == r.apex);
    CHECK(c.h == r.h);
    CHECK(c.h_select == r.h_select);
    CHECK(c.shape == r.shape);
    CHECK(update_partition_proof_size(c) == r.vanilla_bytes);
    CHECK(c.proof_bytes() == 192ull * r.partitions);
  }
  // The 2 KiB trap: all six hs are 1, so h = 1 is found at index 0.
  CHECK(update_h_select(64, 1) == 1);
  CHECK(update_h_select(1 << 18, 10) == 8);
  CHECK(update_h_select(1 << 18, 7) == 1);
  CHECK_THROWS_AS(update_h_select(1 << 18, 1), std::invalid_argument);
  CHECK_THROWS_WITH_AS(update_config_for_size(4ull << 30), doctest::Contains("4294967296 bytes"),
                       std::invalid_argument);
}

TEST_CASE("update config: parameter file ids as filecoin-proofs' parameters.json names them") {
  // filecoin-proofs 19.1.0 parameters.json (v28-empty-sector-update-…): the stems of the five
  // registered sizes.
  const std::pair<const char*, const char*> ids[] = {
      {"StackedDrg2KiBV1",
       "empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
       "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
      {"StackedDrg8MiBV1",
       "empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
       "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
      {"StackedDrg512MiBV1",
       "empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
       "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
      {"StackedDrg32GiBV1",
       "empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
       "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
      {"StackedDrg64GiBV1",
       "empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
       "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
  };
  for (const auto& [name, id] : ids) {
    CAPTURE(name);
    CHECK(update_config(registered_update_proof(name)).parameter_id() == id);
  }
  CHECK(update_config(registered_update_proof("StackedDrg2KiBV1")).identifier() ==
        "empty_sector_update::PublicParams{ sector_nodes: 64 }");
}

// --- public inputs
// --------------------------------------------------------------------------------

TEST_CASE("update public inputs: 2 KiB as get_sector_update_inputs (k_and_h_select = 1)") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  CHECK(update_k_and_h_select(c, 0) == 1);  // not 8: h_select is 1 at 2 KiB
  const auto in = update_public_inputs(c, 0, comms_2k());
  REQUIRE(in);
  REQUIRE(in->size() == 4);
  // golden.txt: get_sector_update_inputs = [["0100…", comm_r_old, comm_d_new, comm_r_new]].
  CHECK(to_hex(fr_to_bytes((*in)[0])) ==
        "0100000000000000000000000000000000000000000000000000000000000000");
  CHECK(zk::read_text(fixture("snap-2k/golden.txt"))
            .find("get_sector_update_inputs = [[\"" + to_hex(fr_to_bytes((*in)[0])) + "\", \"" +
                  to_hex(fr_to_bytes((*in)[1])) + "\", \"" + to_hex(fr_to_bytes((*in)[2])) +
                  "\", \"" + to_hex(fr_to_bytes((*in)[3])) + "\"]]") != std::string::npos);
  CHECK_THROWS_AS(update_k_and_h_select(c, 1), std::invalid_argument);
}

TEST_CASE("update public inputs: 8 MiB partitions 0 and 3 (0x20 + k), the larger sizes 0x80 + k") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg8MiBV1"));
  const std::string g = zk::read_text(fixture("snap-8m/golden.txt"));
  for (uint32_t k : {0u, 3u}) {
    const auto in = update_public_inputs(c, k, comms_8m());
    REQUIRE(in);
    CHECK(update_k_and_h_select(c, k) == 0x20 + k);
    std::string line = "circuit public inputs (k=" + std::to_string(k) + ") = [";
    for (size_t i = 0; i < 4; ++i)
      line += std::string(i ? ", \"" : "\"") + to_hex(fr_to_bytes((*in)[i])) + "\"";
    CHECK_MESSAGE(g.find(line + "]") != std::string::npos, line);
  }
  for (const char* name : {"StackedDrg512MiBV1", "StackedDrg32GiBV1", "StackedDrg64GiBV1"}) {
    const update_config_t b = update_config(registered_update_proof(name));
    CHECK(update_k_and_h_select(b, 0) == 0x80);
    CHECK(update_k_and_h_select(b, 15) == 0x8f);
  }
}

TEST_CASE("update public inputs: a commitment not below r is refused by name") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  update_commitments_t bad = comms_2k();
  bad.comm_d_new.fill(0xff);
  const auto in = update_public_inputs(c, 0, bad);
  REQUIRE_FALSE(in);
  CHECK(in.error() == "comm_d_new is not a field element (not below r)");
}

// --- the vanilla proof's bytes
// ----------------------------------------------------------------------

TEST_CASE("update vanilla bytes: Filecoin's 2 KiB partition decodes and re-encodes byte for byte") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const std::vector<uint8_t> raw = fixture_bytes("snap-2k/vanilla-0.bin");
  REQUIRE(raw.size() == 15064);
  const update_partition_proof_t p =
      decode_update_partition_proof(raw.data(), raw.size(), c, "vanilla-0.bin", 0);
  CHECK(to_hex(p.comm_c) == "38054c74432c7ee717a63c2f3bb8e1528df2b9e082c0ccf28b0e8e943e314033");
  REQUIRE(p.apex_leafs.size() == 8);
  REQUIRE(p.challenge_proofs.size() == 10);
  const update_challenge_proof_t& q = p.challenge_proofs[0];
  CHECK(q.proof_r_old.kind == merkle_kind_t::single);
  REQUIRE(q.proof_r_old.base.size() == 2);
  CHECK(q.proof_r_old.base[0].index == 6);
  CHECK(q.proof_r_old.base[1].index == 3);
  CHECK(merkle_path_index(q.proof_r_old) == 30);  // challenge 0 of golden.txt
  CHECK(merkle_path_index(q.proof_d_new) == 30);
  CHECK(q.proof_d_new.base.size() == 6);
  CHECK(encode_update_partition_proof(p) == raw);

  // Curio's snap-vproof.json holds the same bytes.
  const std::vector<std::vector<uint8_t>> parts = parse_snap_vproof_json(
      zk::read_text(fixture("snap-2k/snap-vproof.json")), "snap-vproof.json");
  REQUIRE(parts.size() == 1);
  CHECK(parts[0] == raw);
  CHECK(parse_snap_vproof_json(snap_vproof_json(parts), "x") == parts);
  CHECK(snap_vproof_json(parts) == zk::read_text(fixture("snap-2k/snap-vproof.json")));
  const auto both = read_update_vanilla_file(fixture("snap-2k/snap-vproof.json"), c);
  REQUIRE(both.size() == 1);
  CHECK(encode_update_partition_proof(both[0]) == raw);
  CHECK(encode_update_partition_proof(
            read_update_vanilla_file(fixture("snap-2k/vanilla-0.bin"), c)[0]) == raw);
}

TEST_CASE("update vanilla bytes: an 8 MiB partition round-trips") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg8MiBV1"));
  const std::vector<uint8_t> raw = fixture_bytes("snap-8m/vanilla-1.bin");
  const update_partition_proof_t p =
      decode_update_partition_proof(raw.data(), raw.size(), c, "vanilla-1.bin", 1);
  CHECK(p.apex_leafs.size() == 128);
  CHECK(p.challenge_proofs[0].proof_r_new.base.size() == 6);
  CHECK(p.challenge_proofs[0].proof_d_new.base.size() == 18);
  CHECK(encode_update_partition_proof(p) == raw);
  // As 2 KiB it is the wrong structure, named where it first differs.
  const update_config_t two = update_config(registered_update_proof("StackedDrg2KiBV1"));
  CHECK(refusal(raw, two) ==
        "v.bin: partition 0: apex_leafs (offset 0x20): length 128, expected 8");
}

TEST_CASE("update vanilla bytes: every truncation is refused, naming the field and offset") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const std::vector<uint8_t> raw = fixture_bytes("snap-2k/vanilla-0.bin");
  for (size_t n = 0; n < raw.size(); ++n) {
    const std::vector<uint8_t> cut(raw.begin(), raw.begin() + long(n));
    const std::string why = refusal(cut, c);
    if (why.find("truncated: needs ") == std::string::npos ||
        why.find("v.bin: partition 0: ") != 0) {
      FAIL_CHECK("length " << n << ": " << why);
      break;
    }
  }
  auto at = [&](size_t n) {
    return refusal(std::vector<uint8_t>(raw.begin(), raw.begin() + long(n)), c);
  };
  CHECK(at(0) == "v.bin: partition 0: comm_c (offset 0x0): truncated: needs 32 bytes, 0 left");
  CHECK(at(35) ==
        "v.bin: partition 0: apex_leafs length (offset 0x20): truncated: needs 8 bytes, 3 left");
  CHECK(at(100) ==
        "v.bin: partition 0: apex_leafs[1] (offset 0x48): truncated: needs 32 bytes, 28 left");
  CHECK(at(300) ==
        "v.bin: partition 0: challenge_proofs length (offset 0x128): truncated: needs 8 "
        "bytes, 4 left");
  CHECK(at(306) ==
        "v.bin: partition 0: challenge_proofs[0].proof_r_old variant (offset 0x130): "
        "truncated: needs 4 bytes, 2 left");
  // proof_d_new of challenge 0 starts at 860 (golden layout): its path's second element's index.
  CHECK(at(860 + 4 + 64 + 8 + 48 + 8 + 32 + 3)
            .find("challenge_proofs[0].proof_d_new.path[1].index (offset ") != std::string::npos);
  CHECK(at(raw.size() - 1).find("challenge_proofs[9].proof_r_new.path[1].index") !=
        std::string::npos);
}

TEST_CASE("update vanilla bytes: bad lengths, variants, indices and trailing bytes are refused") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const std::vector<uint8_t> raw = fixture_bytes("snap-2k/vanilla-0.bin");
  auto with = [&](size_t at, uint64_t v, int bytes = 8) {
    std::vector<uint8_t> b = raw;
    for (int i = 0; i < bytes; ++i) b[at + i] = uint8_t(v >> (8 * i));
    return refusal(b, c);
  };
  CHECK(with(32, 9) == "v.bin: partition 0: apex_leafs (offset 0x20): length 9, expected 8");
  // A huge count is refused before anything is allocated.
  CHECK(with(32, ~0ull) ==
        "v.bin: partition 0: apex_leafs (offset 0x20): length 18446744073709551615, expected 8");
  CHECK(with(296, uint64_t(1) << 62) ==
        "v.bin: partition 0: challenge_proofs (offset 0x128): length 4611686018427387904, "
        "expected 10");
  CHECK(with(304, 1, 4) ==
        "v.bin: partition 0: challenge_proofs[0].proof_r_old (offset 0x130): "
        "variant Sub (1) where the tree needs Single (0)");
  CHECK(with(304, 7, 4) ==
        "v.bin: partition 0: challenge_proofs[0].proof_r_old (offset 0x130): "
        "variant 7 is none of Single, Sub, Top");
  // proof_r_old of challenge 0: variant 4, root 32, leaf 32, then the path's count at 372.
  CHECK(with(372, 3) ==
        "v.bin: partition 0: challenge_proofs[0].proof_r_old.path (offset 0x174): "
        "length 3, expected 2");
  CHECK(with(380, 8) ==
        "v.bin: partition 0: challenge_proofs[0].proof_r_old.path[0].hashes (offset 0x17c): "
        "length 8, expected 7");
  CHECK(with(380 + 8 + 7 * 32, 8) ==
        "v.bin: partition 0: challenge_proofs[0].proof_r_old.path[0].index (offset 0x264): index "
        "8 is not below the arity 8");
  std::vector<uint8_t> longer = raw;
  longer.push_back(0);
  CHECK(refusal(longer, c) ==
        "v.bin: partition 0: end (offset 0x3ad8): 1 bytes after the proof's 15064");
  CHECK(refusal(raw, c).empty());
}

TEST_CASE("update vanilla bytes: snap-vproof.json refusals name the element") {
  CHECK_THROWS_WITH_AS(parse_snap_vproof_json("{}", "s.json"),
                       "s.json: not a JSON list of base64 strings (one a partition)",
                       zk::format_error);
  CHECK_THROWS_WITH_AS(parse_snap_vproof_json("[\"AAAA\", 3]", "s.json"),
                       "s.json: element 1: not a string (base64 bytes)", zk::format_error);
  CHECK_THROWS_WITH_AS(parse_snap_vproof_json("[\"AAA\"]", "s.json"),
                       "s.json: element 0: not standard padded base64", zk::format_error);
  CHECK_THROWS_AS(parse_snap_vproof_json("[", "s.json"), zk::format_error);
  const update_config_t c = update_config(registered_update_proof("StackedDrg8MiBV1"));
  CHECK_THROWS_WITH_AS(read_update_vanilla_file(fixture("snap-2k/snap-vproof.json"), c),
                       doctest::Contains("1 partition proofs, the sector has 4"), zk::format_error);
}

// --- randomness and the vanilla verifier
// ------------------------------------------------------------

TEST_CASE("update randomness: phi, rho and challenges as Filecoin's code made them") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const update_commitments_t m = comms_2k();
  const fr_t phi = update_phi(fr_of(m.comm_d_new), fr_of(m.comm_r_old));
  CHECK(to_hex(fr_to_bytes(phi)) == golden("snap-2k/golden.txt", "phi"));
  CHECK(to_hex(fr_to_bytes(update_rho(phi, 0))) ==
        "84117f75e5ad8ceff4687a0fc2d9a37383f7699bc53d7f0e9bf9f0368451e50b");
  CHECK(to_hex(fr_to_bytes(update_rho(phi, 1))) ==
        "77eacebe466fa01ec3d4d72ec540415a10de10933a2ac48c8e1231fe395fe456");
  CHECK(update_challenges(c, fr_of(m.comm_r_new), 0) ==
        golden_list("snap-2k/golden.txt", "challenges(k=0)"));

  const update_config_t e = update_config(registered_update_proof("StackedDrg8MiBV1"));
  const update_commitments_t n = comms_8m();
  CHECK(to_hex(fr_to_bytes(update_phi(fr_of(n.comm_d_new), fr_of(n.comm_r_old)))) ==
        golden("snap-8m/golden.txt", "phi"));
  for (uint32_t k = 0; k < 4; ++k)
    CHECK(update_challenges(e, fr_of(n.comm_r_new), k) ==
          golden_list("snap-8m/golden.txt", "challenges(k=" + std::to_string(k) + ")"));
}

TEST_CASE("update randomness: storage-proofs-update's challenge vectors") {
  // challenges.rs tests: comm_r_new = TreeRDomain::random(XorShiftRng(TEST_SEED)), these bytes;
  // the first five challenges of each (size, k).
  const fr_t r =
      fr_of(parse_hex32("101cbe4b9c42604f04c703c396f788c6cb2d6d7d58f45430b12eb2edd640076c", "r"));
  auto first5 = [&](uint64_t bytes, uint32_t k) {
    std::vector<uint64_t> v = update_challenges(update_config_for_size(bytes), r, k);
    v.resize(5);
    return v;
  };
  CHECK(first5(2048, 0) == std::vector<uint64_t>{53, 51, 56, 3, 0});
  CHECK(first5(8ull << 20, 1) == std::vector<uint64_t>{78878, 130797, 112892, 93994, 78379});
  CHECK(first5(32ull << 30, 15) ==
        std::vector<uint64_t>{1038629497, 1053983614, 1030421316, 1027373887, 1068685433});
  CHECK(update_challenges(update_config_for_size(32ull << 30), r, 15).size() == 86);
}

TEST_CASE("update vanilla verifier: Filecoin's partitions pass, changed ones fail by name") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const std::vector<update_partition_proof_t> p =
      read_update_vanilla_file(fixture("snap-2k/snap-vproof.json"), c);
  const update_commitments_t m = comms_2k();
  CHECK(verify_update_partitions(c, m, p).ok());

  update_commitments_t other = m;
  other.comm_r_new[0] ^= 1;  // golden.txt: verify_partition_proofs false
  CHECK(verify_update_partitions(c, other, p).reason() ==
        "partition 0: H(comm_c, root of TreeR new) is not comm_r_new " + to_hex(other.comm_r_new));
  other = m;
  other.comm_d_new[0] ^= 1;
  CHECK(verify_update_partitions(c, other, p)
            .reason()
            .find("challenge 0 (node 30): proof_d_new: its root") != std::string::npos);

  std::vector<update_partition_proof_t> q = p;
  q[0].challenge_proofs[3].proof_d_new.leaf[0] ^= 1;
  CHECK(verify_update_partitions(c, m, q).reason().find(
            "challenge 3 (node 3): proof_d_new: the path") != std::string::npos);
  q = p;
  std::swap(q[0].challenge_proofs[1], q[0].challenge_proofs[2]);
  CHECK(verify_update_partitions(c, m, q).reason().find("challenge 1 (node 2): proof_r_old") !=
        std::string::npos);
  q = p;
  q[0].apex_leafs[0][0] ^= 1;  // some challenge's sibling lies in row 0 of the apex tree
  CHECK(verify_update_partitions(c, m, q).reason().find("is not in row") != std::string::npos);
  CHECK(verify_update_partitions(c, m, {}).reason() == "0 partition proofs, the sector has 1");
}

TEST_CASE("update vanilla verifier: the encoding check (rho) on its own") {
  // Filecoin's leaves satisfy new = old + data · rho(phi, high) at every challenge, and would not
  // with the other high value's rho (what the verifier's encoding check catches).
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const update_commitments_t m = comms_2k();
  const auto p = read_update_vanilla_file(fixture("snap-2k/vanilla-0.bin"), c);
  const fr_t phi = update_phi(fr_of(m.comm_d_new), fr_of(m.comm_r_old));
  const std::vector<uint64_t> ch = update_challenges(c, fr_of(m.comm_r_new), 0);
  for (size_t i = 0; i < ch.size(); ++i) {
    const update_challenge_proof_t& q = p[0].challenge_proofs[i];
    const fr_t rho = update_rho(phi, update_challenge_high(c, ch[i]));
    CHECK(fr_of(q.proof_r_old.leaf) + fr_of(q.proof_d_new.leaf) * rho == fr_of(q.proof_r_new.leaf));
    const fr_t wrong = update_rho(phi, update_challenge_high(c, ch[i]) ^ 1);
    CHECK(fr_of(q.proof_r_old.leaf) + fr_of(q.proof_d_new.leaf) * wrong !=
          fr_of(q.proof_r_new.leaf));
  }
}

TEST_CASE("update vanilla verifier: an 8 MiB partition at its own k only") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg8MiBV1"));
  const std::vector<uint8_t> raw = fixture_bytes("snap-8m/vanilla-1.bin");
  const update_partition_proof_t p =
      decode_update_partition_proof(raw.data(), raw.size(), c, "vanilla-1.bin", 1);
  CHECK(verify_update_partition(c, 1, comms_8m(), p).ok());
  CHECK(verify_update_partition(c, 0, comms_8m(), p).reason().find("challenge 0 (node 23184)") !=
        std::string::npos);
  CHECK(verify_update_partition(c, 4, comms_8m(), p).reason() ==
        "partition 4 of a sector with 4 partition(s)");
}

// --- the SNARK
// --------------------------------------------------------------------------------------

TEST_CASE("verify_update: Filecoin's 2 KiB proof, its verdicts and its errors") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const auto vk = zk::bellperson::read_vk_file(fixture("snap-2k/update.vk"));
  const auto proofs = zk::bellperson::read_proof_file(fixture("snap-2k/update-proof.bin"));
  const update_commitments_t m = comms_2k();
  auto r = verify_update(vk.vk, proofs, c, m);
  REQUIRE(r);
  CHECK(r->verdict.ok());
  REQUIRE(r->inputs.size() == 1);

  update_commitments_t other = m;
  other.comm_r_new[0] ^= 1;  // golden.txt: verify_empty_sector_update_proof false
  r = verify_update(vk.vk, proofs, c, other);
  REQUIRE(r);
  CHECK(r->verdict.reason() == "the pairing check failed");
  other = m;
  other.comm_d_new.fill(0);  // all zeros: not refused by Rust, simply invalid
  r = verify_update(vk.vk, proofs, c, other);
  REQUIRE(r);
  CHECK(r->verdict.reason() == "the pairing check failed");

  // Errors (Rust's Err): the wrong number of proofs, a key without 5 IC points, a commitment ≥ r.
  const auto e8 =
      verify_update(vk.vk, proofs, update_config(registered_update_proof("StackedDrg8MiBV1")), m);
  REQUIRE_FALSE(e8);
  CHECK(e8.error() == "StackedDrg8MiBV1 has 4 partition(s): 768 proof bytes, got 192");
  auto short_vk = vk.vk;
  short_vk.ic.pop_back();
  const auto ek = verify_update(short_vk, proofs, c, m);
  REQUIRE_FALSE(ek);
  CHECK(ek.error().find("the verifying key has 4 IC points") == 0);
  other = m;
  other.comm_r_old.fill(0xff);
  const auto ec = verify_update(vk.vk, proofs, c, other);
  REQUIRE_FALSE(ec);
  CHECK(ec.error() == "comm_r_old is not a field element (not below r)");
}

// A partition's input as the scheduler's intake stores it (zk/filecoin/api/update_input.hpp): the
// proof, the partition and the commitments back as written; every wrong field refused at its byte.
TEST_CASE("update input: written and read back, and the length, magic, proof, partition refused") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  const std::vector<uint8_t> raw = fixture_bytes("snap-2k/vanilla-0.bin");
  update_commitments_t comms;
  comms.comm_r_old = golden32("snap-2k/golden.txt", "comm_r_old");
  comms.comm_d_new = golden32("snap-2k/golden.txt", "comm_d_new");
  comms.comm_r_new = golden32("snap-2k/golden.txt", "comm_r_new");
  const std::vector<uint8_t> in = write_update_input(c, 0, comms, raw);
  CHECK(in.size() == update_input_size(c));
  CHECK(in.size() == 15'184);
  const update_input_t back = read_update_input(c, in.data(), in.size(), "p.fup");
  CHECK(back.partition == 0);
  CHECK(back.comms.comm_r_old == comms.comm_r_old);
  CHECK(back.comms.comm_d_new == comms.comm_d_new);
  CHECK(back.comms.comm_r_new == comms.comm_r_new);
  CHECK(encode_update_partition_proof(back.proof) == raw);

  auto refused = [&](std::vector<uint8_t> b, const std::string& why) {
    try {
      (void)read_update_input(c, b.data(), b.size(), "p.fup");
      FAIL("accepted: " << why);
    } catch (const zk::format_error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(why) != std::string::npos, e.what());
    }
  };
  refused(std::vector<uint8_t>(in.begin(), in.end() - 1),
          "p.fup: 15183 bytes, a partition input of StackedDrg2KiBV1 has 15184 at byte 0");
  std::vector<uint8_t> b = in;
  b[0] = 'X';
  refused(b, "not an update partition input (its magic is not \"ZKUP\") at byte 0");
  b = in;
  b[8] = 1;
  refused(b, "an input of registered update proof 1, expected 0 (StackedDrg2KiBV1) at byte 8");
  b = in;
  b[16] = 1;
  refused(b, "partition 1, the proof has 1 at byte 16");
  b = in;
  b[120 + 32] = 9;  // apex_leafs' count: the decoder names the field
  refused(b, "p.fup: partition 0: apex_leafs");
  CHECK_THROWS_AS(write_update_input(c, 1, comms, raw), std::invalid_argument);
  CHECK_THROWS_AS(write_update_input(c, 0, comms, std::vector<uint8_t>(raw.begin(), raw.end() - 1)),
                  std::invalid_argument);
}

// What a sector's update proofs weigh at the sizes farms seal, as Curio's SNAP_DEALS_UPDATE carries
// them (vanilla_proofs, one bincode partition proof each): the gRPC face bounds the sum at 256 MiB
// (grpcapi/wire.cpp) and Curio's messages at 256 MiB; a 64 GiB sector's must fit far below both.
TEST_CASE("update vanilla bytes: a 32 and a 64 GiB sector's partition proofs fit the gRPC bound") {
  for (const char* name : {"StackedDrg32GiBV1", "StackedDrg64GiBV1"}) {
    const update_config_t c = update_config(registered_update_proof(name));
    const uint64_t one = update_partition_proof_size(c), sector = one * c.partitions;
    MESSAGE(std::string(name) << ": " << one << " bytes a partition, " << sector << " a sector");
    CHECK(c.partitions == 16);
    CHECK(sector < (uint64_t(256) << 20) / 8);
    CHECK(sector > uint64_t(1) << 20);  // the counts are the production ones, not a test size's
  }
}
