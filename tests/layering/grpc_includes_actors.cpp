// Layering probe (tests/layering/layering.sh): the gRPC face (zkgrpc) may not include actors/: it
// asks the cluster through node/api/gateway.hpp. This file must NOT compile.
#include "actors/messages.hpp"
