#pragma once
// RAII for device memory, the CUDA_OK check (docs/design.md "Conventions", "Errors"): errors become
// exceptions inside cuda/, and the entry points turn them into a status_t.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuda/zkcuda.hpp"

namespace zk::cuda {

struct cuda_error : std::runtime_error {
  cudaError_t code;
  cuda_error(cudaError_t c, const std::string& what) : std::runtime_error(what), code(c) {}
};

#define CUDA_OK(expr)                                                                         \
  do {                                                                                        \
    cudaError_t zk_cuda_err_ = (expr);                                                        \
    if (zk_cuda_err_ != cudaSuccess)                                                          \
      throw ::zk::cuda::cuda_error(                                                           \
          zk_cuda_err_, std::string(#expr) + ": " + cudaGetErrorString(zk_cuda_err_) + " (" + \
                            cudaGetErrorName(zk_cuda_err_) + ") at " __FILE__);               \
  } while (0)

// A device array of T, freed on scope exit.
template <class T>
class device_buffer_t {
 public:
  explicit device_buffer_t(size_t n) : n_(n) {
    if (n) CUDA_OK(cudaMalloc(&p_, n * sizeof(T)));
  }
  ~device_buffer_t() {
    if (p_) cudaFree(p_);
  }
  device_buffer_t(const device_buffer_t&) = delete;
  device_buffer_t& operator=(const device_buffer_t&) = delete;
  T* get() const { return p_; }
  size_t size() const { return n_; }
  void upload(const T* host, size_t n) {
    CUDA_OK(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* host, size_t n) const {
    CUDA_OK(cudaMemcpy(host, p_, n * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  T* p_ = nullptr;
  size_t n_;
};

// Host memory from cudaHostAlloc (pinned: DMA-able, so copies from it are truly asynchronous),
// grown as needed and reused; contents are not kept across a growth.
class pinned_buffer_t {
 public:
  pinned_buffer_t() = default;
  ~pinned_buffer_t() {
    if (p_) cudaFreeHost(p_);
  }
  pinned_buffer_t(const pinned_buffer_t&) = delete;
  pinned_buffer_t& operator=(const pinned_buffer_t&) = delete;
  // At least `bytes` bytes; the caller makes sure no copy still uses the old memory.
  uint8_t* reserve(size_t bytes) {
    if (bytes > cap_) {
      if (p_) cudaFreeHost(p_);
      p_ = nullptr;
      cap_ = 0;
      CUDA_OK(cudaHostAlloc(reinterpret_cast<void**>(&p_), bytes, cudaHostAllocDefault));
      cap_ = bytes;
    }
    return p_;
  }
  uint8_t* get() const { return p_; }
  size_t capacity() const { return cap_; }

 private:
  uint8_t* p_ = nullptr;
  size_t cap_ = 0;
};

// Carves 256-byte aligned arrays out of one block: run a layout once with base null to learn the
// size, then again on the block.
struct carve_t {
  uint8_t* base = nullptr;
  size_t used = 0;
  template <class T>
  T* take(size_t n) {
    used = (used + 255) & ~size_t(255);
    T* p = base ? reinterpret_cast<T*>(base + used) : nullptr;
    used += n * sizeof(T);
    return p;
  }
};

// Runs f, mapping exceptions to a status. An error left by an earlier, unrelated runtime call on
// this thread is cleared first, so that the check after f reports f's own.
template <class F>
status_t guarded(const char* what, F&& f) {
  try {
    cudaGetLastError();
    f();
    CUDA_OK(cudaGetLastError());
    return {};
  } catch (const cuda_error& e) {
    return {int(e.code), std::string(what) + ": " + e.what()};
  } catch (const std::exception& e) {
    return {-1, std::string(what) + ": " + e.what()};
  }
}

inline unsigned blocks_for(size_t n, unsigned threads) {
  return unsigned((n + threads - 1) / threads);
}

}  // namespace zk::cuda
