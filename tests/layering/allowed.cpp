// Layering probe (tests/layering/layering.sh), the control: the actors' layer sees every layer
// below it. This file must compile, so that the refusals of the other probes mean what they say.
#include "actors/messages.hpp"
#include "common/util/log.hpp"
#include "cuda/msm_steps.hpp"
#include "node/circuit.hpp"
#include "zk/ff/fp.hpp"
