#pragma once
// The HTTP API's gateway to the actors (node/api/gateway.hpp): each ask of the API a request to
// the scheduler or the timeline aggregator, awaited for at most a timeout, and a CAF error mapped
// to the HTTP status that says what went wrong. The API server itself (routes, auth, events,
// metrics) is plain C++ in node/api.
#include <caf/all.hpp>
#include <chrono>
#include <memory>

#include "actors/messages.hpp"
#include "node/api/server.hpp"

namespace zk::actors {

// The HTTP status of an error the scheduler or the aggregator answered (docs/api.md).
unsigned http_status_of(const caf::error& e);

std::shared_ptr<node::api_gateway_t> api_gateway(caf::actor_system& sys, scheduler_actor scheduler,
                                                 timeline_actor aggregator,
                                                 std::chrono::milliseconds ask_timeout);

// The scheduler node's HTTP API (node/api/server.hpp) on these actors, each ask bounded by
// options.ask_timeout. Destroy it before the actor_system it asks.
std::unique_ptr<node::api_server_t> serve_api(caf::actor_system& sys, scheduler_actor scheduler,
                                              timeline_actor aggregator,
                                              std::shared_ptr<node::sessions_t> sessions,
                                              node::api_options_t options);

}  // namespace zk::actors
