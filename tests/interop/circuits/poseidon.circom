pragma circom 2.0.0;

// circomlib's Poseidon; circomlib's circuits/ directory is copied beside this file by
// make_circuit.sh (circom2's WASI build cannot read files outside its working directory).
include "circuits/poseidon.circom";

// Chain of N Poseidon(2) hashes:
//   h[0] = x
//   h[i+1] = Poseidon(h[i], y)
// Public input x, private input y, public output out = h[N].
//
// The main component is not declared here: make_circuit.sh generates
//   include "poseidon.circom";
//   component main {public [x]} = PoseidonChain(N);
template PoseidonChain(N) {
    signal input x;
    signal input y;
    signal output out;

    component p[N];
    signal h[N + 1];
    h[0] <== x;
    for (var i = 0; i < N; i++) {
        p[i] = Poseidon(2);
        p[i].inputs[0] <== h[i];
        p[i].inputs[1] <== y;
        h[i + 1] <== p[i].out;
    }
    out <== h[N];
}
