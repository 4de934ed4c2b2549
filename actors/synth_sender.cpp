// A synthesizer's sender: one prover's data-plane stream (synthesizer.hpp).
#include "actors/synthesizer.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "node/synth/synthesize.hpp"
#include "node/verify_proof.hpp"

namespace zk::actors {

namespace {

// Sends a committed buffer to the prover's data server; on its ACK the local copy is freed and
// the answer names the buffer in the prover's store. CHAN_SEND (begun by the synthesizer at the
// hand-off) ends at the receiver's READY; XFER runs from there to the ACK.
caf::result<buffer_ready_msg> send_buffer(synth_sender_state& st, buffer::buffer_store_t& store,
                                          timeline::recorder_t* rec, uint16_t track,
                                          const net::send_options_t& options, const dispatch_msg& d,
                                          buffer_ready_msg m) {
  if (st.cancelled.has(d.job)) {  // freed unsent; CHAN_SEND (begun at the hand-off) ends here
    if (rec) rec->end(d.job, d.partition, timeline::stage_t::chan_send, track, m.size);
    store.release(m.buffer_id);
    return caf::make_error(
        zk_errc::job_cancelled,
        "job " + std::to_string(d.job) + " was cancelled before this buffer was sent");
  }
  const auto tcp =
      *net::data_endpoint_t::parse(d.prover_endpoint);  // the synthesizer sends only tcp ones here
  // One client per prover endpoint; with TLS the prover's certificate must name that node.
  auto& client = st.clients[d.prover_endpoint + "\n" + d.prover_name];
  if (!client) {
    net::send_options_t o = options;
    o.expected_peer = d.prover_name;
    client = std::make_unique<net::data_client_t>(tcp.host, tcp.port, o);
  }
  std::optional<net::transfer_ticket_t> ticket;
  if (d.ticket_mac.size() == net::transfer_key_t{}.size()) {
    ticket = net::transfer_ticket_t{d.job, d.partition, d.attempt, {}};
    std::copy(d.ticket_mac.begin(), d.ticket_mac.end(), ticket->mac.begin());
  }
  auto pin = store.find(m.buffer_id);
  net::send_result_t sent = pin ? client->send(*pin, ticket) : net::send_result_t{};
  const int64_t finished = timeline::monotonic_ns();
  if (rec) {
    const int64_t ready = sent.ready_ns ? sent.ready_ns : finished;
    const uint16_t node = rec->node();
    rec->record({d.job, d.partition, timeline::stage_t::chan_send, timeline::phase_t::end, node,
                 track, ready, m.size});
    if (sent.ok) {
      rec->record({d.job, d.partition, timeline::stage_t::xfer, timeline::phase_t::begin, node,
                   track, ready, m.size});
      rec->record({d.job, d.partition, timeline::stage_t::xfer, timeline::phase_t::end, node, track,
                   finished, m.size});
    }
  }
  pin.reset();
  if (!sent.ok)  // left in the store: the synthesizer keeps it for another prover
    return caf::make_error(zk_errc::send_failed,
                           "sending the buffer to " + d.prover_endpoint + " failed: " +
                               (sent.error.empty() ? "the buffer is gone" : sent.error));
  store.release(m.buffer_id);
  m.buffer_id = sent.buffer_id;
  m.endpoint = d.prover_endpoint;
  m.moved = true;
  return m;
}

}  // namespace

caf::behavior synth_sender(synth_sender_actor* self, std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           net::send_options_t options) {
  return {
      [=](const dispatch_msg& d, const buffer_ready_msg& m) {
        return send_buffer(self->state, *store, recorder.get(), track, options, d, m);
      },
      [=](cancel_atom, uint64_t job) { self->state.cancelled.add(job); },
  };
}

}  // namespace zk::actors
