#pragma once
// ZK_HD marks code that is shared by host and device (STYLE.md §1): under nvcc it becomes
// __host__ __device__, elsewhere it vanishes. Curve-point templates in common/ec use it so the
// CPU and the CUDA backend run the very same formulas.
#if defined(__CUDACC__)
#define ZK_HD __host__ __device__ inline

#else
#define ZK_HD inline

#endif
