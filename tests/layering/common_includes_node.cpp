// Layering probe (tests/layering/layering.sh): the infrastructure (zkcommon) may not include node/.
// This file must NOT compile.
#include "node/circuit.hpp"
