#pragma once
// A stop request for the transforms of zk/ntt/ntt.hpp (a cancelled proof's compute_h, whose
// transforms of 2^22+ elements take seconds each): while a stop_scope_t lives on a thread, the
// transforms that thread calls poll `stop` between their passes (and between blocks) and, once it
// answers true, leave early with the array half-transformed — the caller, which polls the same
// stop after them, must then throw its result away (zk/base/stop.hpp).
#include "zk/base/stop.hpp"

namespace zk::ntt {

class stop_scope_t {
 public:
  explicit stop_scope_t(const stop_t& stop);
  ~stop_scope_t();
  stop_scope_t(const stop_scope_t&) = delete;
  stop_scope_t& operator=(const stop_scope_t&) = delete;

 private:
  const stop_t* previous_;
};

}  // namespace zk::ntt
