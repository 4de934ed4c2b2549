#pragma once
// Multi-scalar multiplication Σ k_i·P_i on the CPU: Pippenger's bucket method with signed-digit
// windows, multithreaded by window.
//
// Scalars are canonical little-endian integers of 32 bytes (the .wtns layout, read in place).
// A plan_t sorts one scalar vector once; the prover reuses the witness plan for the A, B1 and
// B2 MSMs. Zero scalars are dropped and scalars equal to one are summed apart (bit-heavy circuits
// have many of both); the window width is chosen from the count of the rest.
//
// Signed digits: every scalar k < 2^bits is rewritten as Σ_w d_w·2^{c·w} with
// d_w ∈ [−2^{c−1}, 2^{c−1}), so each window needs 2^{c−1} buckets and a negative digit adds −P
// (a free negation in affine form). The digits are read straight off k + H with
// H = Σ_w 2^{c−1}·2^{c·w}: d_w = ((k + H) >> c·w mod 2^c) − 2^{c−1} — no carries to propagate,
// so no digit table is stored (it would be as large as the scalars, many times over).
// Buckets accumulate in batch-affine form (msm.cpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "zk/ec/point.hpp"
#include "zk/msm/density.hpp"

namespace zk::msm {

struct plan_t {
  const uint8_t* scalars = nullptr;  // the scalar vector (not owned: it must outlive the plan)
  size_t stride = 32;                // bytes from one scalar to the next
  size_t n = 0;                      // length of the scalar vector
  unsigned bits = 0;                 // every scalar is below 2^bits
  unsigned c = 0;                    // window width in bits
  unsigned windows = 0;              // number of signed-digit windows
  uint64_t offset[5] = {};           // H = Σ_w 2^{c−1}·2^{c·w}
  bool split = true;                 // 0s dropped and 1s summed apart (make_plan's `split`)
  std::vector<uint32_t> idx;         // positions of scalars > 1 (every scalar without split)
  std::vector<uint32_t> ones;        // positions of scalars == 1 (none without split)
  // The signed digits of the scalars > 1, window-major: digits[w·idx.size() + j] is window w of
  // scalar idx[j]. Read once here (not once per window and MSM: the witness plan serves three).
  std::vector<int16_t> digits;
  // The bases follow this density (null: one base per scalar): the scalar at position i pairs
  // with base rank(i) (an MSM from position `first`: rank(i) − rank(first)); positions outside
  // it are left out of the plan. Not owned: it must outlive the plan.
  const density_t* density = nullptr;
  // Where the scalars > 1 are: empty, at scalars + idx[j]·stride (a vector of every scalar);
  // else at scalars + slot[j]·stride (a list of the scalars that are neither 0 nor 1: a plan of
  // classed scalars).
  std::vector<uint32_t> slot;
  // Entry j's scalar (the j-th scalar > 1 of the plan).
  const uint8_t* scalar(size_t j) const {
    return scalars + size_t(slot.empty() ? idx[j] : slot[j]) * stride;
  }
};

// A scalar vector given by class, as a packed witness holds it (zk/formats/packed_witness.hpp):
// for every 64 positions two bit sets — which hold a value other than 0 and 1, which hold 1 — and
// how many other values come before them; the other values listed in position order (canonical
// little-endian, 32 bytes each). Read in place: the words' three fields are `stride` uint64s
// apart from one word to the next (a layout of the caller's).
struct classed_scalars_t {
  size_t n = 0;
  const uint64_t* other = nullptr;  // other[w·stride]: bit b set when 64w + b holds another value
  const uint64_t* one = nullptr;    // one[w·stride]: … when it holds 1
  const uint64_t* rank = nullptr;   // rank[w·stride]: the other values before position 64w
  size_t stride = 1;
  const uint8_t* values = nullptr;  // the other values, in position order
  // Value i (i < n), canonical little-endian.
  void value(size_t i, uint8_t out[32]) const;
};

// scalars: n little-endian integers, `stride` bytes apart (32 for Fr), each < 2^bits. Without
// `digits` the plan keeps no digit table (2·windows bytes a scalar; MSMs then read the digits
// off the scalars): for a plan that serves one MSM and memory that counts. `split` (SupraSeal
// C2's split of bit-heavy witnesses): zero scalars are dropped and scalars equal to one become
// plain additions of their bases; without it every scalar goes through the windows (the
// baseline the split is measured against; same sum).
plan_t make_plan(const uint8_t* scalars, size_t n, unsigned bits, size_t stride = 32,
                 bool digits = true, bool split = true, const density_t* density = nullptr);

// The same plan from classed scalars, without reading a zero or a one: with `split` only (zeros
// dropped, ones summed apart: throws std::invalid_argument without it). The plan reads s.values
// (slot), which must outlive it.
plan_t make_plan(const classed_scalars_t& s, unsigned bits, bool digits = true, bool split = true,
                 const density_t* density = nullptr);

// The signed-digit recoding for c-bit windows: returns the window count W and writes
// H = Σ_w 2^{c−1}·2^{c·w} (five limbs), W the smallest with k + H < 2^{c·W} for all k < 2^bits.
// Shared with the CUDA MSM, so both read the same digits.
unsigned signed_digit_windows(unsigned bits, unsigned c, uint64_t offset[5]);

// Which kernels an MSM may use. The defaults pick the fastest this CPU runs; tests and
// bench_micro turn paths off to compare them (every path gives the same sum).
struct options_t {
  bool simd = true;     // AVX-512 IFMA bucket additions (ifma_buckets.hpp) when the CPU has them
  unsigned window = 0;  // window width in bits; 0: the plan's (the cost model's choice)
};

// Σ k_i·P_i over the plan's scalars. bases[i] for i < plan.n; (0,0) bases are the identity.
template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const plan_t& plan, const options_t& opt = {});

// Precomputed bases for a point set that many MSMs use (a prover node's resident key): for every
// base P_i the points 2^{s·j}·E^e(P_i), e < dims (E: the endomorphism, φ on G1 and ψ on G2,
// zk/ec/endomorphism.hpp; dims 1 = none, 2 on G1, 4 on G2), j < factor (the precompute
// factor, as in sppark and ICICLE). An MSM over a table splits every scalar into dims parts of
// at most endomorphism_bits, cuts each into factor chunks of s bits, and runs dims·factor times
// as many points with scalars that many times shorter: fewer windows and bucket sums for memory.
template <class G>
struct table_t {
  const ec::affine_t<G>* bases = nullptr;  // copy 0: the points themselves (not owned)
  size_t n = 0;
  unsigned dims = 1, factor = 1;
  unsigned chunk_bits = 0;             // s
  std::vector<ec::affine_t<G>> extra;  // copies 1 … dims·factor − 1, n points each
  // Copy v = e·factor + j.
  const ec::affine_t<G>* copy(unsigned v) const {
    return v == 0 ? bases : extra.data() + size_t(v - 1) * n;
  }
  size_t bytes() const { return extra.size() * sizeof(ec::affine_t<G>); }
};

// The endomorphism's dimension for G (2 on G1, 4 on G2).
template <class G>
unsigned endomorphism_dims();

// Builds the table of n bases for scalars below 2^bits (multithreaded).
template <class G>
table_t<G> make_table(const ec::affine_t<G>* bases, size_t n, unsigned dims, unsigned factor,
                      unsigned bits);

// Σ k_i·P_i over a table (same result as over the bases).
template <class G>
ec::jacobian_t<G> msm(const table_t<G>& table, const plan_t& plan, const options_t& opt = {});

// One MSM as independent tasks, so that several MSMs share the threads without idling between
// them (run_jobs): run(t) for every t < tasks, on any thread, in any order; then finish(), which
// writes the sum. The inputs must outlive the job.
struct job_t {
  size_t tasks = 0;
  std::function<void(size_t)> run;
  std::function<void()> finish;
};

// Σ k_i·P_i over the plan's scalars at positions i ≥ first, with bases[i − first] (a suffix of
// the plan: Groth16's C points start at the first private wire).
template <class G>
job_t msm_job(const ec::affine_t<G>* bases, const plan_t& plan, size_t first,
              ec::jacobian_t<G>& out, const options_t& opt = {});
template <class G>
job_t msm_job(const table_t<G>& table, const plan_t& plan, size_t first, ec::jacobian_t<G>& out,
              const options_t& opt = {});

// Runs the jobs' tasks on the compute pool, job after job in order (a job's bases are read in one
// stretch), and returns when all are done. Each job's finish() and then on_done(its index) run
// on the thread that ran its last task, as soon as it has.
void run_jobs(std::vector<job_t>& jobs, const std::function<void(size_t job)>& on_done = {});

// Convenience: plan and run in one call.
template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const uint8_t* scalars, size_t n,
                      unsigned bits) {
  return msm<G>(bases, make_plan(scalars, n, bits));
}

}  // namespace zk::msm
