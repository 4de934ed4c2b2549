// Layering probe (tests/layering/layering.sh): cuda/ sees the math only, not the infrastructure.
// This file must NOT compile.
#include "common/util/log.hpp"
