// A synthesis node's sender (actors/synthesizer.hpp, synth_sender): a cancel overtakes the sends
// queued behind it, and the cancelled job's buffers are freed unsent; another job's send still
// goes out (here to a port nobody listens on: it fails with send_failed, and its buffer stays in
// the store for the synthesizer to keep and send to another prover).
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "actors/node.hpp"
#include "actors/synthesizer.hpp"
#include "common/buffer/synth_buffer.hpp"

using namespace zk::actors;
using namespace zk::node;
using namespace std::chrono_literals;

namespace {

// A committed witness-only buffer of job `job` in `store`: its id and payload size.
std::pair<uint64_t, uint64_t> make_buffer(zk::buffer::buffer_store_t& store, uint64_t job) {
  std::vector<uint8_t> witness(4 * 32, 0);
  witness[0] = 1;
  zk::buffer::synth_params_t p;
  p.job_id = job;
  p.n_vars = 4;
  p.n_public = 1;
  p.domain_rows = 2;  // the key's domain: n_public + 1 input rows at least
  p.shape = zk::buffer::synth_shape_t::witness_only;
  const auto header = zk::buffer::make_header(p, {{witness.data(), witness.size()}});
  auto w = store.reserve(header.payload_bytes);
  REQUIRE(w.ok());
  std::memcpy(w.value().data(), witness.data(), witness.size());
  return {store.commit(std::move(w.value()), header), header.payload_bytes};
}

}  // namespace

TEST_CASE(
    "a send stream frees a cancelled job's queued buffers unsent and still sends the others") {
  caf::actor_system_config cfg;
  add_message_types(cfg);
  caf::actor_system sys(cfg);
  auto store = std::make_shared<zk::buffer::buffer_store_t>(uint64_t(64) << 20);
  zk::net::send_options_t opt;
  opt.connect_timeout = 300ms;
  opt.max_attempts = 1;
  auto sender = sys.spawn(synth_sender, store, nullptr, uint16_t(0), opt);

  const auto [cancelled_id, cancelled_size] = make_buffer(*store, 7);
  const auto [other_id, other_size] = make_buffer(*store, 8);
  CHECK(store->stats().registered == 2);
  dispatch_msg d7, d8;
  d7.job = 7;
  d8.job = 8;
  d7.prover_endpoint = d8.prover_endpoint = "tcp:127.0.0.1:1";  // nobody listens there
  caf::anon_send<caf::message_priority::high>(sender, cancel_atom::value, uint64_t(7));

  buffer_ready_msg m7, m8;
  m7.job = 7, m7.buffer_id = cancelled_id, m7.size = cancelled_size;
  m8.job = 8, m8.buffer_id = other_id, m8.size = other_size;
  auto r7 = ask<buffer_ready_msg>(sys, sender, 10s, d7, m7);
  REQUIRE_FALSE(r7);
  CHECK(r7.error() == caf::make_error(zk_errc::job_cancelled));
  CHECK(describe(r7.error()).find("cancelled before this buffer was sent") != std::string::npos);

  auto r8 = ask<buffer_ready_msg>(sys, sender, 10s, d8, m8);
  REQUIRE_FALSE(r8);
  CHECK(r8.error() == caf::make_error(zk_errc::send_failed));
  CHECK(describe(r8.error()).find("tcp:127.0.0.1:1") != std::string::npos);

  CHECK(store->stats().registered == 1);  // the cancelled one freed, the undelivered one left
  CHECK(bool(store->find(other_id)));
  CHECK_FALSE(store->find(cancelled_id));
  caf::anon_send_exit(sender, caf::exit_reason::user_shutdown);
}
