#pragma once
// RAII for device memory and the CUDA_OK error check (STYLE.md §4, §9): errors become
// exceptions inside cuda/, and the entry points turn them into a status_t.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "cuda/zkcuda.hpp"

namespace zk::cuda {

struct cuda_error : std::runtime_error {
  cudaError_t code;
  cuda_error(cudaError_t c, const std::string& what) : std::runtime_error(what), code(c) {}
};

#define CUDA_OK(expr)                                                                                   \
  do {                                                                                                  \
    cudaError_t zk_cuda_err_ = (expr);                                                                  \
    if (zk_cuda_err_ != cudaSuccess)                                                                    \
      throw ::zk::cuda::cuda_error(zk_cuda_err_, std::string(#expr) + ": " +                           \
                                                     cudaGetErrorString(zk_cuda_err_) + " (" +          \
                                                     cudaGetErrorName(zk_cuda_err_) + ") at " __FILE__); \
  } while (0)

// A device array of T, freed on scope exit.
template <class T>
class device_buffer {
 public:
  explicit device_buffer(size_t n) : n_(n) {
    if (n) CUDA_OK(cudaMalloc(&p_, n * sizeof(T)));
  }
  ~device_buffer() {
    if (p_) cudaFree(p_);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  T* get() const { return p_; }
  size_t size() const { return n_; }
  void upload(const T* host, size_t n) { CUDA_OK(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice)); }
  void download(T* host, size_t n) const { CUDA_OK(cudaMemcpy(host, p_, n * sizeof(T), cudaMemcpyDeviceToHost)); }

 private:
  T* p_ = nullptr;
  size_t n_;
};

// Runs f, mapping exceptions to a status.
template <class F>
status_t guarded(const char* what, F&& f) {
  try {
    f();
    CUDA_OK(cudaGetLastError());
    return {};
  } catch (const cuda_error& e) {
    return {int(e.code), std::string(what) + ": " + e.what()};
  } catch (const std::exception& e) {
    return {-1, std::string(what) + ": " + e.what()};
  }
}

inline unsigned blocks_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

}  // namespace zk::cuda
