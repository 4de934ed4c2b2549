// Layering probe (tests/layering/layering.sh), the gRPC face's control: zkgrpc sees grpcapi/,
// node/, common/ and zk/. This file must compile, so that the refusals of the other probes mean
// what they say.
#include "common/util/log.hpp"
#include "grpcapi/server.hpp"
#include "node/circuit.hpp"
#include "zk/ff/fp.hpp"
