#!/usr/bin/env node
// A Groth16 check of a bellperson proof by code no one here wrote: npm @noble/curves (pinned in
// tests/interop/package.json, installed into .tools/node by scripts/deps) reads the .vk and the
// proof in the ZCash encoding and does the pairing check of bellperson's verify_proof:
//
//   e(A, B) = e(α, β) · e(IC_0 + Σ x_i·IC_i, γ) · e(C, δ)
//
//   node tests/filecoin/noble_verify.js VK PROOF INPUTS [PARTITION]
//
// VK: a bellperson .vk (uncompressed: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2,
// u32 BE count, IC); PROOF: 192 bytes a partition (A 48 ‖ B 96 ‖ C 48, compressed); INPUTS: the
// public inputs in decimal, one a line (`zkfleet filecoin verify --print-public-inputs`).
// Prints "OK: ..." and exits 0 when valid, "INVALID: ..." and exits 1 otherwise; 2 on bad use.
'use strict';
const fs = require('fs');
const path = require('path');

const modules =
  process.env.ZK_NODE_MODULES || path.join(__dirname, '..', '..', '.tools', 'node', 'node_modules');
const { bls12_381: bls } = require(path.join(modules, '@noble', 'curves', 'bls12-381'));

function fail(code, msg) {
  console.log(msg);
  process.exit(code);
}

const [vkFile, proofFile, inputsFile, partArg] = process.argv.slice(2);
if (!vkFile || !proofFile || !inputsFile) fail(2, 'usage: noble_verify.js VK PROOF INPUTS [PARTITION]');
const vkBytes = fs.readFileSync(vkFile);
const proofBytes = fs.readFileSync(proofFile);
const inputs = fs
  .readFileSync(inputsFile, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => BigInt(l.trim()));
const partition = partArg ? Number(partArg) : 0;

const G1 = bls.G1.ProjectivePoint;
const G2 = bls.G2.ProjectivePoint;
let at = 0;
const take = (n) => {
  if (at + n > vkBytes.length) fail(1, `INVALID: ${vkFile}: truncated at byte ${at}`);
  const b = vkBytes.subarray(at, at + n);
  at += n;
  return b;
};
const g1 = () => G1.fromHex(take(96));
const g2 = () => G2.fromHex(take(192));
const alpha = g1(), beta1 = g1(), beta2 = g2(), gamma = g2(), delta1 = g1(), delta2 = g2();
void beta1;
void delta1;
const count = take(4).readUInt32BE(0);
const ic = [];
for (let i = 0; i < count; i++) ic.push(g1());
if (at !== vkBytes.length) fail(1, `INVALID: ${vkFile}: ${vkBytes.length - at} bytes after the key`);
if (inputs.length + 1 !== ic.length)
  fail(1, `INVALID: ${inputs.length} public inputs, the key has ${ic.length} IC points`);

const off = partition * 192;
if (proofBytes.length < off + 192) fail(1, `INVALID: ${proofFile} has no partition ${partition}`);
let A, B, C;
try {
  A = G1.fromHex(proofBytes.subarray(off, off + 48));
  B = G2.fromHex(proofBytes.subarray(off + 48, off + 144));
  C = G1.fromHex(proofBytes.subarray(off + 144, off + 192));
  A.assertValidity();
  B.assertValidity();
  C.assertValidity();
} catch (e) {
  fail(1, `INVALID: ${proofFile}: partition ${partition}: ${e.message}`);
}

let vkx = ic[0];
inputs.forEach((x, i) => {
  vkx = vkx.add(ic[i + 1].multiplyUnsafe(x));
});
const Fp12 = bls.fields.Fp12;
const lhs = bls.pairing(A, B);
const rhs = Fp12.mul(
  Fp12.mul(bls.pairing(alpha, beta2), bls.pairing(vkx, gamma)),
  bls.pairing(C, delta2)
);
if (Fp12.eql(lhs, rhs))
  fail(0, `OK: @noble/curves accepts partition ${partition} (${inputs.length} public inputs)`);
fail(1, `INVALID: @noble/curves: the pairing check failed for partition ${partition}`);
