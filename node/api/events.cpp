// GET /v1/events: server-sent events (nodes, stats, the caller's jobs, the timeline), written by
// one publisher thread every event_period.
#include <algorithm>

#include "node/api/service.hpp"

namespace zk::node {

void api_server_t::impl_t::events(const net::http_request_t&, const who_t& who,
                                  const std::shared_ptr<net::http_reply_t>& reply) {
  std::unique_lock<std::mutex> lock(mu);
  streams.erase(std::remove_if(streams.begin(), streams.end(),
                               [](const stream_t& s) { return !s.out->open(); }),
                streams.end());
  if (streams.size() >= o.max_streams) {
    lock.unlock();
    return reply->respond(api_error(503, "too many event streams open; try again later"));
  }
  lock.unlock();
  auto out = reply->stream("text/event-stream", {{"X-Accel-Buffering", "no"}});
  if (!out) return;
  out->write(": zkfleet events\n\n");
  const std::string token = session(who.name);
  lock.lock();
  streams.push_back({std::move(out), token});
  wake.notify_all();
}

void api_server_t::impl_t::publish() {
  std::unique_lock<std::mutex> lock(mu);
  while (!stopping) {
    wake.wait_for(lock, o.event_period, [this] { return stopping; });
    if (stopping) break;
    streams.erase(std::remove_if(streams.begin(), streams.end(),
                                 [](const stream_t& s) { return !s.out->open(); }),
                  streams.end());
    if (streams.empty()) {
      wake.wait(lock, [this] { return stopping || !streams.empty(); });
      continue;
    }
    auto batch = streams;  // asked for without the lock held
    lock.unlock();
    auto message = [](const char* event, const json& data) {
      return std::string("event: ") + event + "\ndata: " + data.dump() + "\n\n";
    };
    std::string shared;
    if (auto list = node_list()) shared += message("nodes", {{"nodes", *list}});
    net::http_request_t window;
    auto st = stats(window);
    if (st.status == 200)
      shared += "event: stats\ndata: " + st.body.substr(0, st.body.size() - 1) + "\n\n";
    for (auto& s : batch) {
      std::string text = shared;
      if (auto list = gateway->jobs(s.token, 100u)) {
        json out = json::array();
        for (const auto& j : *list) out.push_back(job_json(j, false));
        text += message("jobs", {{"jobs", out}});
      }
      if (auto t = timeline_since(s.since)) {
        text += message("timeline", *t);
        s.since = (*t)["now_ns"].get<int64_t>();
      }
      s.out->write(std::move(text));
    }
    lock.lock();
    for (const auto& s : batch)  // keep each stream's place in the timeline
      for (auto& live : streams)
        if (live.out == s.out) live.since = s.since;
  }
  for (auto& s : streams) s.out->close();
  streams.clear();
}

}  // namespace zk::node
