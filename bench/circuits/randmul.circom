pragma circom 2.0.0;

// N products of random private inputs: p[i] = a[i]·b[i], one R1CS constraint each. bench/prove
// draws a and b uniformly below r (seeded), so two thirds of the witness are uniformly random
// field elements and the rest their products: full-size values throughout, none 0 or 1 but the
// constant wire. Public input x (random too) keeps nPublic = 1.
//
// The main component is not declared here: bench/prove generates
//   include "randmul.circom";
//   component main {public [x]} = RandMul(N);
template RandMul(N) {
    signal input x;
    signal input a[N];
    signal input b[N];
    signal p[N];
    for (var i = 0; i < N; i++) {
        p[i] <== a[i] * b[i];
    }
}
