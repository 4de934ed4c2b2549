// zkfleet timeline [--format ascii|chrome|json|stats|prometheus] [--save FILE] (<events-file> |
// --config F): the timeline's renderers on a saved events file, or on a running cluster's merged
// timeline (every reporter flushed first; apps/client.hpp). --follow (with --config): the live
// waterfall in the terminal, redrawn every second until Ctrl-C.
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "apps/client.hpp"
#include "apps/cluster.hpp"
#include "apps/commands.hpp"
#include "common/timeline/render.hpp"

namespace zk::apps {
namespace {

unsigned terminal_rows() {
  winsize w{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row >= 10) return w.ws_row;
  return 40;
}

// The live waterfall: the last `window` of the cluster's timeline, a header with throughput and
// the bottleneck, redrawn every `period` until Ctrl-C (or `frames` draws, when not 0: tests).
int follow(const std::string& config, const std::string& client, std::chrono::seconds window,
           unsigned frames) {
  catch_stop_signals();
  const auto c = config::load_config(config, {false});  // circuits' files may be elsewhere
  std::unique_ptr<cluster_client_t> cluster;
  for (unsigned drawn = 0; !stop_requested() && (frames == 0 || drawn < frames);) {
    std::string screen;
    try {
      if (!cluster) cluster = std::make_unique<cluster_client_t>(c, client);
      const timeline::aggregator_t agg = cluster->timeline();
      auto ev = agg.events();
      const int64_t last = ev.empty() ? 0 : ev.back().t_ns;
      const int64_t from = last - int64_t(window.count()) * 1000000000;
      std::vector<timeline::event_t> recent;
      for (const auto& e : ev)
        if (e.t_ns >= from) recent.push_back(e);
      const auto st = timeline::compute_stats(recent, agg.names(), c.scheduler.lookahead);
      char head[256];
      std::snprintf(head, sizeof head,
                    "zkfleet timeline --follow: last %llds, %zu proofs, %.1f proofs/min "
                    "(Ctrl-C stops)\n",
                    (long long)window.count(), st.proofs, st.proofs_per_minute);
      const unsigned rows = terminal_rows();
      screen =
          head + (st.verdict.empty() ? std::string() : st.verdict + "\n") + "\n" +
          timeline::render_ascii(recent, agg.names(), terminal_width(), rows > 8 ? rows - 8 : 2);
    } catch (const std::exception& e) {
      cluster.reset();  // reconnect on the next draw
      screen = std::string("zkfleet timeline --follow: ") + e.what() + " (retrying)\n";
    }
    std::printf("%s%s", ::isatty(STDOUT_FILENO) ? "\x1b[H\x1b[2J" : "", screen.c_str());
    std::fflush(stdout);
    ++drawn;
    for (int i = 0; i < 10 && !stop_requested() && (frames == 0 || drawn < frames); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return 0;
}

int run_timeline(const std::string& format, const std::string& config, const std::string& client,
                 const std::string& save, const std::string& file, bool live,
                 const std::string& window, const std::string& frames) {
  if (live) {
    if (config.empty()) throw usage_error("timeline --follow needs --config F (a running cluster)");
    if (!file.empty() || !save.empty())
      throw usage_error("timeline --follow takes neither an events file nor --save");
    return follow(config, client,
                  std::chrono::seconds(parse_uint_arg("--window", window, 1, 86400)),
                  unsigned(parse_uint_arg("--frames", frames, 0, 1000000)));
  }
  if (file.empty() == config.empty())
    throw usage_error(file.empty() ? "timeline needs an events file (e.g. from zkfleet demo "
                                     "--trace FILE) or --config F (a running cluster)"
                                   : "timeline takes an events file or --config F, not both");
  if (format != "ascii" && format != "chrome" && format != "json" && format != "stats" &&
      format != "prometheus")
    throw usage_error("unknown --format '" + format + "' (ascii, chrome, json, stats, prometheus)");
  timeline::aggregator_t agg =
      !config.empty() ? fetch_cluster_timeline(config, client) : timeline::aggregator_t::load(file);
  if (!save.empty()) agg.save(save);
  auto ev = agg.events();
  if (format == "ascii")
    std::printf("%s", timeline::render_ascii(ev, agg.names(), terminal_width()).c_str());
  else if (format == "chrome")
    std::printf("%s", timeline::render_chrome(ev, agg.names()).c_str());
  else if (format == "json")
    std::printf("%s", timeline::render_json(ev, agg.names()).c_str());
  else if (format == "stats") {
    // The running cluster's lookahead setting shapes the advice; a saved file's is unknown.
    std::optional<config::lookahead_t> lookahead;
    if (!config.empty()) lookahead = config::load_config(config, {false}).scheduler.lookahead;
    std::printf(
        "%s", timeline::render_stats(timeline::compute_stats(ev, agg.names(), lookahead)).c_str());
  } else
    std::printf("%s", agg.metrics().render_prometheus().c_str());
  return 0;
}

}  // namespace

void add_timeline_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "timeline",
                  "The merged timeline of a running cluster (--config) or of a saved events file: "
                  "waterfall, Chrome trace, JSON, stats or Prometheus text");
  const opt_t file = add_positional(app, "events-file",
                                    "a saved events file (zkfleet demo --trace, --save)", false);
  const opt_t format =
      add_value(app, "--format", "FORMAT", "ascii (default), chrome, json, stats or prometheus");
  const opt_t config =
      add_value(app, "--config", "FILE", "the running cluster's config file (its scheduler)");
  const opt_t save = add_value(app, "--save", "FILE", "also save the events to FILE");
  const opt_t client =
      add_value(app, "--client", "NAME", "with --config: log in as this client (default admin)");
  const opt_t live =
      add_flag(app, "--follow", "with --config: the live waterfall, redrawn every second (Ctrl-C)");
  const opt_t window =
      add_value(app, "--window", "SECONDS", "with --follow: how far back it shows (default 60)");
  const opt_t frames = add_value(app, "--frames", "N", "with --follow: stop after N draws");
  command_t c;
  c.app = app;
  c.takes = "timeline takes one events file";
  c.run = [=] {
    return run_timeline(format.one("ascii"), config.one(), client.one("admin"), save.one(),
                        file.one(), live.given(), window.one("60"), frames.one("0"));
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
