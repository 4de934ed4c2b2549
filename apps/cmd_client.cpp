// The clients of a running cluster (apps/client.hpp reaches its scheduler):
//
//   zkfleet submit --config F --circuit ID [--input FILE]... [--partitions N] [--priority P]
//                  (no --priority: the circuit's configured priority, else default_priority;
//                  porep-lite: --seed N; filecoin-porep: --c1 FILE --prover-id HEX --sector N)
//   zkfleet status --config F [JOB]          (no JOB: every node's memory as the scheduler
//                                             accounts it)
//   zkfleet await  --config F JOB [--out DIR] [--timeout SECONDS]
//   zkfleet cancel --config F JOB
//   zkfleet down   --config F                (stops the `zkfleet up` of F: apps/supervisor.hpp)
// Each logs in as client admin, or as --client NAME (its certificate client.NAME.crt in the
// config's certs_dir); a job is seen and cancelled only by the client that submitted it, or admin.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>

#include "apps/client.hpp"
#include "apps/client_args.hpp"
#include "apps/commands.hpp"
#include "apps/supervisor.hpp"
#include "common/buffer/buffer_store.hpp"
#include "common/util/progress.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "node/job_spec.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/prover_id.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"
#include "zk/formats/json.hpp"

namespace zk::apps {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

int run_down(const opt_t& config) {
  const auto c = client_config(config_path(config));
  const std::string pids = up_files(c).pid_file;
  const auto up = read_supervisor_pid(pids);
  if (!up) throw std::runtime_error(pids + ": no cluster of this config is up");
  if (::kill(*up, SIGTERM) != 0) {
    fs::remove(pids);
    throw std::runtime_error("zkfleet up (pid " + std::to_string(*up) + ") is gone; removed " +
                             pids);
  }
  auto end = std::chrono::steady_clock::now() + 20s;
  while (fs::exists(pids) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(100ms);
  if (fs::exists(pids))
    throw std::runtime_error("zkfleet up (pid " + std::to_string(*up) +
                             ") did not stop within 20 s");
  std::printf("zkfleet down: stopped\n");
  return 0;
}

// An input file uploaded through the scheduler's HTTP endpoint (PUT /v1/uploads): the cluster
// reads it from there, wherever this client runs. Streamed from disk (any size, in bounded memory),
// with a progress line on a terminal, as JSON (`json`: an input.json, a C1 whatever its name) or
// bytes; its object in the store, or an error naming the file and, whenever the scheduler
// answered, its status and message (a 413 names the bound to raise).
node::stored_object_t upload(const config::config_t& c, const tls_identity_t& who,
                             const std::string& file, bool json) {
  std::error_code ec;
  const uint64_t size = fs::file_size(file, ec);
  if (ec) throw std::runtime_error(file + ": cannot read the input (" + ec.message() + ")");
  net::http_call_t call;
  call.method = "PUT";
  call.target = "/v1/uploads";
  call.body_file = file;
  call.headers = {{"Content-Type", json ? "application/json" : "application/octet-stream"}};
  // The scheduler takes a body at 1 MiB/s at least (its deadline): the same here, plus a minute.
  call.timeout = std::max<std::chrono::milliseconds>(
      std::chrono::minutes(10), std::chrono::seconds(60 + size / (uint64_t(1) << 20)));
  call.max_answer = 64 << 10;  // a reference, or an error
  util::progress_bar_t bar("uploading " + fs::path(file).filename().string(), size,
                           util::progress_unit_t::bytes);
  call.on_progress = [&bar](uint64_t done, uint64_t) { bar.update(done); };
  const auto a = call_scheduler_http(c, who, call);
  bar.finish();
  if (!a) throw std::runtime_error(file + ": the upload failed: " + a.error());
  std::string why = a->body;
  try {
    const auto j = nlohmann::json::parse(a->body);
    if (a->status == 201) {
      auto o = node::parse_upload(j.at("input").get<std::string>());
      if (!o) throw std::runtime_error(file + ": the scheduler answered no upload reference");
      return *o;
    }
    why = j.value("error", a->body);
  } catch (const std::exception&) {
  }
  while (!why.empty() && why.back() == '\n') why.pop_back();
  throw std::runtime_error(file + ": the scheduler refused the upload (" +
                           std::to_string(a->status) + "): " + why);
}

struct submit_args_t {
  opt_t config, client, circuit, inputs, input_paths, partitions, priority;
  opt_t seed, c1, prover_id, sector;
  opt_t vanilla, comm_r_old, comm_r_new, comm_d_new;
};

int run_submit(const submit_args_t& a) {
  const std::string path = config_path(a.config);
  actors::job_request_msg r;
  r.circuit = a.circuit.one();
  if (r.circuit.empty()) throw usage_error("--circuit ID is required");
  const auto c = client_config(path);
  // The circuit's kind decides what the job is (a circuit this config does not list is known by
  // its flags: the scheduler refuses it anyway).
  const config::circuit_t* circuit_cfg = c.find_circuit(r.circuit);
  const config::circuit_kind_t kind = circuit_cfg         ? circuit_cfg->kind
                                      : a.c1.given()      ? config::circuit_kind_t::filecoin_porep
                                      : a.vanilla.given() ? config::circuit_kind_t::filecoin_snap
                                      : a.seed.given()    ? config::circuit_kind_t::porep_lite
                                                          : config::circuit_kind_t::circom;
  // A Filecoin C2 or SnapDeals job has the registered proof's partitions (the C1 or the vanilla
  // proofs must have as many).
  std::string natural = "1";
  if (circuit_cfg && kind == config::circuit_kind_t::filecoin_porep)
    natural = std::to_string(
        filecoin::porep_config(filecoin::registered_proof(circuit_cfg->registered_proof))
            .partitions);
  if (circuit_cfg && kind == config::circuit_kind_t::filecoin_snap)
    natural = std::to_string(
        filecoin::update_config(filecoin::registered_update_proof(circuit_cfg->registered_proof))
            .partitions);
  r.partitions =
      uint32_t(parse_uint_arg("--partitions", a.partitions.one(natural), 1, 0xffffffffu));
  if (!a.priority.given()) {
    r.circuit_priority = true;  // the circuit's (config `priority`), else the scheduler's default
  } else {
    auto p = config::parse_priority(a.priority.one());
    if (!p)
      throw usage_error("--priority is one of critical, high, normal, low (got '" +
                        a.priority.one() + "')");
    r.priority = *p;
  }
  const std::string who = a.client.one("admin");
  const std::string kind_name = config::circuit_kind_name(kind);
  // What each kind takes instead, said with the refusal.
  const char* takes =
      kind == config::circuit_kind_t::filecoin_porep
          ? ": its job is a sector's C1 output (JSON or the lotus/curio wrapper, whatever the "
            "file's name): --c1 FILE --prover-id HEX|f0N --sector N"
      : kind == config::circuit_kind_t::filecoin_snap
          ? ": its job is a sector's update vanilla proofs (snap-vproof.json or the raw "
            "partition proofs) and commitments: --vanilla FILE --comm-r-old HEX --comm-r-new HEX "
            "--comm-d-new HEX [--sector N]"
      : kind == config::circuit_kind_t::porep_lite ? ": it takes --seed N"
                                                   : ": it takes --input FILE";
  const std::initializer_list<std::pair<const opt_t*, const char*>> snap_flags = {
      {&a.vanilla, "--vanilla"},
      {&a.comm_r_old, "--comm-r-old"},
      {&a.comm_r_new, "--comm-r-new"},
      {&a.comm_d_new, "--comm-d-new"}};
  auto refuse_flags = [&](std::initializer_list<std::pair<const opt_t*, const char*>> flags) {
    for (const auto& [o, name] : flags)
      if (o->given())
        throw usage_error(std::string(name) + " is not for circuit '" + r.circuit + "' (" +
                          kind_name + ")" + takes);
  };
  // A file the cluster reads: uploaded through scheduler.http (without an HTTP endpoint, or on
  // port 0 — any free port, unknown here —, sent as a path the cluster reads where it runs, as
  // --input-path: a loopback cluster, or hosts sharing a filesystem).
  std::map<std::string, std::string> uploaded;  // "the upload sha256:…" → the file it came from
  auto file_input = [&](const std::string& file, bool json) {
    if (!c.scheduler.http || c.scheduler.http->port == 0) {
      std::fprintf(stderr,
                   "zkfleet submit: scheduler.http is %s in %s: %s is sent as a path the "
                   "synthesis nodes read (under scheduler.input_roots), not uploaded\n",
                   c.scheduler.http ? "port 0 (any free port)" : "not set", c.source.c_str(),
                   file.c_str());
      return node::input_file_t::at(fs::absolute(file).string());
    }
    auto f = node::input_file_t::of(
        upload(c, tls_identity(c, security::role_t::client, who), file, json));
    uploaded[f.name()] = file;
    return f;
  };
  switch (kind) {
    case config::circuit_kind_t::circom: {
      refuse_flags({{&a.seed, "--seed"},
                    {&a.c1, "--c1"},
                    {&a.prover_id, "--prover-id"},
                    {&a.sector, "--sector"}});
      refuse_flags(snap_flags);
      if (a.inputs.given() && a.input_paths.given())
        throw usage_error(
            "--input and --input-path do not mix: a job's inputs are all uploaded or all "
            "on the cluster's hosts");
      node::circom_spec_t spec;
      for (const auto& in : a.inputs.all()) {  // its form by its name: .json an input.json
        const auto form = node::circom_form_of_path(in);
        spec.inputs.push_back(
            {form, file_input(in, form == node::circom_input_t::form_t::input_json)});
      }
      for (const auto& in : a.input_paths.all())  // read by the synthesis nodes: absolute paths
        spec.inputs.push_back(
            {node::circom_form_of_path(in), node::input_file_t::at(fs::absolute(in).string())});
      r.spec = {std::move(spec)};
      break;
    }
    case config::circuit_kind_t::porep_lite:
      refuse_flags({{&a.inputs, "--input"},
                    {&a.input_paths, "--input-path"},
                    {&a.c1, "--c1"},
                    {&a.prover_id, "--prover-id"},
                    {&a.sector, "--sector"}});
      refuse_flags(snap_flags);
      r.spec = {
          node::porep_lite_spec_t{a.seed.given() ? parse_uint_arg("--seed", a.seed.one()) : 0}};
      break;
    case config::circuit_kind_t::filecoin_porep: {
      refuse_flags({{&a.inputs, "--input"}, {&a.input_paths, "--input-path"}, {&a.seed, "--seed"}});
      refuse_flags(snap_flags);
      std::string missing;  // every one missing, named at once
      for (const auto& [o, what] : {std::pair<const opt_t*, const char*>{&a.c1, "--c1 FILE"},
                                    {&a.prover_id, "--prover-id HEX"},
                                    {&a.sector, "--sector N"}})
        if (!o->given()) missing += (missing.empty() ? "" : ", ") + std::string(what);
      if (!missing.empty())
        throw usage_error(
            "circuit '" + r.circuit +
            "' (filecoin-porep) takes --c1 FILE --prover-id HEX --sector N: " + missing +
            (missing.find(',') == std::string::npos ? " is" : " are") + " missing");
      node::filecoin_porep_spec_t spec;
      spec.prover_id = zk::filecoin::parse_prover_id(a.prover_id.one(), "--prover-id");
      spec.sector = parse_uint_arg("--sector", a.sector.one());
      // Read here first: a C1 that does not read is refused with the C1 reader's own message
      // (the file, the JSON path and byte), before anything is uploaded.
      (void)zk::filecoin::read_c1_file(a.c1.one());
      spec.c1 = file_input(a.c1.one(), true);  // a C1 is JSON, whatever its file's name
      r.spec = {std::move(spec)};
      break;
    }
    case config::circuit_kind_t::filecoin_snap: {
      refuse_flags({{&a.inputs, "--input"},
                    {&a.input_paths, "--input-path"},
                    {&a.seed, "--seed"},
                    {&a.c1, "--c1"},
                    {&a.prover_id, "--prover-id"}});
      require_options({{&a.vanilla, "--vanilla FILE"},
                       {&a.comm_r_old, "--comm-r-old HEX"},
                       {&a.comm_r_new, "--comm-r-new HEX"},
                       {&a.comm_d_new, "--comm-d-new HEX"}});
      node::filecoin_snap_spec_t spec;
      spec.comms.comm_r_old = zk::parse_hex32(a.comm_r_old.one(), "--comm-r-old");
      spec.comms.comm_r_new = zk::parse_hex32(a.comm_r_new.one(), "--comm-r-new");
      spec.comms.comm_d_new = zk::parse_hex32(a.comm_d_new.one(), "--comm-d-new");
      if (a.sector.given()) spec.sector = parse_uint_arg("--sector", a.sector.one());
      // Read here first (every count bounded, the file named), before anything is uploaded; the
      // scheduler takes Curio's snap-vproof.json: raw partition proofs go as that.
      const std::string file = a.vanilla.one();
      std::vector<std::vector<uint8_t>> parts;
      if (circuit_cfg) {
        const auto uc = filecoin::update_config(
            filecoin::registered_update_proof(circuit_cfg->registered_proof));
        for (const auto& p : filecoin::read_update_vanilla_file(file, uc))
          parts.push_back(filecoin::encode_update_partition_proof(p));
      }
      char first = 0;  // snap-vproof.json starts with '[' (read_update_vanilla_file's test)
      std::ifstream(file, std::ios::binary).get(first);
      // A path the scheduler reads takes either form; an upload is JSON: raw proofs go as that.
      const bool uploads = c.scheduler.http && c.scheduler.http->port != 0;
      if (first == '[' || !uploads) {
        spec.vanilla = file_input(file, true);
      } else {
        if (!circuit_cfg)
          throw usage_error(file + " holds raw partition proofs: they are uploaded as " +
                            "snap-vproof.json, which takes the circuit's registered_proof from " +
                            "the config, and circuit '" + r.circuit + "' is not in " + path +
                            " (give the snap-vproof.json form)");
        const fs::path tmp = fs::temp_directory_path() /
                             ("zkfleet-snap-vproof-" + std::to_string(::getpid()) + ".json");
        zk::write_file_atomic(tmp.string(), filecoin::snap_vproof_json(parts));
        try {
          spec.vanilla = file_input(tmp.string(), true);
        } catch (...) {
          fs::remove(tmp);
          throw;
        }
        fs::remove(tmp);
        uploaded[spec.vanilla.name()] = file;
      }
      r.spec = {std::move(spec)};
      break;
    }
  }
  cluster_client_t client(c, who);
  try {
    std::printf("%s\n", client.submit(r).c_str());
  } catch (const std::exception& e) {  // the scheduler names an upload; the user named a file
    std::string why = e.what();
    for (const auto& [name, file] : uploaded)
      for (size_t at; (at = why.find(name)) != std::string::npos;)
        why.replace(at, name.size(), file);
    throw std::runtime_error(why);
  }
  return 0;
}

int run_status(const opt_t& config, const opt_t& client_name, const opt_t& job) {
  const std::string path = config_path(config);
  const bool one_job = job.given();
  const std::string id = one_job ? job_arg(job) : "";
  cluster_client_t client(client_config(path), client_name.one("admin"));
  if (!one_job) {  // the nodes as the scheduler accounts them: one row per node name
    std::printf("%-16s %5s %12s %12s %12s %6s %9s %s\n", "node", "alive", "reserved", "peak",
                "budget", "synth", "pipeline", "work");
    for (const auto& n : client.nodes())
      std::printf("%-16s %5s %12s %12s %12s %6u %9u %s\n", n.name.c_str(), n.alive ? "yes" : "no",
                  buffer::format_bytes(n.reserved).c_str(),
                  buffer::format_bytes(n.peak_reserved).c_str(),
                  buffer::format_bytes(n.budget).c_str(), n.synthesizing, n.pipeline,
                  n.drained    ? "drained"
                  : n.draining ? "draining"
                               : "takes");
    return 0;
  }
  const auto st = client.status(id);
  std::printf("job %s (#%llu, %s, %s, %s): %u/%u done, %u failed%s%s%s\n", st.id.c_str(),
              (unsigned long long)st.seq, st.owner.c_str(), st.circuit.c_str(),
              config::priority_name(st.priority), st.done, st.partitions, st.failed,
              st.cancelled ? ", cancelled" : "", st.finished ? ", finished" : "",
              st.error.empty() ? "" : (": " + st.error).c_str());
  if (!st.waiting.empty()) std::printf("  waiting: %s\n", st.waiting.c_str());
  for (size_t k = 0; k < st.part_states.size(); ++k)
    std::printf("  partition %zu: %s\n", k, st.part_states[k].c_str());
  return 0;
}

// A Filecoin C2 job's proof: its partitions' 192-byte proofs in partition order, written raw
// (what lotus and Filecoin's verifier take) and as hex.
void write_sector_proof(const std::string& stem, const actors::job_result_msg& r) {
  std::vector<std::pair<uint32_t, std::string>> parts;
  double synth = 0, prove = 0;
  for (const auto& p : r.proofs) {
    parts.emplace_back(p.partition, p.proof_json);
    synth += p.synth_seconds;
    prove += p.prove_seconds;
  }
  auto bytes = node::assemble_sector_proof(r.status.partitions, parts);
  if (!bytes) throw std::runtime_error("job " + r.status.id + ": " + bytes.error());
  const std::string raw = stem + "-proof.bin", hex = stem + "-proof.hex";
  zk::write_file_atomic(
      raw, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  zk::write_file_atomic(hex, zk::to_hex(bytes->data(), bytes->size()) + "\n");
  std::printf("%s %s (%u partition%s, %zu bytes; synth %.1f ms, prove %.1f ms, verified)\n",
              raw.c_str(), hex.c_str(), r.status.partitions, r.status.partitions == 1 ? "" : "s",
              bytes->size(), synth * 1e3, prove * 1e3);
}

// Each proof of `r` as out/job<ID>-p<K>-proof.json and -public.json (ID: the job's id, as
// submit printed it, whichever form of the job the user typed); how many were written.
size_t write_proofs(const std::string& out, const actors::job_result_msg& r) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec)
    throw std::runtime_error(out + ": cannot create the directory for the proofs: " + ec.message());
  if (config::uses_filecoin_params(r.status.kind)) {
    write_sector_proof(out + "/job" + r.status.id, r);  // one sector proof of every partition
    return r.proofs.size();
  }
  for (const auto& p : r.proofs) {
    std::string stem = out + "/job" + r.status.id + "-p" + std::to_string(p.partition);
    formats::write_proof_json(stem + "-proof.json",
                              formats::parse_proof_json(p.proof_json, "proof"));
    formats::write_public_json(stem + "-public.json", p.public_signals);
    std::printf("%s-proof.json %s-public.json (synth %.1f ms, prove %.1f ms, verified)\n",
                stem.c_str(), stem.c_str(), p.synth_seconds * 1e3, p.prove_seconds * 1e3);
  }
  return r.proofs.size();
}

// The job's result once it has finished, within `wait`. With a progress line on a terminal, the
// scheduler's count of proved partitions is polled every second meanwhile (a status is small;
// the proofs come once, in await's answer).
std::optional<actors::job_result_msg> await_job(cluster_client_t& client, const std::string& job,
                                                std::chrono::seconds wait,
                                                util::progress_bar_t& bar) {
  if (!bar.active()) return client.await(job, wait);
  const auto end = std::chrono::steady_clock::now() + wait;
  for (;;) {
    const auto st = client.status(job);
    bar.set_total(st.partitions);
    bar.update(st.done);
    if (st.finished || st.cancelled || st.failed > 0) break;
    const auto now = std::chrono::steady_clock::now();
    if (now >= end) return std::nullopt;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(1s, end - now));
  }
  const auto left =
      std::chrono::duration_cast<std::chrono::seconds>(end - std::chrono::steady_clock::now());
  return client.await(job, std::max(left, std::chrono::seconds(1)));
}

int run_await(const opt_t& config, const opt_t& client_name, const opt_t& job_opt,
              const opt_t& out_opt, const opt_t& timeout_opt) {
  const std::string path = config_path(config);
  const std::string job = job_arg(job_opt);
  const auto timeout =
      std::chrono::seconds(parse_uint_arg("--timeout", timeout_opt.one("600"), 1, 30 * 86400));
  // Without a trailing '/': the files printed below never read "proofs//job…".
  std::string out = out_opt.one(".");
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  const auto c = client_config(path);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))  // before the wait, not after it
    throw std::runtime_error(out + ": --out names a file; it needs a directory for the proofs");
  // A scheduler that restarts meanwhile (its journal keeps the job) is reconnected to, with a
  // backoff, until --timeout; the first connection's failure is reported at once.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::chrono::duration_cast<std::chrono::seconds>(deadline -
                                                            std::chrono::steady_clock::now());
  };
  std::optional<actors::job_result_msg> r;
  util::progress_bar_t bar("awaiting job " + job.substr(0, 8), 0, util::progress_unit_t::proofs);
  auto backoff = std::chrono::milliseconds(500);
  auto pause = [&] {
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(backoff, left()));
    backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(5));
  };
  for (bool reconnecting = false;;) {
    std::unique_ptr<cluster_client_t> client;
    try {
      client = std::make_unique<cluster_client_t>(c, client_name.one("admin"));
    } catch (const scheduler_lost_error& e) {  // it was there, and went: not a config error
      if (left().count() <= 0) throw;
      std::fprintf(stderr, "zkfleet await: lost the scheduler (%s); reconnecting\n", e.what());
      reconnecting = true;
      pause();
      continue;
    } catch (const std::exception& e) {
      if (!reconnecting || left().count() <= 0) throw;
      std::fprintf(stderr, "zkfleet await: the scheduler is not back yet (%s)\n", e.what());
      pause();
      continue;
    }
    try {
      r = await_job(*client, job, std::max(left(), std::chrono::seconds(1)), bar);
    } catch (const job_ended_error& e) {
      // Cancelled or failed: the proofs it finished are still written, then the reason.
      const auto done = client->proofs(job);
      const size_t n = write_proofs(out, done);
      throw std::runtime_error(std::string(e.what()) + " (" + std::to_string(n) + " of " +
                               std::to_string(done.status.partitions) + " proofs written to " +
                               out + ")");
    } catch (const scheduler_lost_error& e) {
      if (left().count() <= 0) throw;
      std::fprintf(stderr, "zkfleet await: lost the scheduler (%s); reconnecting\n", e.what());
      reconnecting = true;
      pause();
      continue;
    }
    if (!r) {
      const auto st = client->status(job);
      throw std::runtime_error(
          "job " + job + " is not finished after " + std::to_string(timeout.count()) + " s (" +
          std::to_string(st.done) + " of " + std::to_string(st.partitions) +
          " partitions proved): wait longer with --timeout, or see `zkfleet status`");
    }
    break;
  }
  bar.update(r->proofs.size());
  bar.finish();
  write_proofs(out, *r);
  return 0;
}

int run_cancel(const opt_t& config, const opt_t& client_name, const opt_t& job) {
  const std::string path = config_path(config);
  const std::string id = job_arg(job);
  cluster_client_t client(client_config(path), client_name.one("admin"));
  const bool cancelled = client.cancel(id);
  std::printf(cancelled ? "cancelled\n" : "already finished\n");
  return cancelled ? 0 : 1;
}

}  // namespace

void add_client_commands(CLI::App& root, commands_t& out) {
  {
    CLI::App* app =
        add_command(root, "down", "Stop the `zkfleet up` of a config and every node it started");
    const opt_t config = add_config(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_down(config); };
    out.push_back(std::move(c));
  }
  {
    CLI::App* app =
        add_command(root, "submit", "Submit a job to a running cluster; prints the job id");
    submit_args_t s;
    s.config = add_config(app);
    s.circuit = add_value(app, "--circuit", "ID", "a circuit of the config (required)");
    s.inputs =
        add_values(app, "--input", "FILE",
                   "circom: a .wtns or an input.json (circuits with a witness_generator; by its "
                   "name, *.json), uploaded through scheduler.http (without it, read by the "
                   "cluster where it runs, as --input-path); one for every partition, or one per "
                   "partition: --input A --input B");
    s.input_paths =
        add_values(app, "--input-path", "PATH",
                   "circom, instead of --input: a file the synthesis nodes read where they run "
                   "(under scheduler.input_roots), not uploaded");
    s.seed = add_value(app, "--seed", "N", "porep-lite: the replica's seed (default 0)");
    s.c1 = add_value(app, "--c1", "FILE",
                     "filecoin-porep: the sector's C1 output (the API's JSON or the lotus-bench / "
                     "curio wrapper, whatever the file's name), uploaded as --input is");
    s.prover_id = add_value(
        app, "--prover-id", "HEX|f0N",
        "filecoin-porep: the prover id (64 hex digits) or the miner's actor address f0N/t0N");
    s.sector = add_value(app, "--sector", "N", "filecoin-porep, filecoin-snap: the sector number");
    s.vanilla = add_value(app, "--vanilla", "FILE",
                          "filecoin-snap: the update's vanilla partition proofs (Curio's "
                          "snap-vproof.json, or the raw bincode proofs concatenated), uploaded as "
                          "--input is");
    s.comm_r_old = add_value(app, "--comm-r-old", "HEX", "filecoin-snap: the sector key's comm_r");
    s.comm_r_new = add_value(app, "--comm-r-new", "HEX", "filecoin-snap: the new replica's comm_r");
    s.comm_d_new = add_value(app, "--comm-d-new", "HEX", "filecoin-snap: the new data's comm_d");
    s.partitions =
        add_value(app, "--partitions", "N",
                  "partitions of the job (default 1; a filecoin-porep circuit: its registered "
                  "proof's)");
    s.priority = add_value(app, "--priority", "P",
                           "critical, high, normal or low (default: the circuit's priority, else "
                           "scheduler.default_priority)");
    s.client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_submit(s); };
    c.stray_hint = [=] {
      return s.inputs.given() ? std::string(" (each input file needs its own --input)")
                              : std::string();
    };
    out.push_back(std::move(c));
  }
  {
    CLI::App* app =
        add_command(root, "status",
                    "A job's progress, or (no JOB) every node's memory: reserved now, peak, "
                    "budget");
    const opt_t job = add_positional(
        app, "JOB", "the job: its id (as zkfleet submit printed it) or its number (7, #7, job7)",
        false);
    const opt_t config = add_config(app);
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_status(config, client, job); };
    c.takes = "status takes at most one job";
    out.push_back(std::move(c));
  }
  {
    CLI::App* app =
        add_command(root, "await",
                    "Wait for a job and write each partition's proof.json and public.json (a "
                    "Filecoin C2 job: the sector's proof, job<ID>-proof.bin and .hex); "
                    "exit 1 with the reason when it failed or was cancelled");
    const opt_t job = add_positional(app, "JOB", "the job: its id or its number");
    const opt_t config = add_config(app);
    const opt_t out_dir = add_value(app, "--out", "DIR", "where the proofs go (default .)");
    const opt_t timeout =
        add_value(app, "--timeout", "SECONDS", "how long to wait (1 s to 30 days, default 600)");
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_await(config, client, job, out_dir, timeout); };
    c.takes = "await takes one job";
    out.push_back(std::move(c));
  }
  {
    CLI::App* app =
        add_command(root, "cancel", "Cancel a job; exit 1 when it had already finished");
    const opt_t job = add_positional(app, "JOB", "the job: its id or its number");
    const opt_t config = add_config(app);
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_cancel(config, client, job); };
    c.takes = "cancel takes one job";
    out.push_back(std::move(c));
  }
}

}  // namespace zk::apps
