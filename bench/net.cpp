// bench_net: data-plane throughput over loopback (docs/design.md "Control plane and data plane").
//
//   bench_net [--mib N] [--rounds R] [--io-threads T] [--prewarm 0|1]
//
// Sends an abc+witness synth buffer of N MiB (default 256) R times (default 5) from four separate
// arrays to a data_server_t in the same process, over 127.0.0.1, each time waiting for the ACK
// (the receiver has read every byte into its buffer store and verified the XXH64 checksum).
// Reports the first transfer (fresh receiver memory: first-touch page faults) apart from the
// following ones (memory reused from the store's pool), the checksum alone, and memcpy as a
// memory-bandwidth reference. --prewarm 1 has the receiver's store populate one buffer before
// the first transfer (buffer_store_t::prewarm, as a node does at start-up). Both ends share the
// machine's cores.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "common/buffer/checksum.hpp"
#include "common/net/data_client.hpp"
#include "common/net/data_server.hpp"
#include "common/util/clock.hpp"

using namespace zk;

namespace {

constexpr double gib = double(uint64_t(1) << 30);

}  // namespace

int main(int argc, char** argv) {
  uint64_t mib = 256;
  int rounds = 5;
  unsigned io_threads = 1;
  bool prewarm = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--mib")
      mib = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--rounds")
      rounds = std::atoi(argv[i + 1]);
    else if (a == "--io-threads")
      io_threads = unsigned(std::atoi(argv[i + 1]));
    else if (a == "--prewarm")
      prewarm = std::atoi(argv[i + 1]) != 0;
    else {
      std::fprintf(stderr,
                   "usage: bench_net [--mib N] [--rounds R] [--io-threads T] [--prewarm 0|1]\n");
      return 2;
    }
  }
  if (mib < 1 || rounds < 1) return 2;
  // N MiB = 32·(n_vars + 3·rows) bytes with n_vars = rows = N MiB / 128.
  const uint64_t count = (mib << 20) / 128;
  std::vector<uint8_t> witness(count * 32), a(count * 32), b(count * 32), c(count * 32);
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (auto* v : {&witness, &a, &b, &c}) {
    for (size_t i = 0; i + 8 <= v->size(); i += 8) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      std::memcpy(v->data() + i, &x, 8);
    }
  }
  buffer::synth_params_t p;
  p.n_vars = count;
  p.n_public = 1;
  p.domain_rows = count;
  p.shape = buffer::synth_shape::abc_witness;
  const std::vector<buffer::byte_span_t> spans{{witness.data(), witness.size()},
                                               {a.data(), a.size()},
                                               {b.data(), b.size()},
                                               {c.data(), c.size()}};
  auto t0 = std::chrono::steady_clock::now();
  const auto header = buffer::make_header(p, spans);
  const double t_hash = util::seconds_since(t0);
  const double bytes = double(header.payload_bytes);

  std::vector<uint8_t> copy(header.payload_bytes);
  std::memcpy(copy.data(), witness.data(), witness.size());  // touch once
  t0 = std::chrono::steady_clock::now();
  size_t at = 0;
  for (auto* v : {&witness, &a, &b, &c})
    std::memcpy(copy.data() + at, v->data(), v->size()), at += v->size();
  const double t_copy = util::seconds_since(t0);

  buffer::buffer_store_t store(2 * header.payload_bytes);
  net::server_options_t opts;
  opts.io_threads = io_threads;
  double t_prewarm = 0;
  if (prewarm) {
    t0 = std::chrono::steady_clock::now();
    store.prewarm(header.payload_bytes, 1);
    t_prewarm = util::seconds_since(t0);
  }
  net::data_server_t server(store, opts, {}, {});
  net::data_client_t client("127.0.0.1", server.port());
  const std::vector<boost::asio::const_buffer> pieces{
      boost::asio::buffer(witness), boost::asio::buffer(a), boost::asio::buffer(b),
      boost::asio::buffer(c)};
  std::printf(
      "bench_net: %llu MiB abc+witness buffer, %d rounds, loopback, %u server io thread(s)\n",
      static_cast<unsigned long long>(mib), rounds, io_threads);
  std::printf("  xxh64 (make_header)     %7.3f s  %6.2f GiB/s\n", t_hash, bytes / gib / t_hash);
  std::printf("  memcpy (reference)      %7.3f s  %6.2f GiB/s\n", t_copy, bytes / gib / t_copy);
  if (prewarm)
    std::printf("  store prewarm (1 buffer) %6.3f s  %6.2f GiB/s\n", t_prewarm,
                bytes / gib / t_prewarm);
  double warm_total = 0, warm_best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const auto res = client.send(header, pieces);
    if (!res.ok) {
      std::fprintf(stderr, "bench_net: send failed: %s\n", res.error.c_str());
      return 1;
    }
    store.release(res.buffer_id);
    std::printf("  transfer %d (%s)  %7.3f s  %6.2f GiB/s\n", r + 1,
                r == 0 && !prewarm ? "fresh memory "
                : r == 0           ? "prewarmed    "
                                   : "reused memory",
                res.seconds, bytes / gib / res.seconds);
    if (r > 0) warm_total += res.seconds, warm_best = std::min(warm_best, res.seconds);
  }
  if (rounds > 1) {
    std::printf("  reused memory: mean %.2f GiB/s, best %.2f GiB/s\n",
                bytes / gib / (warm_total / (rounds - 1)), bytes / gib / warm_best);
  }
  const auto st = store.stats();
  std::printf("  receiver store: %llu fresh allocation(s), %llu reuse(s), %s accounted of %s\n",
              static_cast<unsigned long long>(st.fresh_allocations),
              static_cast<unsigned long long>(st.reuses),
              buffer::format_bytes(st.accounted).c_str(), buffer::format_bytes(st.budget).c_str());
  return 0;
}
