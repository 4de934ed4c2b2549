#pragma once
// ZK_HD marks code shared by host and device (docs/design.md "Conventions"): under nvcc it becomes
// __host__ __device__, elsewhere it vanishes. Curve-point templates in zk/ec use it so the
// CPU and the CUDA backend run the very same formulas.
// ZK_HD_FORCE additionally forces inlining: for the field's core operations only (a Montgomery
// multiplication is a few dozen instructions; a call and a struct return through memory cost as
// much again). Point formulas stay plain ZK_HD so compile times stay sane.
#if defined(__CUDACC__)
#define ZK_HD __host__ __device__ inline
#define ZK_HD_FORCE __host__ __device__ __forceinline__
#else
#define ZK_HD inline
#define ZK_HD_FORCE inline __attribute__((always_inline))
#endif
