// Layering probe (tests/layering/layering.sh): the node layer (zknode) may not include grpcapi/
// (the gRPC face sits above it). This file must NOT compile.
#include "grpcapi/server.hpp"
