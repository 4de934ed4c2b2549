// Layering probe (tests/layering/layering.sh): the node layer (zknode) may not include actors/.
// This file must NOT compile.
#include "actors/messages.hpp"
