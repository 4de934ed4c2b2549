// bench_net: data-plane throughput over loopback (docs/design.md "Control plane and data plane").
//
//   bench_net [--mib N] [--rounds R] [--io-threads T] [--prewarm 0|1] [--tls 0|1|both]
//             [--chunk-kib K]
//
// Sends an abc+witness synth buffer of N MiB (default 256) R times (default 5) from four separate
// arrays to a data_server_t in the same process, over 127.0.0.1, each time waiting for the ACK
// (the receiver has read every byte into its buffer store and verified the XXH64 checksum).
// Reports the first transfer (fresh receiver memory: first-touch page faults) apart from the
// following ones (memory reused from the store's pool), the checksum alone, and memcpy as a
// memory-bandwidth reference. --prewarm 1 has the receiver's store populate one buffer before
// the first transfer (buffer_store_t::prewarm, as a node does at start-up). Both ends share the
// machine's cores.
//
// --tls: 0 plaintext only, 1 TLS only, both (default) alternating plaintext and TLS transfers of
// the same buffer into the same store (two servers, identical options but for TLS; throwaway
// node certificates of tests/net/test_certs.hpp), then the median GiB/s of each and TLS/plain.
// Each mode's first transfer (fresh memory, and the TLS handshake) is reported apart and left out
// of the medians. Each transfer's CPU time is also taken (the sender's thread, and the rest of the
// process: the receiving io thread; on loopback the kernel's TCP work lands on either) and
// reported per payload byte: unlike GiB/s it barely depends on what else the machine runs.
// --chunk-kib sets the receiver's read chunk and the sender's write chunk (default 4 and 8 MiB).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "common/buffer/checksum.hpp"
#include "common/net/data_client.hpp"
#include "common/net/data_server.hpp"
#include "tests/net/test_certs.hpp"
#include "zk/base/clock.hpp"

using namespace zk;

namespace {

constexpr double gib = double(uint64_t(1) << 30);

double cpu_seconds(clockid_t which) {
  timespec ts{};
  clock_gettime(which, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t mib = 256;
  int rounds = 5;
  unsigned io_threads = 1;
  bool prewarm = false;
  bool plain = true, tls = true;
  uint64_t chunk_kib = 0;  // 0: the defaults (receiver 4 MiB, sender 8 MiB)
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--mib")
      mib = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--rounds")
      rounds = std::atoi(argv[i + 1]);
    else if (a == "--io-threads")
      io_threads = unsigned(std::atoi(argv[i + 1]));
    else if (a == "--chunk-kib")
      chunk_kib = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--prewarm")
      prewarm = std::atoi(argv[i + 1]) != 0;
    else if (a == "--tls" && (std::string(argv[i + 1]) == "0" || std::string(argv[i + 1]) == "1" ||
                              std::string(argv[i + 1]) == "both")) {
      plain = std::string(argv[i + 1]) != "1";
      tls = std::string(argv[i + 1]) != "0";
    } else {
      std::fprintf(stderr,
                   "usage: bench_net [--mib N] [--rounds R] [--io-threads T] [--prewarm 0|1] "
                   "[--chunk-kib K] "
                   "[--tls 0|1|both]\n");
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
  p.shape = buffer::synth_shape_t::abc_witness;
  const std::vector<buffer::byte_span_t> spans{{witness.data(), witness.size()},
                                               {a.data(), a.size()},
                                               {b.data(), b.size()},
                                               {c.data(), c.size()}};
  auto t0 = std::chrono::steady_clock::now();
  const auto header = buffer::make_header(p, spans);
  const double t_hash = seconds_since(t0);
  const double bytes = double(header.payload_bytes);

  std::vector<uint8_t> copy(header.payload_bytes);
  std::memcpy(copy.data(), witness.data(), witness.size());  // touch once
  t0 = std::chrono::steady_clock::now();
  size_t at = 0;
  for (auto* v : {&witness, &a, &b, &c})
    std::memcpy(copy.data() + at, v->data(), v->size()), at += v->size();
  const double t_copy = seconds_since(t0);

  buffer::buffer_store_t store(3 * header.payload_bytes);
  net::server_options_t opts;
  opts.io_threads = io_threads;
  net::send_options_t send_opts;
  if (chunk_kib > 0) opts.chunk_bytes = send_opts.chunk_bytes = size_t(chunk_kib) << 10;
  double t_prewarm = 0;
  if (prewarm) {
    t0 = std::chrono::steady_clock::now();
    store.prewarm(header.payload_bytes, 1);
    t_prewarm = seconds_since(t0);
  }
  // The modes of this run: a server and a client each, the same options but for TLS.
  struct mode_t {
    const char* name;
    std::unique_ptr<net::data_server_t> server;
    std::unique_ptr<net::data_client_t> client;
    std::vector<double> seconds;                 // the transfers after the first
    std::vector<double> sender_ns, receiver_ns;  // CPU time per payload byte of each end
  };
  std::unique_ptr<test::test_certs_t> certs;
  std::vector<mode_t> modes;
  if (plain) {
    modes.push_back(
        {"plain", std::make_unique<net::data_server_t>(store, opts, nullptr), nullptr, {}, {}, {}});
    modes.back().client =
        std::make_unique<net::data_client_t>("127.0.0.1", modes.back().server->port(), send_opts);
  }
  if (tls) {
    certs = std::make_unique<test::test_certs_t>();
    net::server_options_t o = opts;
    o.tls = certs->files("node.n1");
    net::send_options_t so = send_opts;
    so.tls = certs->files("node.n2");
    so.expected_peer = "n1";
    modes.push_back(
        {"TLS  ", std::make_unique<net::data_server_t>(store, o, nullptr), nullptr, {}, {}, {}});
    modes.back().client =
        std::make_unique<net::data_client_t>("127.0.0.1", modes.back().server->port(), so);
  }
  const std::vector<boost::asio::const_buffer> pieces{
      boost::asio::buffer(witness), boost::asio::buffer(a), boost::asio::buffer(b),
      boost::asio::buffer(c)};
  std::printf(
      "bench_net: %llu MiB abc+witness buffer, %d rounds, loopback, %u server io thread(s), %s\n",
      static_cast<unsigned long long>(mib), rounds, io_threads,
      plain && tls ? "plaintext and TLS alternating"
      : tls        ? "TLS"
                   : "plaintext");
  std::printf("  xxh64 (make_header)     %7.3f s  %6.2f GiB/s\n", t_hash, bytes / gib / t_hash);
  std::printf("  memcpy (reference)      %7.3f s  %6.2f GiB/s\n", t_copy, bytes / gib / t_copy);
  if (prewarm)
    std::printf("  store prewarm (1 buffer) %6.3f s  %6.2f GiB/s\n", t_prewarm,
                bytes / gib / t_prewarm);
  for (int r = 0; r < rounds; ++r) {
    // Alternate which mode goes first, so neither always follows the other.
    for (size_t k = 0; k < modes.size(); ++k) {
      auto& m = modes[(k + size_t(r)) % modes.size()];
      const double cpu0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
      const double send0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
      const auto res = m.client->send(header, pieces);
      const double send_cpu = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - send0;
      const double all_cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
      if (!res.ok) {
        std::fprintf(stderr, "bench_net: %s send failed: %s\n", m.name, res.error.c_str());
        return 1;
      }
      store.release(res.buffer_id);
      std::string what = r > 0                       ? "reused memory"
                         : modes.size() > 1 && k > 0 ? "pool memory"
                         : prewarm                   ? "prewarmed"
                                                     : "fresh memory";
      if (r == 0 && m.name[0] == 'T') what += ", handshake";
      std::printf("  %s transfer %d %-26s %7.3f s  %6.2f GiB/s\n", m.name, r + 1,
                  ("(" + what + ")").c_str(), res.seconds, bytes / gib / res.seconds);
      if (r > 0) {
        m.seconds.push_back(res.seconds);
        m.sender_ns.push_back(send_cpu * 1e9 / bytes);
        m.receiver_ns.push_back((all_cpu - send_cpu) * 1e9 / bytes);
      }
    }
  }
  if (rounds > 1) {
    std::vector<double> rates;
    for (auto& m : modes) {
      std::vector<double> g;
      for (double t : m.seconds) g.push_back(bytes / gib / t);
      rates.push_back(median(g));
      std::printf("  %s median %.2f GiB/s, best %.2f GiB/s (transfers 2..%d)\n", m.name,
                  rates.back(), *std::max_element(g.begin(), g.end()), rounds);
    }
    // CPU time per byte barely depends on what else the machine runs: the rate each end could
    // keep up with a core of its own (the other threads of this process are idle).
    std::vector<double> bounds;
    for (auto& m : modes) {
      const double snd = median(m.sender_ns), rcv = median(m.receiver_ns);
      bounds.push_back(1e9 / std::max(snd, rcv) / gib);
      std::printf(
          "  %s CPU per byte: sender %.2f ns, receiver %.2f ns (medians): a core each "
          "would carry %.2f GiB/s\n",
          m.name, snd, rcv, bounds.back());
    }
    if (modes.size() == 2) {
      std::printf("  TLS/plain (median GiB/s): %.2f\n", rates[1] / rates[0]);
      std::printf("  TLS/plain (CPU bound, a core per end): %.2f\n", bounds[1] / bounds[0]);
    }
  }
  const auto st = store.stats();
  std::printf("  receiver store: %llu fresh allocation(s), %llu reuse(s), %s accounted of %s\n",
              static_cast<unsigned long long>(st.fresh_allocations),
              static_cast<unsigned long long>(st.reuses),
              buffer::format_bytes(st.accounted).c_str(), buffer::format_bytes(st.budget).c_str());
  return 0;
}
