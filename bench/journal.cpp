// bench_journal: what the scheduler's journal (node/scheduler/journal.hpp) costs per call, and
// how long a restarted scheduler takes to read it back.
//
//   bench_journal [--jobs N = 200] [--rounds R = 5] [--replay-jobs M = 1000] [--dir DIR]
//
// Each round runs both sync modes, alternating which goes first, each on a fresh file: N add_job
// (10 partitions, 10 inputs), then N note_part, then N add_proof (a snarkjs-shaped proof of about
// 800 bytes, 2 public signals), every call timed alone; reported as the median and the 99th
// percentile of all calls of all rounds. Replay: a journal of M jobs × 10 partitions, all open,
// every partition noted (attempts and placement: a scheduler stopped with everything dispatched),
// opened and replayed in each mode, median of the rounds; then restored into a scheduler policy
// with the first scheduling round (what a restarted scheduler does before it takes requests). The
// files live in DIR (default: a fresh directory under the system temp dir, removed at the end): put
// it on the disk the scheduler's journal will use, fsync costs are the disk's.
#include "node/scheduler/journal.hpp"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "node/scheduler/policy.hpp"

using namespace zk::node;
namespace fs = std::filesystem;
using steady_clock_t = std::chrono::steady_clock;

namespace {

double us_since(steady_clock_t::time_point t0) {
  return std::chrono::duration<double, std::micro>(steady_clock_t::now() - t0).count();
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string digits(std::mt19937_64& rng, size_t n) {
  std::string s(n, '0');
  for (auto& c : s) c = char('0' + rng() % 10);
  if (s[0] == '0') s[0] = '1';
  return s;
}

// A Groth16 proof as snarkjs writes it (JSON.stringify(proof, null, 1); BN254: field elements of
// 76–77 decimal digits).
std::string proof_json(std::mt19937_64& rng) {
  auto fe = [&](const char* indent) {
    return std::string(indent) + "\"" + digits(rng, 76 + rng() % 2) + "\"";
  };
  std::string j =
      "{\n \"pi_a\": [\n" + fe("  ") + ",\n" + fe("  ") + ",\n  \"1\"\n ],\n \"pi_b\": [\n";
  for (int i = 0; i < 2; ++i) j += "  [\n" + fe("   ") + ",\n" + fe("   ") + "\n  ],\n";
  j += "  [\n   \"1\",\n   \"0\"\n  ]\n ],\n \"pi_c\": [\n" + fe("  ") + ",\n" + fe("  ") +
       ",\n  \"1\"\n ],\n \"protocol\": \"groth16\",\n \"curve\": \"bn128\"\n}";
  return j;
}

journaled_job_t make_job(uint64_t seq, std::mt19937_64& rng) {
  journaled_job_t j;
  j.seq = seq;
  j.public_id = "j-" + digits(rng, 24);
  j.owner = "client-" + std::to_string(seq % 8);
  j.circuit = "porep-2-16";
  j.partitions = 10;
  std::vector<std::string> paths;
  for (int i = 0; i < 10; ++i)
    paths.push_back("/srv/sectors/s-" + std::to_string(seq) + "/partition-" + std::to_string(i) +
                    "/input.json");
  j.spec = circom_job_spec(paths);
  j.submitted_ms = 1767225600000 + int64_t(seq);
  return j;
}

struct samples_t {
  std::vector<double> add_job, note_part, add_proof, replay_ms, restore_ms;
};

void one_round(const fs::path& dir, journal_sync_t sync, uint64_t n, samples_t& s,
               std::mt19937_64& rng) {
  const fs::path file = dir / (std::string("calls-") + journal_sync_name(sync) + ".db");
  fs::remove(file);
  std::vector<journaled_job_t> jobs;
  std::vector<journaled_proof_t> proofs;
  for (uint64_t i = 0; i < n; ++i) {
    jobs.push_back(make_job(i + 1, rng));
    journaled_proof_t p;
    p.partition = uint32_t(i % 10);
    p.proof_json = proof_json(rng);
    p.public_signals = {digits(rng, 77), digits(rng, 76)};
    p.prove_seconds = 0.3;
    p.prover = "prover-1";
    proofs.push_back(std::move(p));
  }
  {
    journal_t j(file.string(), sync);
    for (const auto& job : jobs) {
      const auto t0 = steady_clock_t::now();
      j.add_job(job);
      s.add_job.push_back(us_since(t0));
    }
    for (uint64_t i = 0; i < n; ++i) {
      const auto t0 = steady_clock_t::now();
      j.note_part(i + 1, uint32_t(i % 10), 1, "synth-1>prover-1");
      s.note_part.push_back(us_since(t0));
    }
    for (uint64_t i = 0; i < n; ++i) {
      const auto t0 = steady_clock_t::now();
      j.add_proof(i + 1, proofs[i]);
      s.add_proof.push_back(us_since(t0));
    }
  }
  fs::remove(file);
}

int usage() {
  std::fprintf(stderr,
               "usage: bench_journal [--jobs N > 0] [--rounds R > 0] [--replay-jobs M > 0] "
               "[--dir DIR]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t n = 200, replay_jobs = 1000;
  int rounds = 5;
  std::string dir_arg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    if (a == "--jobs")
      n = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--rounds")
      rounds = std::atoi(argv[++i]);
    else if (a == "--replay-jobs")
      replay_jobs = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--dir")
      dir_arg = argv[++i];
    else
      return usage();
  }
  if (n == 0 || rounds <= 0 || replay_jobs == 0) return usage();

  fs::path dir;
  bool own_dir = dir_arg.empty();
  if (own_dir) {
    std::string tmpl = (fs::temp_directory_path() / "bench_journal_XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "bench_journal: cannot make a directory under %s: %s\n",
                   fs::temp_directory_path().c_str(), std::strerror(errno));
      return 1;
    }
    dir = tmpl;
  } else {
    dir = dir_arg;
  }

  int rc = 0;
  try {
    std::mt19937_64 rng(2026);
    const journal_sync_t modes[2] = {journal_sync_t::normal, journal_sync_t::full};
    samples_t s[2];

    // The replay journal: written once (normal: it is the content that matters, not how it was
    // synced), then opened and replayed in each mode.
    const fs::path replay_file = dir / "replay.db";
    fs::remove(replay_file);
    uint64_t replay_bytes = 0;
    {
      journal_t j(replay_file.string(), journal_sync_t::normal);
      for (uint64_t i = 1; i <= replay_jobs; ++i) {
        j.add_job(make_job(i, rng));
        for (uint32_t p = 0; p < 10; ++p)
          j.note_part(i, p, 0,
                      "synth-" + std::to_string(p % 4) + ">prover-" + std::to_string(i % 3));
      }
    }
    replay_bytes = fs::file_size(replay_file);  // closed: the WAL is checkpointed into it
    uint64_t replayed_parts = 0;

    for (int r = 0; r < rounds; ++r) {
      for (int k = 0; k < 2; ++k) {
        const int m = (r % 2 == 0) ? k : 1 - k;  // alternate which mode goes first
        one_round(dir, modes[m], n, s[m], rng);
        const auto t0 = steady_clock_t::now();
        journal_t j(replay_file.string(), modes[m]);
        const auto jobs = j.replay();
        s[m].replay_ms.push_back(us_since(t0) / 1000);
        replayed_parts = 0;
        for (const auto& job : jobs) replayed_parts += job.partitions;
        // What the scheduler does next: every job into its policy, ids past the journal's, and
        // the first scheduling round once nodes are there.
        const auto t1 = steady_clock_t::now();
        scheduler_policy_t policy({false, 2}, 3);
        policy.add_circuit({"porep-2-16", 8 << 20, 64 << 20});
        for (const auto& job : jobs) {
          std::vector<bool> done(job.partitions, false);
          for (const auto& p : job.proofs) done[p.partition] = true;
          policy.restore(job.seq, job.circuit, priority_t(job.priority), job.partitions, done,
                         job.attempts, job.state, job.error);
        }
        policy.reserve_ids(j.next_seq());
        policy.add_node({"synth-1", true, false, 4, uint64_t(1) << 30, {}});
        policy.add_node({"prover-1", false, true, 1, uint64_t(4) << 30, {"porep-2-16"}});
        if (policy.schedule().empty())
          throw std::runtime_error("the restored jobs were not scheduled");
        s[m].restore_ms.push_back(us_since(t1) / 1000);
      }
    }

    journaled_job_t sample_job = make_job(1, rng);
    const size_t input_bytes = to_json(sample_job.spec).size();
    std::printf(
        "bench_journal: %llu calls of each kind per round and mode, %d rounds, modes alternating; "
        "files in %s\n",
        (unsigned long long)n, rounds, dir.c_str());
    std::printf(
        "  add_job: 10 partitions, 10 input.json paths (a %zu-byte spec); add_proof: %zu-byte "
        "proof JSON, 2 "
        "public signals\n\n",
        input_bytes, proof_json(rng).size());
    std::printf("| call | sync | median | p99 |\n|---|---|---|---|\n");
    struct row_t {
      const char* name;
      std::vector<double> samples_t::*v;
    };
    for (const row_t& row :
         {row_t{"add_job", &samples_t::add_job}, row_t{"note_part", &samples_t::note_part},
          row_t{"add_proof", &samples_t::add_proof}})
      for (int m = 0; m < 2; ++m)
        std::printf("| %s | %s | %.1f µs | %.1f µs |\n", row.name, journal_sync_name(modes[m]),
                    median(s[m].*row.v), percentile(s[m].*row.v, 0.99));
    for (int m = 0; m < 2; ++m)
      std::printf(
          "| open + replay: %llu jobs, %llu partitions (%.1f MiB) | %s | %.1f ms | (median of "
          "%d) |\n",
          (unsigned long long)replay_jobs, (unsigned long long)replayed_parts,
          double(replay_bytes) / (1024.0 * 1024.0), journal_sync_name(modes[m]),
          median(s[m].replay_ms), rounds);
    std::printf(
        "| restore into the policy + first scheduling round: %llu jobs, %llu partitions | | %.1f "
        "ms "
        "| (median of %d) |\n",
        (unsigned long long)replay_jobs, (unsigned long long)replayed_parts, median([&] {
          auto v = s[0].restore_ms;
          v.insert(v.end(), s[1].restore_ms.begin(), s[1].restore_ms.end());
          return v;
        }()),
        2 * rounds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_journal: %s\n", e.what());
    rc = 1;
  }
  if (own_dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return rc;
}
