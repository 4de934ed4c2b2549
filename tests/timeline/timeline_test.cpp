// Timeline: recording, clock correction, aggregation, the event file, and the renderers (golden
// ASCII waterfall, Chrome trace fields, stats naming the bound on scripted pipelines).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/timeline/aggregator.hpp"
#include "common/timeline/metrics.hpp"
#include "common/timeline/recorder.hpp"
#include "common/timeline/render.hpp"
#include "tests/test_util.hpp"

using namespace zk::timeline;
using zk::test::contains;

namespace {

constexpr int64_t ms = 1000000;

event_t ev(uint64_t job, uint32_t part, stage_t s, phase_t p, uint16_t node, uint16_t actor,
           int64_t t) {
  return event_t{job, part, s, p, node, actor, t, 0};
}

// A pipeline of `proofs` partitions: one synthesis worker (node 1), one transfer link (node 1,
// track 1) and one prover (node 2); each stage starts when its input is ready and its resource
// is free. Durations in ms.
std::vector<event_t> pipeline(int proofs, int64_t synth, int64_t xfer, int64_t prove) {
  std::vector<event_t> v;
  int64_t synth_free = 0, xfer_free = 0, prover_free = 0;
  for (int p = 0; p < proofs; ++p) {
    v.push_back(ev(1, p, stage_t::queued, phase_t::begin, 0, 0, 0));
    int64_t s0 = synth_free, s1 = s0 + synth * ms;
    v.push_back(ev(1, p, stage_t::queued, phase_t::end, 0, 0, s0));
    v.push_back(ev(1, p, stage_t::synth, phase_t::begin, 1, 0, s0));
    v.push_back(ev(1, p, stage_t::synth, phase_t::end, 1, 0, s1));
    synth_free = s1;
    int64_t x0 = std::max(s1, xfer_free), x1 = x0 + xfer * ms;
    v.push_back(ev(1, p, stage_t::xfer, phase_t::begin, 1, 1, x0));
    v.push_back(ev(1, p, stage_t::xfer, phase_t::end, 1, 1, x1));
    xfer_free = x1;
    int64_t g0 = std::max(x1, prover_free), g1 = g0 + prove * ms;
    v.push_back(ev(1, p, stage_t::gpu_pickup, phase_t::begin, 2, 0, x1));
    v.push_back(ev(1, p, stage_t::gpu_pickup, phase_t::end, 2, 0, g0));
    v.push_back(ev(1, p, stage_t::gpu, phase_t::begin, 2, 0, g0));
    v.push_back(ev(1, p, stage_t::msm_a, phase_t::begin, 2, 0, g0));
    v.push_back(ev(1, p, stage_t::msm_a, phase_t::end, 2, 0, g0 + prove * ms / 2));
    v.push_back(ev(1, p, stage_t::gpu, phase_t::end, 2, 0, g1));
    v.push_back(ev(1, p, stage_t::done, phase_t::instant, 2, 0, g1));
    prover_free = g1;
  }
  std::stable_sort(v.begin(), v.end(),
                   [](const event_t& a, const event_t& b) { return a.t_ns < b.t_ns; });
  return v;
}

// One partition at a time: each is synthesized when the previous proof is done, `gap` ms later
// (jobs submitted by hand, one after another); `queued_at_start`: every partition was submitted at
// time 0 and waits in the queue (a lookahead of 0: nothing runs ahead of the prover).
std::vector<event_t> one_by_one(int proofs, int64_t synth, int64_t xfer, int64_t prove, int64_t gap,
                                bool queued_at_start) {
  std::vector<event_t> v;
  int64_t t = 0;
  for (int p = 0; p < proofs; ++p) {
    const int64_t s0 = t, s1 = s0 + synth * ms, x1 = s1 + xfer * ms, g1 = x1 + prove * ms;
    v.push_back(ev(1 + p, 0, stage_t::queued, phase_t::begin, 0, 0, queued_at_start ? 0 : s0));
    v.push_back(ev(1 + p, 0, stage_t::queued, phase_t::end, 0, 0, s0));
    v.push_back(ev(1 + p, 0, stage_t::synth, phase_t::begin, 1, 0, s0));
    v.push_back(ev(1 + p, 0, stage_t::synth, phase_t::end, 1, 0, s1));
    v.push_back(ev(1 + p, 0, stage_t::xfer, phase_t::begin, 1, 1, s1));
    v.push_back(ev(1 + p, 0, stage_t::xfer, phase_t::end, 1, 1, x1));
    v.push_back(ev(1 + p, 0, stage_t::gpu, phase_t::begin, 2, 0, x1));
    v.push_back(ev(1 + p, 0, stage_t::gpu, phase_t::end, 2, 0, g1));
    v.push_back(ev(1 + p, 0, stage_t::done, phase_t::instant, 2, 0, g1));
    t = g1 + gap * ms;
  }
  std::stable_sort(v.begin(), v.end(),
                   [](const event_t& a, const event_t& b) { return a.t_ns < b.t_ns; });
  return v;
}

names_t pipeline_names() {
  names_t n;
  n.nodes = {{0, "scheduler"}, {1, "synth-a"}, {2, "prover-a"}};
  n.tracks = {{{1, 0}, "synth"}, {{1, 1}, "link"}, {{2, 0}, "gpu0"}};
  return n;
}

}  // namespace

TEST_CASE("clock offset from the round trip with the smallest delay, either sign") {
  for (int64_t offset : {int64_t(3) * 1000 * ms, -int64_t(7) * 1000 * ms, int64_t(0)}) {
    CAPTURE(offset);
    std::vector<clock_sample_t> samples;
    // asymmetric slow samples, one fast symmetric one
    samples.push_back({0, 0 + 9 * ms + offset, 10 * ms});
    samples.push_back({100 * ms, 100 * ms + 200000 + offset, 100 * ms + 400000});
    samples.push_back({200 * ms, 200 * ms + 1 * ms + offset, 200 * ms + 30 * ms});
    auto e = estimate_offset(samples);
    CHECK(e.rtt_ns == 400000);
    CHECK(std::llabs(e.offset_ns - offset) < 1 * ms);
  }
  CHECK_THROWS(estimate_offset({}));
  CHECK_THROWS(estimate_offset({{10, 5, 5}}));
}

TEST_CASE("aggregation restores the true order of events recorded on skewed clocks") {
  // True order: A(node1) t=10ms, B(node2) t=20ms, C(node3) t=30ms, D(node1) t=40ms.
  const int64_t off1 = 5000 * ms, off2 = -3000 * ms, off3 = 1 * ms;
  aggregator_t agg;
  agg.set_offset(1, off1);
  agg.set_offset(2, off2);
  agg.set_offset(3, off3);
  agg.add({ev(1, 0, stage_t::synth, phase_t::begin, 1, 0, 10 * ms + off1),
           ev(4, 0, stage_t::synth, phase_t::end, 1, 0, 40 * ms + off1)});
  agg.add({ev(2, 0, stage_t::xfer, phase_t::begin, 2, 0, 20 * ms + off2)});
  agg.add({ev(3, 0, stage_t::gpu, phase_t::begin, 3, 0, 30 * ms + off3)});
  auto v = agg.events();
  REQUIRE(v.size() == 4);
  CHECK(v[0].job == 1);
  CHECK(v[1].job == 2);
  CHECK(v[2].job == 3);
  CHECK(v[3].job == 4);
  CHECK(v[3].t_ns == 40 * ms);
}

TEST_CASE("the aggregator bounds its memory and counts what it dropped") {
  aggregator_t agg(10);
  std::vector<event_t> batch;
  for (int i = 0; i < 25; ++i) batch.push_back(ev(i, 0, stage_t::done, phase_t::instant, 0, 0, i));
  agg.add(batch);
  CHECK(agg.size() == 10);
  CHECK(agg.dropped() == 15);
  CHECK(agg.events().front().job == 15);
}

TEST_CASE("recorder: many threads, nothing lost below capacity, overflow counted not blocked") {
  recorder_t rec(7, 1024);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i)
        rec.instant(uint64_t(t), uint32_t(i), stage_t::done, uint16_t(t));
    });
  for (auto& t : ts) t.join();
  std::vector<event_t> out;
  CHECK(rec.drain(out) == 2000);
  CHECK(rec.dropped() == 0);
  for (const auto& e : out) CHECK(e.node == 7);
  for (int i = 0; i < 1500; ++i) rec.instant(9, uint32_t(i), stage_t::done, 0);
  out.clear();
  CHECK(rec.drain(out) == 1024);
  CHECK(rec.dropped() == 1500 - 1024);
}

TEST_CASE("event file round trip and errors naming the line") {
  zk::test::temp_dir_t dir("zk_timeline");
  aggregator_t agg;
  agg.names() = pipeline_names();
  auto v = pipeline(3, 10, 2, 5);
  for (auto& e : v)  // every field distinct from its neighbours: bytes on transfers, jobs apart
    if (e.st == stage_t::xfer) e.bytes = 1000 + e.partition, e.job = 7;
  agg.add(v);
  agg.save(dir.file("t.events"));
  auto back = aggregator_t::load(dir.file("t.events"));
  REQUIRE(back.size() == agg.size());
  CHECK(back.names().node(1) == "synth-a");
  CHECK(back.names().track(2, 0) == "gpu0");
  auto a = agg.events(), b = back.events();
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].t_ns == b[i].t_ns);
    CHECK(a[i].st == b[i].st);
    CHECK(a[i].ph == b[i].ph);
    CHECK(a[i].job == b[i].job);
    CHECK(a[i].partition == b[i].partition);
    CHECK(a[i].node == b[i].node);
    CHECK(a[i].actor == b[i].actor);
    CHECK(a[i].bytes == b[i].bytes);
  }
  {
    std::ofstream f(dir.file("bad.events"));
    f << "zkfleet-timeline 1\nevent 1 0 SYNTH B 1 0 10 0\nevent 1 0 TELEPORT E 1 0 20 0\n";
  }
  CHECK_THROWS_WITH(aggregator_t::load(dir.file("bad.events")),
                    doctest::Contains("bad.events:3: unknown stage 'TELEPORT'"));
}

TEST_CASE("ASCII waterfall of a known event set (golden)") {
  auto v = pipeline(3, 10, 2, 5);
  std::string got = render_ascii(v, pipeline_names(), 60);
  const std::string want =
      "          0us         8.9ms       17.8ms      26.6ms        \n"
      "          +-----------+-----------+-----------+-----------+-\n"
      "job 1/0 | SSSSSSSSSSSSSxxxGGGGGG|                           \n"
      "job 1/1 | .............SSSSSSSSSSSSSSxxGGGGGGG|             \n"
      "job 1/2 | ...........................SSSSSSSSSSSSSxxxGGGGGG|\n"
      "\n"
      "          . QUEUED  S SYNTH  c CHAN_SEND  x XFER  p GPU_PICKUP  G GPU  | DONE  \n";
  CHECK(got == want);
}

TEST_CASE("the waterfall's legend names the prover stages by the prover's backend") {
  const auto v = pipeline(3, 10, 2, 5);  // proven on prover-a
  auto legend = [&](const backends_t& b) {
    const std::string all = render_ascii(v, pipeline_names(), 60, 0, b);
    return all.substr(all.rfind('\n', all.size() - 2) + 1);
  };
  const std::string cpu = legend({{"prover-a", "cpu"}, {"synth-a", "cpu"}});
  CHECK(cpu.find("G prove (CPU)") != std::string::npos);
  CHECK(cpu.find("p prover queue (CPU)") != std::string::npos);
  CHECK(cpu.find("GPU") == std::string::npos);  // nothing says GPU on a CPU prover
  const std::string gpu = legend({{"prover-a", "cuda (NVIDIA H100)"}});
  CHECK(gpu.find("G prove (GPU)") != std::string::npos);
  CHECK(gpu.find("CPU") == std::string::npos);
  // A backend of a node that proved nothing here does not count; none known: the stage names.
  CHECK(legend({{"synth-a", "cuda (x)"}}).find("G GPU ") != std::string::npos);
  auto two = v;
  for (auto& e : two)
    if (e.partition == 2) e.node = 3;
  auto names = pipeline_names();
  names.nodes[3] = "prover-b";
  CHECK(prover_kind(two, names, {{"prover-a", "cpu"}, {"prover-b", "cuda (x)"}}) == "CPU+GPU");
  CHECK(prover_kind(two, names, {}).empty());
}

TEST_CASE("Chrome trace: JSON with the fields Perfetto needs") {
  auto j = nlohmann::json::parse(render_chrome(pipeline(2, 10, 2, 5), pipeline_names()));
  REQUIRE(j.contains("traceEvents"));
  size_t complete = 0, meta = 0;
  for (const auto& e : j["traceEvents"]) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
    if (e["ph"] == "X") {
      ++complete;
      CHECK(e.contains("ts"));
      CHECK(e.contains("dur"));
      CHECK(e.contains("tid"));
      CHECK(e["dur"].get<double>() >= 0);
    }
    if (e["ph"] == "M") {
      ++meta;
      CHECK(e["args"].contains("name"));
    }
  }
  CHECK(complete == 2 * 6);  // queued, synth, xfer, pickup, gpu, msm_a per proof
  CHECK(meta == 3 + 4);      // three processes; four tracks (scheduler, synth, link, gpu0)
}

TEST_CASE("stats name the stage that bounds throughput") {
  const auto names = pipeline_names();
  SUBCASE("synthesis-bound") {
    auto s = compute_stats(pipeline(8, 20, 1, 5), names);
    CHECK(s.bottleneck == "synthesis");
    CHECK(s.verdict.rfind("synthesis-bound: prover idle", 0) == 0);
    CHECK(s.prover_idle_per_proof_s == doctest::Approx(0.015).epsilon(0.01));
  }
  SUBCASE("prover-bound") {
    auto s = compute_stats(pipeline(8, 4, 1, 20), names);
    CHECK(s.bottleneck == "prover");
    CHECK(s.prover_idle_per_proof_s == doctest::Approx(0.0));
  }
  SUBCASE("transfer-bound") {
    auto s = compute_stats(pipeline(8, 4, 15, 5), names);
    CHECK(s.bottleneck == "transfer");
    CHECK(s.verdict.rfind("network-bound: ", 0) == 0);  // the network named, and its busiest link
    CHECK(s.verdict.find("(the busiest, ") != std::string::npos);
    CHECK(s.verdict.find("witness-only") != std::string::npos);
  }
  auto s = compute_stats(pipeline(4, 10, 2, 5), names);
  CHECK(s.proofs == 4);
  CHECK(s.max_queue_depth == 3);  // the first partition leaves the queue as it enters
  // Over time: one synthesis after another drains the queue (3, then fewer, then none).
  REQUIRE(s.queue_depth_series.size() == 10);
  CHECK(s.queue_depth_series.front() == 3);
  CHECK(s.queue_depth_series.back() == 0);
  CHECK(std::is_sorted(s.queue_depth_series.rbegin(), s.queue_depth_series.rend()));
  CHECK(render_stats(s).find("over time (max per tenth of the run): 3 ") != std::string::npos);
  CHECK(render_stats(s).find("bottleneck: synthesis-bound") != std::string::npos);
  CHECK(render_stats(s).find("wire (auto)") == std::string::npos);  // no circuit on auto
  // The partitions of a `wire: auto` circuit: the wire chosen for each, counted.
  auto v = pipeline(4, 10, 2, 5);
  for (uint32_t k = 0; k < 3; ++k)
    v.push_back(ev(1, k, k ? stage_t::wire_packed : stage_t::wire_full, phase_t::instant, 0, 0, 0));
  s = compute_stats(v, names);
  CHECK(s.wire_packed == 2);
  CHECK(s.wire_full == 1);
  CHECK(render_stats(s).find("wire (auto): partitions packed 2, full 1\n") != std::string::npos);
  CHECK(std::string(stage_name(stage_t::wire_full)) == "WIRE_FULL");
}

TEST_CASE("stats: idle for lack of work is not pipeline-bound, auto lookahead is not advised") {
  const auto names = pipeline_names();
  const zk::config::lookahead_t automatic{true, 1, 6}, fixed{false, 2, 8};
  SUBCASE("jobs submitted one after another: the prover waits for jobs (demand)") {
    for (int64_t gap : {0, 100})
      for (const auto& l : {std::optional<zk::config::lookahead_t>{}, std::optional{automatic}}) {
        auto s = compute_stats(one_by_one(5, 5, 2, 5, gap, false), names, l);
        CAPTURE(gap);
        CAPTURE(s.verdict);
        CHECK(s.bottleneck == "demand");
        CHECK(s.verdict.rfind("demand-bound: ", 0) == 0);
        CHECK(s.verdict.find("lookahead") == std::string::npos);
        CHECK(s.prover_starved_per_proof_s == doctest::Approx((gap + 7) * 1e-3).epsilon(0.01));
        CHECK(s.prover_idle_per_proof_s == doctest::Approx((gap + 7) * 1e-3).epsilon(0.01));
        CHECK(contains(render_stats(s), "of it with nothing queued)"));
      }
  }
  SUBCASE("partitions queued while the prover waits: pipeline-bound, and the advice fits") {
    const auto events = one_by_one(5, 5, 2, 5, 0, true);
    auto unknown = compute_stats(events, names);
    CAPTURE(unknown.verdict);
    CHECK(unknown.bottleneck == "pipeline");
    // four gaps of 7 ms; only the last has nothing queued behind it
    CHECK(unknown.prover_idle_per_proof_s == doctest::Approx(0.007).epsilon(0.01));
    CHECK(unknown.prover_starved_per_proof_s == doctest::Approx(0.007 / 4).epsilon(0.01));
    CHECK(contains(unknown.verdict, "raise scheduler.lookahead, or set it to auto"));
    auto f = compute_stats(events, names, fixed);
    CHECK(contains(f.verdict, "raise scheduler.lookahead (now 2), or set it to auto"));
    auto a = compute_stats(events, names, automatic);
    CAPTURE(a.verdict);
    CHECK(a.bottleneck == "pipeline");
    CHECK(contains(a.verdict, "lookahead is auto and capped at 6: raise scheduler.lookahead_max"));
    CHECK_FALSE(contains(a.verdict, "set it to auto"));
    CHECK_FALSE(contains(a.verdict, "use auto"));
  }
}

TEST_CASE("JSON: every event with its stage, phase and the names of nodes and tracks") {
  const auto events = pipeline(2, 10, 2, 5);
  auto j = nlohmann::json::parse(render_json(events, pipeline_names()));
  REQUIRE(j["events"].size() == events.size());
  CHECK(j["nodes"].size() == pipeline_names().nodes.size());
  CHECK(j["tracks"].size() == pipeline_names().tracks.size());
  for (size_t i = 0; i < events.size(); ++i) {
    CHECK(j["events"][i]["stage"] == stage_name(events[i].st));
    CHECK(j["events"][i]["t_ns"] == events[i].t_ns);
    CHECK(j["events"][i]["node"] == events[i].node);
  }
  // The first event opens QUEUED; the last is the DONE instant; some event closes a stage.
  CHECK(j["events"].front()["phase"] == "begin");
  CHECK(j["events"].front()["stage"] == "QUEUED");
  CHECK(j["events"].back()["phase"] == "instant");
  CHECK(j["events"].back()["stage"] == "DONE");
  CHECK(std::any_of(j["events"].begin(), j["events"].end(),
                    [](const auto& e) { return e["phase"] == "end"; }));
}

TEST_CASE("Prometheus counters count every event ever added, not the aggregator's window") {
  aggregator_t agg(50);  // a window far smaller than the run
  uint64_t last_proofs = 0, last_gpu = 0;
  for (int round = 0; round < 20; ++round) {
    auto v = pipeline(3, 10, 2, 5);
    for (auto& e : v) e.job = uint64_t(round) + 1;  // 20 jobs of 3 partitions
    agg.add(v);
    const auto& m = agg.metrics();
    CHECK(m.proofs() == last_proofs + 3);
    CHECK(m.stages().at(stage_t::gpu).count == last_gpu + 3);
    last_proofs = m.proofs();
    last_gpu = m.stages().at(stage_t::gpu).count;
  }
  CHECK(agg.size() == 50);
  CHECK(agg.dropped() > 0);
  const std::string text = agg.metrics().render_prometheus();
  CHECK(text.find("zkfleet_proofs_total 60\n") != std::string::npos);
  CHECK(text.find("zkfleet_stage_duration_seconds_count{stage=\"SYNTH\"} 60\n") !=
        std::string::npos);
  // 5 ms each on the GPU: all 60 in the 0.01 s bucket and above, none in 0.001
  CHECK(text.find("zkfleet_stage_duration_seconds_bucket{stage=\"GPU\",le=\"0.001\"} 0\n") !=
        std::string::npos);
  CHECK(text.find("zkfleet_stage_duration_seconds_bucket{stage=\"GPU\",le=\"0.01\"} 60\n") !=
        std::string::npos);
  CHECK(text.find("zkfleet_stage_duration_seconds_sum{stage=\"GPU\"} 0.3\n") != std::string::npos);
  // an end without its begin adds nothing
  metrics_t lone;
  lone.observe(ev(9, 0, stage_t::gpu, phase_t::end, 2, 0, 100));
  CHECK(lone.stages().empty());
}

TEST_CASE("Prometheus histograms pair begins and ends by time, whatever order a batch holds") {
  // A node drains one thread's ring after another, so a batch is not in time order. Here a
  // partition is queued twice (failed once, re-queued): B1 at 1 ms, E1 at 3 ms, B2 at 10 ms, E2
  // at 30 ms, in one batch in every order: the durations are always 2 ms and 20 ms.
  std::vector<event_t> v = {ev(1, 0, stage_t::queued, phase_t::begin, 0, 0, 1 * ms),
                            ev(1, 0, stage_t::queued, phase_t::end, 0, 0, 3 * ms),
                            ev(1, 0, stage_t::queued, phase_t::begin, 0, 0, 10 * ms),
                            ev(1, 0, stage_t::queued, phase_t::end, 0, 0, 30 * ms)};
  std::vector<int> order = {0, 1, 2, 3};
  int orders = 0;
  do {
    aggregator_t agg;
    std::vector<event_t> batch;
    for (int i : order) batch.push_back(v[i]);
    agg.add(batch);
    const auto& h = agg.metrics().stages().at(stage_t::queued);
    CHECK(h.count == 2);
    CHECK(h.sum == doctest::Approx(0.022));
    CHECK(h.buckets[0] == 0);  // ≤ 1 ms: neither
    CHECK(h.buckets[1] == 1);  // ≤ 10 ms: the 2 ms one
    CHECK(h.buckets[2] == 2);  // ≤ 100 ms: both
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  CHECK(orders == 24);
  // Across batches: an end sent a batch before its begin still pairs with it.
  aggregator_t agg;
  agg.add({v[1]});
  agg.add({v[0]});
  CHECK(agg.metrics().stages().at(stage_t::queued).count == 1);
  CHECK(agg.metrics().stages().at(stage_t::queued).sum == doctest::Approx(0.002));
}

TEST_CASE("Prometheus exposition has counters and stage histograms") {
  aggregator_t agg;
  agg.add(pipeline(3, 10, 2, 5));
  const std::string text = agg.metrics().render_prometheus();
  CHECK(text.find("zkfleet_proofs_total 3\n") != std::string::npos);
  CHECK(text.find("# TYPE zkfleet_stage_duration_seconds histogram") != std::string::npos);
  CHECK(text.find("zkfleet_stage_duration_seconds_bucket{stage=\"SYNTH\",le=\"0.01\"} 3") !=
        std::string::npos);
  CHECK(text.find("zkfleet_stage_duration_seconds_count{stage=\"GPU\"} 3") != std::string::npos);
}
