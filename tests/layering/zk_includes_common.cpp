// Layering probe (tests/layering/layering.sh): the math (zkmath) may not include the
// infrastructure. This file must NOT compile.
#include "common/util/log.hpp"
