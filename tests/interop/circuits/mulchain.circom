pragma circom 2.0.0;

// Multiplication chain: exactly one R1CS constraint per step.
//   s[0] = x
//   s[i+1] = s[i] * (s[i] + y) + x + i        (A = s[i], B = s[i] + y, C = s[i+1] - x - i)
// Values become full-size field elements after a few steps (repeated squaring).
// Public input x, private input y, public output out = s[N].
// With circom's default -O1 simplification, the circuit has exactly N constraints
// (out <== s[N] is a signal-to-signal equality and is substituted away).
//
// The main component is not declared here: make_circuit.sh generates
//   include "mulchain.circom";
//   component main {public [x]} = MulChain(N);
template MulChain(N) {
    signal input x;
    signal input y;
    signal output out;

    signal s[N + 1];
    s[0] <== x;
    for (var i = 0; i < N; i++) {
        s[i + 1] <== s[i] * (s[i] + y) + x + i;
    }
    out <== s[N];
}
