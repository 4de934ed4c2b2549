#pragma once
// The API server's shared state and its routes (node/api/server.hpp lists the files), and the
// JSON views and error answers they share: private to node/api.
#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/timeline/render.hpp"
#include "node/api/server.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

using json = nlohmann::json;

// --- views.cpp: the JSON of the API's answers (docs/api.md) and its errors ---------------------

json job_json(const job_status_msg& s, bool parts);
json node_json(const node_usage_msg& n);
json stats_json(const timeline::stats_t& s);
net::http_response_t json_response(unsigned status, const json& body);
net::http_response_t api_error(unsigned status, const std::string& why);
// A body sent as a form (Content-Type application/x-www-form-urlencoded: what `curl -d` sends):
// refused with the error that says how to send a file or a JSON job instead; any other type
// passes.
check_t check_not_form_body(const net::http_request_t& r);
// A hint for an input that did not parse: `curl -d @FILE` strips every CR and LF byte from the
// file, so a binary body of some size without a single one was most likely mangled so. "" else.
std::string mangled_body_hint(uint64_t size, bool any_newline);
// The answer for an ask that got none: its status and reason.
net::http_response_t from_failure(const api_failure_t& f);
net::http_response_t method_not_allowed(const std::string& method, const char* allow);
bool is(const net::http_request_t& r, std::initializer_list<const char*> methods);

// --- uploads.cpp: an upload's body as it streams in -------------------------------------------

// The sink of an upload's body (PUT /v1/uploads, POST /v1/jobs?circuit=): the store's receiver,
// fed a piece at a time by the HTTP server; the route commits it.
class upload_sink_t : public net::http_body_sink_t {
 public:
  explicit upload_sink_t(std::unique_ptr<upload_receiver_t> r) : receiver_(std::move(r)) {}
  std::optional<net::http_response_t> write(std::string_view piece) override;
  std::optional<net::http_response_t> finish() override { return std::nullopt; }
  upload_receiver_t& receiver() { return *receiver_; }

 private:
  std::unique_ptr<upload_receiver_t> receiver_;
};
// The answer for an upload that was not taken: 413, 400, or 500 (the store's fault).
net::http_response_t upload_refusal(const upload_error_t& e);
// The largest JSON body of POST /v1/jobs (its input inside): in memory, so bounded apart from
// scheduler.max_upload (larger inputs go as the body of POST /v1/jobs?circuit=ID).
inline constexpr uint64_t max_json_job_body = uint64_t(16) << 20;
// The most proofs one GET /v1/jobs/ID/proofs answers (?from=K pages on; a Link header names the
// next page).
inline constexpr uint32_t max_proofs_per_answer = 1000;

// --- the server's state
// ---------------------------------------------------------------------------

struct api_server_t::impl_t {
  std::shared_ptr<api_gateway_t> gateway;
  std::shared_ptr<sessions_t> sessions;
  api_options_t o;
  bool secure = false;

  std::mutex mu;
  std::map<std::string, std::string> session_of;  // client name → its session at the scheduler
  std::vector<circuit_def_t> circuits;
  std::chrono::steady_clock::time_point circuits_at{};

  struct stream_t {
    std::shared_ptr<net::http_stream_t> out;
    std::string token;      // the jobs it may see
    bool all_jobs = false;  // admin: the timeline of every job
    int64_t since = std::numeric_limits<int64_t>::min();
  };
  std::vector<stream_t> streams;
  unsigned waits = 0;  // GET /v1/jobs/ID?wait=S in progress
  std::condition_variable wake;
  bool stopping = false;
  std::thread publisher;

  impl_t(std::shared_ptr<api_gateway_t> g, std::shared_ptr<sessions_t> se, api_options_t opt)
      : gateway(std::move(g)),
        sessions(std::move(se)),
        o(std::move(opt)),
        secure(o.tls.enabled()) {}

  // --- identities (auth.cpp)
  struct who_t {
    std::string role, name;
  };
  std::optional<who_t> authenticate(const net::http_request_t& r);
  std::string session(const std::string& client);
  std::optional<circuit_def_t> circuit(const std::string& id);
  // "a, b, c": the scheduler's circuit ids (for an unknown circuit's error).
  std::string circuit_ids();

  // --- routes
  // What a request may send, from its header (on the server's io thread): uploads stream into
  // the store under scheduler.max_upload once the caller is known to be a client.
  net::http_body_plan_t body_plan(const net::http_request_t& head);
  void handle(net::http_request_t r, const std::shared_ptr<net::http_reply_t>& reply);
  net::http_response_t healthz(const net::http_request_t& r);
  net::http_response_t readyz(const net::http_request_t& r);
  net::http_response_t asset(const net::http_request_t& r);
  net::http_response_t metrics(const net::http_request_t& r);
  net::http_response_t jobs(const net::http_request_t& r, const who_t& who);
  net::http_response_t job(const net::http_request_t& r, const who_t& who);
  net::http_response_t submit(const net::http_request_t& r, const who_t& who);
  // GET /v1/jobs/ID?wait=S, POST /v1/jobs/ID/retry and /priority (jobs.cpp)
  net::http_response_t wait(const net::http_request_t& r, const std::string& token,
                            const std::string& job);
  net::http_response_t job_action(const net::http_request_t& r, const std::string& token,
                                  const std::string& job, const std::string& action);
  // POST /v1/nodes/NAME/drain|undrain (cluster.cpp)
  net::http_response_t node_action(const net::http_request_t& r, const who_t& who);
  net::http_response_t upload_put(const net::http_request_t& r, const who_t& who);
  net::http_response_t upload_get(const net::http_request_t& r, const who_t& who);
  net::http_response_t nodes();
  net::http_response_t stats(const net::http_request_t& r);
  net::http_response_t timeline(const net::http_request_t& r, const who_t& who);
  void events(const net::http_request_t& r, const who_t& who,
              const std::shared_ptr<net::http_reply_t>& reply);
  void publish();  // the /v1/events thread
  // The timeline after `since` with its "now_ns" (where the next ask starts); nullopt when the
  // aggregator does not answer. With `session`: only the events of that session's jobs (and
  // those of no job), as a client sees it; admin (empty session) sees every job's.
  std::optional<json> timeline_since(int64_t since, const std::string& session = "");
  api_result_t<json> node_list();  // /v1/nodes's list, or why the scheduler did not give it
};

}  // namespace zk::node
