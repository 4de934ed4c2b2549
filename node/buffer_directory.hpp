#pragma once
// The buffer stores of one process by data endpoint ("local:<node>"): in one process a prover
// pins a synthesizer's buffer in place instead of moving it.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/buffer/buffer_store.hpp"

namespace zk::node {

// Thread-safe.
class buffer_directory_t {
 public:
  void add(const std::string& endpoint, std::shared_ptr<buffer::buffer_store_t> store);
  std::shared_ptr<buffer::buffer_store_t> store(const std::string& endpoint) const;
  // A pin on buffer `id` of the store at `endpoint`; nullopt when either is unknown.
  std::optional<buffer::buffer_ref_t> find(const std::string& endpoint, uint64_t id) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<buffer::buffer_store_t>> stores_;
};

}  // namespace zk::node
