#!/usr/bin/env node
// Prints the header of a circom .r1cs file as shell-friendly KEY=VALUE lines, plus the Groth16
// domain size snarkjs would pick (smallest power of two >= nConstraints + nPublic + 1).
// Only the section table and the header section are read, so it is instant on large files.
// Usage: node r1cs_info.js circuit.r1cs
"use strict";
const fs = require("fs");

const file = process.argv[2];
if (!file) { console.error("usage: r1cs_info.js <circuit.r1cs>"); process.exit(2); }
const fd = fs.openSync(file, "r");
function read(pos, len) {
  const b = Buffer.alloc(len);
  if (fs.readSync(fd, b, 0, len, pos) !== len) throw new Error("short read in " + file);
  return b;
}
const head = read(0, 12);
if (head.toString("latin1", 0, 4) !== "r1cs") throw new Error(file + ": not an r1cs file");
const nSections = head.readUInt32LE(8);
let pos = 12, hdr = null;
for (let i = 0; i < nSections; i++) {
  const s = read(pos, 12);
  const id = s.readUInt32LE(0);
  const len = Number(s.readBigUInt64LE(4));
  if (id === 1) hdr = { pos: pos + 12, len };
  pos += 12 + len;
}
if (!hdr) throw new Error(file + ": no header section");
const h = read(hdr.pos, hdr.len);
const fs8 = h.readUInt32LE(0);
let prime = 0n;
for (let i = fs8 - 1; i >= 0; i--) prime = (prime << 8n) | BigInt(h[4 + i]);
let o = 4 + fs8;
const nWires = h.readUInt32LE(o); o += 4;
const nPubOut = h.readUInt32LE(o); o += 4;
const nPubIn = h.readUInt32LE(o); o += 4;
const nPrvIn = h.readUInt32LE(o); o += 4;
const nLabels = h.readBigUInt64LE(o); o += 8;
const nConstraints = h.readUInt32LE(o);
const curves = {
  "21888242871839275222246405745257275088548364400416034343698204186575808495617": "bn254",
  "52435875175126190479447740508185965837690552500527637822603658699938581184513": "bls12_381",
};
const nPublic = nPubOut + nPubIn;
let domainPower = 0;
while ((1 << domainPower) < nConstraints + nPublic + 1) domainPower++;
const out = {
  CURVE: curves[prime.toString()] || "unknown", PRIME: prime.toString(), N8: fs8,
  NVARS: nWires, NPUBOUT: nPubOut, NPUBIN: nPubIn, NPRVIN: nPrvIn, NPUBLIC: nPublic,
  NLABELS: nLabels.toString(), NCONSTRAINTS: nConstraints,
  DOMAIN_POWER: domainPower, DOMAIN_SIZE: 2 ** domainPower,
};
for (const [k, v] of Object.entries(out)) console.log(`${k}=${v}`);
