// make_mulchain: circuits/mulchain.circom of any size, written the way circom 2 (-O1) and snarkjs
// write it, without compiling it: circom2 (WebAssembly) needs tens of minutes and gigabytes at
// 2^20 and cannot make the 6.5-million-constraint circuit whose witness is 200 MiB, which the
// upload tests send through a cluster. The witness is byte for byte what `snarkjs wtns calculate`
// writes, the .r1cs circom's up to the order of terms inside a linear combination (circom's
// follows its hash maps; this one is by wire): tests/interop/make_mulchain.sh compares both with
// tests/fixtures/<curve>/mulchain, made by circom and snarkjs, and with make_circuit.sh's output.
//
//   make_mulchain --curve bn254|bls12_381 --size N --out DIR [--x DEC] [--y DEC]
//
// Writes DIR/circuit.r1cs, DIR/witness.wtns and DIR/input.json ({"x", "y"}; the defaults are
// the fixtures' input). Streams both files: memory stays constant at any N.
//
// The circuit circom makes of MulChain(N) with -O1 (read from the fixtures' .r1cs): wires
// 0 = one, 1 = out (= s[N]), 2 = x (= s[0]), 3 = y, 3 + i = s[i] for 1 ≤ i < N; constraint i is
//   A = −y − s[i],  B = s[i],  C = i·one + x − s[i+1]      (written in ascending wire order)
// i.e. s[i+1] = s[i]·(s[i] + y) + x + i. The label map skips label 4 (s[0], substituted by x):
// wire w ≥ 4 has label w + 1. Section order: constraints (2), header (1), map (3).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/base/le_bytes.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

namespace {

constexpr size_t fs = 32;  // field element bytes on both curves

// A file written through a large buffer; every failure names the file.
struct out_file_t {
  std::string path;
  FILE* f = nullptr;
  std::vector<uint8_t> buf;

  explicit out_file_t(std::string p) : path(std::move(p)) {
    f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error(path + ": cannot create: " + std::strerror(errno));
    buf.reserve(size_t(8) << 20);
  }
  ~out_file_t() {
    if (f) std::fclose(f);
  }
  void flush() {
    if (!buf.empty() && std::fwrite(buf.data(), 1, buf.size(), f) != buf.size())
      throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    buf.clear();
  }
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    buf.insert(buf.end(), b, b + n);
    if (buf.size() >= (size_t(8) << 20)) flush();
  }
  template <class T>
  void le(T v) {
    uint8_t b[sizeof(T)];
    zk::le_put(b, 0, v);
    bytes(b, sizeof b);
  }
  template <class Big>
  void big(const Big& v) {
    for (auto limb : v.l) le(uint64_t(limb));
  }
  void close() {
    flush();
    if (std::fclose(f) != 0) {
      f = nullptr;
      throw std::runtime_error(path + ": close failed: " + std::strerror(errno));
    }
    f = nullptr;
  }
};

template <class Fr>
void term(out_file_t& o, uint32_t wire, const Fr& coeff) {
  o.le(wire);
  o.big(coeff.to_canonical());
}

template <class Fr>
void write_circuit(const std::string& dir, uint32_t n, const Fr& x, const Fr& y) {
  const uint32_t n_wires = n + 3;
  auto s_wire = [n](uint32_t i) -> uint32_t { return i == 0 ? 2 : i == n ? 1 : 3 + i; };
  const Fr one = Fr::one(), minus_one = Fr::zero() - Fr::one();

  out_file_t r(dir + "/circuit.r1cs");
  r.bytes("r1cs", 4);
  r.le(uint32_t(1));  // version
  r.le(uint32_t(3));  // sections
  // Constraints: 3 × u32 counts and 6 terms each, except C of constraint 0 (no constant term).
  const uint64_t per = 3 * 4 + 6 * (4 + fs);
  r.le(uint32_t(2));
  r.le(uint64_t(per * n - (4 + fs)));
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = s_wire(i), next = s_wire(i + 1);
    r.le(uint32_t(2));  // A: −y − s[i]
    if (s < 3) {
      term(r, s, minus_one);
      term(r, 3, minus_one);
    } else {
      term(r, 3, minus_one);
      term(r, s, minus_one);
    }
    r.le(uint32_t(1));  // B: s[i]
    term(r, s, one);
    if (i == 0) {  // C: x − s[1]
      r.le(uint32_t(2));
      term(r, 2, one);
      term(r, next, minus_one);
    } else {  // C: i·one + x − s[i+1]
      r.le(uint32_t(3));
      term(r, 0, Fr::from_u64(i));
      if (next < 2) {
        term(r, next, minus_one);
        term(r, 2, one);
      } else {
        term(r, 2, one);
        term(r, next, minus_one);
      }
    }
  }
  r.le(uint32_t(1));  // header
  r.le(uint64_t(4 + fs + 4 * 4 + 8 + 4));
  r.le(uint32_t(fs));
  r.big(Fr::modulus);
  r.le(n_wires);
  r.le(uint32_t(1));            // nPubOut: out
  r.le(uint32_t(1));            // nPubIn: x
  r.le(uint32_t(1));            // nPrvIn: y
  r.le(uint64_t(n_wires) + 2);  // nLabels: s[0] and s[N] have labels of their own
  r.le(n);
  r.le(uint32_t(3));  // wire → label
  r.le(uint64_t(8) * n_wires);
  for (uint32_t w = 0; w < n_wires; ++w) r.le(uint64_t(w < 4 ? w : w + 1));
  r.close();

  // The witness: wire order, canonical little-endian values (wtns version 2).
  // out = s[N] is wire 1, written before the chain: a first pass computes it (values only).
  Fr cur = x;
  for (uint32_t i = 0; i < n; ++i) cur = cur * (cur + y) + x + Fr::from_u64(i);
  const Fr out = cur;
  out_file_t w(dir + "/witness.wtns");
  w.bytes("wtns", 4);
  w.le(uint32_t(2));  // version
  w.le(uint32_t(2));  // sections
  w.le(uint32_t(1));
  w.le(uint64_t(4 + fs + 4));
  w.le(uint32_t(fs));
  w.big(Fr::modulus);
  w.le(n_wires);
  w.le(uint32_t(2));
  w.le(uint64_t(fs) * n_wires);
  w.big(one.to_canonical());
  w.big(out.to_canonical());
  w.big(x.to_canonical());
  w.big(y.to_canonical());
  cur = x;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    cur = cur * (cur + y) + x + Fr::from_u64(i);
    w.big(cur.to_canonical());  // s[i+1], wire 4 + i
  }
  w.close();

  out_file_t j(dir + "/input.json");
  const std::string json =
      "{\n  \"x\": \"" + x.to_string() + "\",\n  \"y\": \"" + y.to_string() + "\"\n}\n";
  j.bytes(json.data(), json.size());
  j.close();
}

template <class Fr>
Fr parse(const char* what, const std::string& s) {
  Fr v;
  if (!Fr::from_string(s, v))
    throw std::invalid_argument(std::string("--") + what + " '" + s +
                                "' is not a decimal field element below the curve's r");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string curve, out, x = "12345678901234567890123456789012345678901234567890123456789",
                          y = "98765432109876543210987654321098765432109876543210987654321";
  unsigned long long n = 0;
  const char* usage =
      "usage: make_mulchain --curve bn254|bls12_381 --size N --out DIR [--x DEC] [--y DEC]\n";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a != "--curve" && a != "--out" && a != "--x" && a != "--y" && a != "--size") {
      std::fprintf(stderr, "make_mulchain: unknown argument %s\n%s", a.c_str(), usage);
      return 2;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "make_mulchain: %s needs a value\n%s", a.c_str(), usage);
      return 2;
    }
    std::string v = argv[++i];
    if (a == "--curve")
      curve = v;
    else if (a == "--out")
      out = v;
    else if (a == "--x")
      x = v;
    else if (a == "--y")
      y = v;
    else {  // --size
      char* end = nullptr;
      n = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 2 || n > 0xFFFFFFF0ull) {
        std::fprintf(stderr, "make_mulchain: --size '%s' must be an integer in 2..4294967280\n",
                     v.c_str());
        return 2;
      }
    }
  }
  if (out.empty() || n == 0 || (curve != "bn254" && curve != "bls12_381")) {
    std::fputs(usage, stderr);
    return 2;
  }
  try {
    if (curve == "bn254") {
      using fr = zk::bn254::fr_t;
      write_circuit<fr>(out, uint32_t(n), parse<fr>("x", x), parse<fr>("y", y));
    } else {
      using fr = zk::bls12_381::fr_t;
      write_circuit<fr>(out, uint32_t(n), parse<fr>("x", x), parse<fr>("y", y));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_mulchain: %s\n", e.what());
    return 1;
  }
  return 0;
}
