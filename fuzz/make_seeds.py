#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz/corpus/ (fuzz/README.md lists every seed and where it
came from). Deterministic: running it again rewrites the same bytes. Seeds copied from
tests/fixtures, made by `zkfleet setup`, or found by the fuzzer (crash-*, minimized) are not
made here and are left alone.

    python3 fuzz/make_seeds.py            # from anywhere
    python3 fuzz/make_seeds.py filecoin   # only the filecoin_* seeds
"""
import os
import struct

ROOT = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(ROOT, "corpus")

BN254_R = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001
BN254_Q = 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47
BLS_R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
BLS_Q = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB


def le(v, n):
    return v.to_bytes(n, "little")


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def pattern(n, seed):
    """Deterministic filler for point bytes (the readers never look inside points)."""
    out = bytearray(n)
    x = (seed * 2654435761 + 1) & 0xFFFFFFFF
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        out[i] = (x >> 16) & 0xFF
    return bytes(out)


def binfile(magic, version, sections, n_sections=None):
    out = bytearray(magic + u32(version) + u32(len(sections) if n_sections is None else n_sections))
    for sid, payload in sections:
        out += u32(sid) + u64(len(payload)) + payload
    return bytes(out)


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    assert len(data) < 64 * 1024, (target, name, len(data))
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- .r1cs ------------------------------------------------------------------------------------


def r1cs_sections(prime, n_wires, n_pub_out, n_pub_in, n_prv_in, constraints, fs=32, labels=True):
    header = u32(fs) + le(prime, fs) + u32(n_wires) + u32(n_pub_out) + u32(n_pub_in)
    header += u32(n_prv_in) + u64(n_wires) + u32(len(constraints))
    body = bytearray()
    for con in constraints:
        for lc in con:
            body += u32(len(lc))
            for wire, coef in lc:
                body += u32(wire) + le(coef, fs)
    out = [(2, bytes(body)), (1, header)]
    if labels:
        out.append((3, b"".join(u64(i) for i in range(n_wires))))
    return out


def r1cs_seeds():
    r = BN254_R
    cons = [
        [[(3, 1)], [(4, 1)], [(1, 1)]],
        [[(1, 2), (0, 7)], [(2, r - 1)], [(5, 1)]],
        [[], [], [(2, 5), (0, 3), (6, 1)]],
    ]
    write("r1cs", "bn254-small.r1cs", binfile(b"r1cs", 1, r1cs_sections(r, 8, 1, 1, 1, cons)))
    write("r1cs", "bls12_381-small.r1cs",
          binfile(b"r1cs", 1, r1cs_sections(BLS_R, 8, 1, 1, 1, cons)))
    # Header first, no label map, custom-gate sections (ignored), no constraints at all.
    secs = r1cs_sections(r, 2, 1, 0, 0, [], labels=False)
    write("r1cs", "header-first-no-labels.r1cs",
          binfile(b"r1cs", 1, [secs[1], secs[0], (4, b"\0" * 4), (5, b"\0" * 4)]))
    # A 48-byte field with an unknown prime (accepted: the curve is only looked up later).
    write("r1cs", "fs48-unknown-prime.r1cs",
          binfile(b"r1cs", 1, r1cs_sections(BLS_Q, 4, 1, 0, 0, [[[(1, 1)], [(1, 1)], [(2, 1)]]], fs=48)))
    # Rejected: a term count that overflows the section, a wire >= nWires, a coefficient = prime,
    # the header twice, a truncated record.
    bad = r1cs_sections(r, 8, 1, 1, 1, cons)
    body = bytearray(bad[0][1])
    body[0:4] = u32(0xFFFFFFFF)
    write("r1cs", "bad-term-count.r1cs", binfile(b"r1cs", 1, [(2, bytes(body))] + bad[1:]))
    write("r1cs", "bad-wire.r1cs",
          binfile(b"r1cs", 1, r1cs_sections(r, 8, 1, 1, 1, [[[(8, 1)], [], []]])))
    write("r1cs", "bad-coefficient.r1cs",
          binfile(b"r1cs", 1, r1cs_sections(r, 8, 1, 1, 1, [[[(1, r)], [], []]])))
    write("r1cs", "bad-header-twice.r1cs", binfile(b"r1cs", 1, bad + [bad[1]]))
    write("r1cs", "bad-truncated.r1cs", binfile(b"r1cs", 1, bad)[:-37])


# ---- .wtns ------------------------------------------------------------------------------------


def wtns(prime, values, n8=32, n_witness=None):
    n = len(values) if n_witness is None else n_witness
    return binfile(b"wtns", 2, [(1, u32(n8) + le(prime, n8) + u32(n)),
                                (2, b"".join(le(v, n8) for v in values))])


def wtns_seeds():
    write("wtns", "bn254-small.wtns", wtns(BN254_R, [1, 2, 3, BN254_R - 1, 0]))
    write("wtns", "bls12_381-small.wtns", wtns(BLS_R, [1, 7, BLS_R - 1]))
    write("wtns", "n8-48.wtns", wtns(BLS_Q, [1, BLS_Q - 1], n8=48))
    write("wtns", "bad-witness0-not-one.wtns", wtns(BN254_R, [2, 1]))
    write("wtns", "bad-value-is-prime.wtns", wtns(BN254_R, [1, BN254_R]))
    write("wtns", "bad-count-mismatch.wtns", wtns(BN254_R, [1, 2], n_witness=0x40000000))
    write("wtns", "bad-empty-witness.wtns", wtns(BN254_R, [], n_witness=0))
    write("wtns", "bad-n8-7.wtns", binfile(b"wtns", 2, [(1, u32(7) + b"\1" * 11), (2, b"")]))


# ---- .zkey ------------------------------------------------------------------------------------


def zkey(curve="bn254", n_vars=6, n_public=2, domain=8, coefs=None, mpc=True, protocol=1):
    n8q = 32 if curve == "bn254" else 48
    q, r = (BN254_Q, BN254_R) if curve == "bn254" else (BLS_Q, BLS_R)
    g1, g2 = 2 * n8q, 4 * n8q
    if coefs is None:
        coefs = [(0, 0, 3, 11), (1, 0, 4, 12), (0, 1, 1, 13), (1, 1, 2, 14), (1, 1, 5, 15),
                 (0, 2, 0, 16), (0, 3, 0, 1), (0, 4, 1, 1), (0, 5, 2, 1)]
    h = u32(n8q) + le(q, n8q) + u32(32) + le(r, 32) + u32(n_vars) + u32(n_public) + u32(domain)
    for k, size in enumerate([g1, g1, g2, g2, g1, g2]):
        h += pattern(size, 100 + k)
    c = u32(len(coefs)) + b"".join(u32(m) + u32(row) + u32(s) + le(v, 32) for m, row, s, v in coefs)
    secs = [(1, u32(protocol)), (2, h), (4, c),
            (3, pattern((n_public + 1) * g1, 3)), (9, pattern(domain * g1, 9)),
            (8, pattern(max(0, n_vars - n_public - 1) * g1, 8)), (5, pattern(n_vars * g1, 5)),
            (6, pattern(n_vars * g1, 6)), (7, pattern(n_vars * g2, 7))]
    if mpc:
        secs.append((10, pattern(64, 99) + u32(0)))
    return binfile(b"zkey", 1, secs)


def zkey_seeds():
    write("zkey", "bn254-synthetic.zkey", zkey())
    write("zkey", "bls12_381-synthetic.zkey", zkey("bls12_381"))
    write("zkey", "no-mpc-params.zkey", zkey(mpc=False))
    write("zkey", "unsorted-coefficients.zkey",
          zkey(coefs=[(0, 5, 2, 1), (0, 0, 3, 11), (1, 2, 4, 12)]))
    write("zkey", "minimal-domain1-npublic0.zkey", zkey(n_vars=1, n_public=0, domain=1, coefs=[]))
    write("zkey", "bad-protocol-plonk.zkey", zkey(protocol=2))
    write("zkey", "bad-coefficient-signal.zkey", zkey(coefs=[(0, 0, 6, 1)]))
    write("zkey", "bad-domain-not-power-of-two.zkey", zkey(domain=6))
    write("zkey", "bad-npublic-too-large.zkey", zkey(n_vars=2, n_public=2, coefs=[]))


# ---- JSON -------------------------------------------------------------------------------------


def json_seeds():
    w = lambda name, text: write("json", name, text.encode())
    w("proof-hex-no-curve.json",
      '{"pi_a":["0x1","2","1"],"pi_b":[["1","0"],["0xAbC","5"],["1","0"]],"pi_c":["0","1","0"],'
      '"protocol":"groth16"}')
    w("public-empty.json", "[\n]")
    w("public-leading-zeros.json", '["007", "0", "0x0", "21888242871839275222246405745257275088548364400416034343698204186575808495616"]')
    w("vkey-no-alphabeta-npublic0.json",
      '{"protocol":"groth16","curve":"BN-254","nPublic":0,"vk_alpha_1":["1","2","1"],'
      '"vk_beta_2":[["1","2"],["3","4"],["1","0"]],"vk_gamma_2":[["1","2"],["3","4"],["1","0"]],'
      '"vk_delta_2":[["1","2"],["3","4"],["1","0"]],"IC":[["1","2","1"]]}')
    w("bad-nested.json", "[" * 3000 + "]" * 3000)
    w("bad-number-types.json", '{"pi_a":[1,2,3],"nPublic":-1,"IC":[],"protocol":"groth16","curve":"x"}')
    write("json", "bad-utf8-and-escapes.json", b'["\\u0000", "\\ud800", "\xff\xfe"]')
    w("bad-truncated.json", '{"pi_a":["1","2"')


# ---- synth header -----------------------------------------------------------------------------

M64 = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def xxh64(data, seed=0):
    """XXH64 (the spec's reference algorithm), for the checksums of hand-made headers."""
    def rnd(acc, lane):
        acc = (acc + lane * P2) & M64
        return (rotl(acc, 31) * P1) & M64

    def merge(acc, v):
        acc ^= rnd(0, v)
        return (acc * P1 + P4) & M64

    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed, (seed - P1) & M64]
        while i + 32 <= n:
            for k in range(4):
                v[k] = rnd(v[k], struct.unpack_from("<Q", data, i + 8 * k)[0])
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M64
        for k in range(4):
            h = merge(h, v[k])
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h ^= rnd(0, struct.unpack_from("<Q", data, i)[0])
        h = (rotl(h, 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h ^= (struct.unpack_from("<I", data, i)[0] * P1) & M64
        h = (rotl(h, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M64
        h = (rotl(h, 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    h ^= h >> 32
    return h


def synth_header(curve=1, flags=1, n_vars=6, n_public=2, rows=8, payload=None, seal=True,
                 version=1, fr=32, job=7, part=3, reserved=0):
    if payload is None:
        payload = 32 * (n_vars + (3 * rows if flags & 1 else 0))
    b = bytearray(struct.pack("<IHHHHI", 0x42534B5A, version, 128, curve, flags, fr))
    b += pattern(32, 1) + u64(job) + u32(part) + u32(reserved)
    b += u64(n_vars) + u64(n_public) + u64(rows) + u64(payload) + u64(0x1234) + b"\0" * 16
    b += u64(xxh64(bytes(b)) if seal else 0)
    assert len(b) == 128
    return bytes(b)


def synth_seeds():
    write("synth_header", "abc-bn254.bin", synth_header())
    write("synth_header", "witness-only-bls12_381.bin", synth_header(curve=2, flags=0))
    write("synth_header", "max-counts.bin",
          synth_header(n_vars=1 << 32, n_public=(1 << 32) - 1, rows=1 << 32))
    # Control bytes: reseal, then a receiver limit below the payload.
    write("synth_header", "reseal-over-limit.bin",
          synth_header(seal=False) + b"\1" + u64(1024))
    write("synth_header", "reseal-bad-reserved.bin", synth_header(reserved=1, seal=False) + b"\1")
    write("synth_header", "reseal-rows-below-public.bin",
          synth_header(n_public=5, rows=5, seal=False) + b"\1")
    write("synth_header", "bad-checksum.bin", synth_header(seal=False))
    write("synth_header", "bad-version.bin", synth_header(version=2))
    write("synth_header", "bad-payload-bytes.bin", synth_header(payload=1))


# ---- reply frame ------------------------------------------------------------------------------


def reply(status=0, job=7, part=3, attempt=1, buf=42, csum=0x1234, detail=0, seal=True,
          version=2):
    b = bytearray(struct.pack("<IHH", 0x50524B5A, version, status))
    b += u64(job) + u32(part) + u32(attempt) + u64(buf) + u64(csum) + u64(detail) + u64(0)
    b += u64(xxh64(bytes(b)) if seal else 0)
    assert len(b) == 64
    return bytes(b)


def reply_seeds():
    write("reply_frame", "ack.bin", reply())
    write("reply_frame", "ready.bin", reply(status=1, buf=0))
    write("reply_frame", "nack-no-space.bin", reply(status=7, buf=0, detail=1 << 30))
    write("reply_frame", "ack-duplicate.bin", reply(buf=9, detail=1))
    write("reply_frame", "nack-bad-ticket.bin", reply(status=8, buf=0, attempt=0))
    write("reply_frame", "reseal-unknown-status.bin", reply(status=9, seal=False) + b"\1")
    write("reply_frame", "bad-checksum.bin", reply(seal=False))
    write("reply_frame", "bad-version-1.bin", reply(version=1))


# ---- config -----------------------------------------------------------------------------------


def config_seeds():
    w = lambda name, text: write("config", name, text.encode())
    w("minimal-scheduler.yaml",
      "scheduler: {endpoint: 127.0.0.1:7400}\nsecurity: {insecure: true}\n"
      "node: {name: s, roles: [scheduler], listen: {control: 127.0.0.1:7400}}\n")
    w("everything.yaml", """version: 1
scheduler:
  endpoint: "[::1]:7400"
  lookahead: auto
  lookahead_max: 4
  max_attempts: 2
  default_priority: high
  http: localhost:0
  max_partitions: 16
  max_queued_jobs: 3
  retention: 30m
  input_roots: [inputs, /srv/in]
security:
  certs_dir: certs
circuits:
  c1: {zkey: a.zkey, r1cs: /abs/a.r1cs, witness_generator: [gen, "{input}", "{output}"], shape: witness_only, priority: low}
  p.2: {native: porep-lite, params: "curve=bls12-381,challenges=1,depth=4", key_dir: keys, shape: abc_witness}
nodes:
  - name: sch
    roles: [scheduler]
    listen: {control: "[::1]:7400"}
  - name: gpu-1
    roles: [prover, synth]
    listen: {data: 10.0.0.2:7500}
    resources: {cores: 8, memory_budget: 1.5GiB, prover_backend: cuda, gpus: 1, vram: 512MiB}
    hot_circuits: [c1]
    data_plane: {io_threads: 2, send_streams: 2, connect_timeout: 250ms, io_timeout: 1.5s, idle_timeout: 2m, max_attempts: 3, max_payload: 1TiB}
simulation:
  enabled: true
  seed: 9999999999999999999
  jitter: 0.25
  circuits: [{id: sc, buffer_size: 1GiB, prover_work: 0, synth_seconds: 1.5, prove_seconds: 2}]
  nodes:
    - {name_prefix: s, count: 3, roles: [synth], memory_budget: 8GiB, uplink_per_s: 1GiB}
    - {name_prefix: g, roles: [prover], cores: 4, memory_budget: 8GiB, hot_circuits: [sc]}
  jobs: [{circuit: sc, count: 2, partitions: 4, priority: critical, start_seconds: 0.5, every_seconds: 10}]
""")
    w("bad-unknown-key.yaml",
      "scheduler: {endpoint: 127.0.0.1:7400}\nsecurity: {insecure: true}\n"
      "node: {name: n, roles: [synth], memroy: 1}\n")
    w("bad-insecure-open-listener.yaml",
      "scheduler: {endpoint: 0.0.0.0:7400}\nsecurity: {insecure: true}\n"
      "node: {name: s, roles: [scheduler], listen: {control: 0.0.0.0:7400}}\n")
    w("bad-anchors-and-tags.yaml",
      "a: &x [*x]\nscheduler: !!map {endpoint: !!int 7}\nnode: *x\n? [complex]\n: key\n")
    w("bad-size-and-duration.yaml", """scheduler: {endpoint: h:7400}
security: {certs_dir: c}
node:
  name: n
  roles: [synth]
  listen: {data: h:1}
  resources: {memory_budget: 99999999999999999999TiB}
  data_plane: {io_timeout: 99999999999.9h}
""")
    w("bad-not-yaml.yaml", "scheduler: [\n  - {\n\t\"unterminated")
    # The committed example configs, each with the security line a loopback cluster needs.
    configs = os.path.join(os.path.dirname(ROOT), "configs")
    for name in ("farm", "local-cluster", "single-host"):
        with open(os.path.join(configs, name + ".yaml")) as f:
            text = f.read()
        if "\nsecurity:" not in text:
            sec = "{certs_dir: certs}" if name == "farm" else "{insecure: true}"
            text = "security: " + sec + "\n" + text
        w("configs-" + name + ".yaml", text)


# ---- Filecoin: bellperson .vk / proofs / .params, and C1 outputs ------------------------------
#
# Points are multiples of the generators, computed here with plain affine arithmetic (slow, but a
# few dozen points); the ZCash encoding (zk/bellperson/groth16/points.hpp): big-endian coordinates, G2 with
# the imaginary part first, flags 0x80 compressed / 0x40 infinity / 0x20 larger y.

G1_GEN = (0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
          0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1)
G2_GEN = ((0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
           0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E),
          (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
           0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE))


class Fq:
    add = staticmethod(lambda a, b: (a + b) % BLS_Q)
    sub = staticmethod(lambda a, b: (a - b) % BLS_Q)
    mul = staticmethod(lambda a, b: a * b % BLS_Q)
    inv = staticmethod(lambda a: pow(a, BLS_Q - 2, BLS_Q))
    small = staticmethod(lambda k: k % BLS_Q)


class Fq2:  # c0 + c1·u, u² = −1
    add = staticmethod(lambda a, b: ((a[0] + b[0]) % BLS_Q, (a[1] + b[1]) % BLS_Q))
    sub = staticmethod(lambda a, b: ((a[0] - b[0]) % BLS_Q, (a[1] - b[1]) % BLS_Q))
    mul = staticmethod(lambda a, b: ((a[0] * b[0] - a[1] * b[1]) % BLS_Q,
                                     (a[0] * b[1] + a[1] * b[0]) % BLS_Q))
    small = staticmethod(lambda k: (k % BLS_Q, 0))

    @staticmethod
    def inv(a):
        n = pow(a[0] * a[0] + a[1] * a[1], BLS_Q - 2, BLS_Q)
        return (a[0] * n % BLS_Q, -a[1] * n % BLS_Q)


def ec_add(F, p, q):  # affine, None = infinity, a = 0
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0]:
        if F.add(p[1], q[1]) == F.small(0):
            return None
        lam = F.mul(F.mul(F.small(3), F.mul(p[0], p[0])), F.inv(F.add(p[1], p[1])))
    else:
        lam = F.mul(F.sub(q[1], p[1]), F.inv(F.sub(q[0], p[0])))
    x = F.sub(F.sub(F.mul(lam, lam), p[0]), q[0])
    return (x, F.sub(F.mul(lam, F.sub(p[0], x)), p[1]))


def ec_mul(F, p, k):
    r = None
    while k:
        if k & 1:
            r = ec_add(F, r, p)
        p = ec_add(F, p, p)
        k >>= 1
    return r


g1 = lambda k: ec_mul(Fq, G1_GEN, k)
g2 = lambda k: ec_mul(Fq2, G2_GEN, k)
be48 = lambda v: v.to_bytes(48, "big")
larger = lambda y: y > (BLS_Q - 1) // 2


def g1_bytes(p, compressed=False):
    if p is None:
        return bytes([0xC0 if compressed else 0x40]) + bytes(47 if compressed else 95)
    if not compressed:
        return be48(p[0]) + be48(p[1])
    b = bytearray(be48(p[0]))
    b[0] |= 0x80 | (0x20 if larger(p[1]) else 0)
    return bytes(b)


def g2_bytes(q, compressed=False):
    if q is None:
        return bytes([0xC0 if compressed else 0x40]) + bytes(95 if compressed else 191)
    x, y = q
    if not compressed:
        return be48(x[1]) + be48(x[0]) + be48(y[1]) + be48(y[0])
    b = bytearray(be48(x[1]) + be48(x[0]))
    b[0] |= 0x80 | (0x20 if larger(y[1] if y[1] else y[0]) else 0)
    return bytes(b)


def u32be(v):
    return struct.pack(">I", v)


def vk_bytes(n_ic, compressed=False, ic_points=None, first=2):
    k = first
    pts = []
    for kind in "1122" + "12":
        pts.append((kind, k))
        k += 1
    out = b""
    for kind, k in [pts[0], pts[1], pts[2], pts[3], pts[4], pts[5]]:
        out += g1_bytes(g1(k), compressed) if kind == "1" else g2_bytes(g2(k), compressed)
    ic = ic_points if ic_points is not None else [g1_bytes(g1(100 + i), compressed) for i in range(n_ic)]
    return out + u32be(len(ic)) + b"".join(ic)


def off_subgroup_g1():
    """A point of E(Fq) outside G1 (x = 5, 6, …; the first whose [r]P is not infinity)."""
    x = 5
    while True:
        rhs = (x ** 3 + 4) % BLS_Q
        y = pow(rhs, (BLS_Q + 1) // 4, BLS_Q)
        if y * y % BLS_Q == rhs and ec_mul(Fq, (x, y), BLS_R) is not None:
            return (x, y)
        x += 1


def params_bytes(counts=(3, 2, 2, 2, 2), vk=None):
    out = vk if vk is not None else vk_bytes(2)
    k = 200
    for i, n in enumerate(counts):
        out += u32be(n)
        for _ in range(n):
            out += g2_bytes(g2(k)) if i == 4 else g1_bytes(g1(k))
            k += 1
    return out


def filecoin_vk_seeds():
    import json as _json
    with open(os.path.join(os.path.dirname(ROOT), "tests", "fixtures", "filecoin", "polka-2kib.json")) as f:
        polka = _json.load(f)
    write("filecoin_vk", "polka-2kib-compressed.vk", bytes.fromhex(polka["verifying_key_hex_compressed"]))
    write("filecoin_vk", "polka-2kib.proof", bytes.fromhex(polka["proof_hex"]))
    write("filecoin_vk", "uncompressed-3ic.vk", vk_bytes(3))
    write("filecoin_vk", "compressed-3ic.vk", vk_bytes(3, compressed=True))
    proof = lambda k: g1_bytes(g1(k), True) + g2_bytes(g2(k + 1), True) + g1_bytes(g1(k + 2), True)
    write("filecoin_vk", "two-partitions.proof", proof(7) + proof(11))
    good = vk_bytes(3)
    write("filecoin_vk", "bad-ic-count.vk", good[:864] + u32be(1 << 28) + good[868:])
    write("filecoin_vk", "bad-trailing-byte.vk", good + b"\0")
    write("filecoin_vk", "bad-truncated.vk", good[:-5])
    bad = bytearray(good)
    bad[96 + 95] ^= 1  # beta_g1.y: off the curve
    write("filecoin_vk", "bad-off-curve.vk", bytes(bad))
    write("filecoin_vk", "bad-not-in-subgroup.vk",
          vk_bytes(0, ic_points=[g1_bytes(g1(100)), g1_bytes(off_subgroup_g1())]))
    write("filecoin_vk", "bad-infinity-ic.vk", vk_bytes(0, ic_points=[g1_bytes(None)]))
    bad = bytearray(good)
    bad[0] |= 0x20  # a sign flag on an uncompressed point
    write("filecoin_vk", "bad-flags.vk", bytes(bad))
    p = bytearray(proof(7))
    p[48] |= 0x40  # B claims infinity with coordinates
    write("filecoin_vk", "bad-proof-flags.proof", bytes(p))


def filecoin_params_seeds():
    good = params_bytes()
    write("filecoin_params", "small.params", good)
    write("filecoin_params", "empty-sections.params", params_bytes(counts=(0, 0, 0, 0, 0)))
    vk_len = len(vk_bytes(2))
    write("filecoin_params", "bad-lying-count.params", good[:vk_len] + u32be(0xFFFFFF) + good[vk_len + 4:])
    write("filecoin_params", "bad-truncated.params", good[:-100])
    write("filecoin_params", "bad-trailing.params", good + b"\1\2\3")
    l1 = vk_len + 4 + 3 * 96 + 4 + 96  # section l, point 1
    bad = bytearray(good)
    bad[l1 + 95] ^= 1
    write("filecoin_params", "bad-off-curve-l1.params", bytes(bad))
    a0 = vk_len + 4 + 3 * 96 + 4 + 2 * 96 + 4
    bad = bytearray(good)
    bad[a0:a0 + 96] = g1_bytes(off_subgroup_g1())
    write("filecoin_params", "bad-not-in-subgroup-a0.params", bytes(bad))
    bad = bytearray(good)
    h0 = vk_len + 4
    bad[h0:h0 + 96] = g1_bytes(None)
    write("filecoin_params", "bad-infinity-h0.params", bytes(bad))
    write("filecoin_params", "bad-compressed-vk.params", vk_bytes(2, compressed=True) + good[vk_len:])


def c1_text(domain_value=1, partitions=1, challenges=2, layers=2, comm_d_path=6, base_path=2):
    """A C1 of StackedDrg2KiBV1_1's exact shape with tiny values (valid for the reader: the shape,
    not the proofs)."""
    d = "[%d" % domain_value + ",0" * 31 + "]"
    path = lambda n, arity: '{"path":[' + ",".join(
        '{"hashes":[' + ",".join([d] * (arity - 1)) + '],"index":0}' for _ in range(n)) + "]}"
    merkle = lambda n, arity: ('{"data":{"Single":{"root":%s,"leaf":%s,"path":%s}}}'
                               % (d, d, path(n, arity)))
    column = ('{"column":{"index":3,"rows":[' + ",".join([d] * layers) + '],"_h":null},'
              '"inclusion_proof":' + merkle(base_path, 8) + "}")
    label = lambda l: '{"parents":[' + ",".join([d] * 37) + '],"layer_index":%d,"node":3}' % l
    proof = ('{"comm_d_proofs":' + merkle(comm_d_path, 2) + ',"comm_r_last_proof":' +
             merkle(base_path, 8) + ',"replica_column_proofs":{"c_x":' + column +
             ',"drg_parents":[' + ",".join([column] * 6) + '],"exp_parents":[' +
             ",".join([column] * 8) + ']},"labeling_proofs":[' +
             ",".join(label(l) for l in range(1, layers + 1)) + '],"encoding_proof":' +
             label(layers) + "}")
    parts = ",".join("[" + ",".join([proof] * challenges) + "]" for _ in range(partitions))
    return ('{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{"StackedDrg2KiBV1":[' +
            parts + ']},"comm_r":' + d + ',"comm_d":' + d + ',"replica_id":' + d + ',"seed":' +
            d + ',"ticket":' + d + "}")


def filecoin_c1_seeds():
    import base64
    w = lambda name, text: write("filecoin_c1", name, text.encode())
    good = c1_text()
    w("minimal-2kib.json", good)
    w("bad-one-challenge.json", c1_text(challenges=1))
    w("bad-unknown-proof.json", '{"registered_proof":"StackedDrg4KiBV1","vanilla_proofs":{}}')
    w("bad-missing-keys.json", '{"registered_proof":"StackedDrg2KiBV1"}')
    w("bad-escapes.json", '{"registered_proof":"Stacked\\u0044rg2KiBV1\\ud800","seed":[01]}')
    inner = c1_text()[:3000].encode()
    w("wrapper-truncated-inner.json",
      '{"SectorNum":7,"Phase1Out":"' + base64.b64encode(inner).decode() + '","SectorSize":2048}')
    w("wrapper-bad-base64.json", '{"SectorNum":-1,"Phase1Out":"eyJ=","SectorSize":2048}')
    # The reader's bounds and nlohmann's number kinds (zk/filecoin/api/c1.cpp reader_t).
    head = '{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{"StackedDrg2KiBV1":'
    w("bad-deep-nesting.json", head + "[" * 20000)
    w("bad-127-partitions.json", head + "[" + "[]," * 126 + "[]]}}")
    w("bad-bom.json", "\ufeff" + good[:200])
    w("bad-numbers.json", '{"SectorNum":-9223372036854775809,"Phase1Out":"","SectorSize":1e400}')
    w("bad-big-integers.json", good.replace('"node":3', '"node":18446744073709551616', 1))
    w("bad-33-bytes.json", good.replace('"seed":[1,', '"seed":[0,1,', 1))


def partition_input(proof_id=5, partition=0, challenges=2, value=1, index=0, node=3, version=1):
    """A StackedDrg2KiBV1_1 partition input (zk/filecoin/api/partition_input.hpp) of the exact
    layout with tiny values: valid for the reader (the structure, not a proof)."""
    v = le(value, 32)
    path = lambda levels, arity: (bytes([index]) + v * (arity - 1)) * levels
    tree = path(2, 8)
    out = bytearray(b"ZKFP" + struct.pack("<HHQII", version, 0, proof_id, partition, challenges))
    out += v * 5
    for _ in range(challenges):
        out += u64(node) + b"".join(u32((node + 1 + i) % 64) for i in range(14))
        out += v + path(6, 2) + tree + tree
        out += (v * 2 + tree) * 14
    return bytes(out)


def filecoin_partition_seeds():
    w = lambda name, data: write("filecoin_partition", name, data)
    good = partition_input()
    w("minimal-2kib.fcp", good)
    w("bad-truncated.fcp", good[:-1])
    w("bad-header-only.fcp", good[:24])
    w("bad-magic.fcp", b"ZKFQ" + good[4:])
    w("bad-version.fcp", partition_input(version=2))
    w("bad-other-proof.fcp", partition_input(proof_id=0))
    w("bad-partition.fcp", partition_input(partition=1))
    w("bad-index.fcp", partition_input(index=2))
    w("bad-node.fcp", partition_input(node=64))
    w("bad-value.fcp", partition_input(value=BLS_R))


def filecoin_update_input_seeds():
    """.fup inputs (zk/filecoin/api/update_input.hpp) around the partition proof Filecoin's own code
    made for the 2 KiB update of tests/fixtures/filecoin/snap-2k (vanilla-0.bin)."""
    w = lambda name, data: write("filecoin_update_input", name, data)
    proof = open(os.path.join(ROOT, "..", "tests", "fixtures", "filecoin", "snap-2k",
                              "vanilla-0.bin"), "rb").read()
    comms = bytes(range(1, 33)) + bytes(range(2, 34)) + bytes(range(3, 35))
    head = lambda proof_id=0, partition=0, version=1: (
        b"ZKUP" + struct.pack("<HHQII", version, 0, proof_id, partition, 0) + comms)
    good = head() + proof
    w("filecoin-2kib.fup", good)
    w("bad-truncated.fup", good[:-1])
    w("bad-header-only.fup", good[:120])
    w("bad-magic.fup", b"ZKUQ" + good[4:])
    w("bad-version.fup", head(version=2) + proof)
    w("bad-other-proof.fup", head(proof_id=1) + proof)
    w("bad-partition.fup", head(partition=1) + proof)
    w("bad-apex-count.fup", good[:152] + u64(9) + good[160:])
    w("bad-value.fup", head() + proof[:40] + le(BLS_R, 32) + proof[72:])


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["filecoin"]:  # only the Filecoin seeds
        filecoin_vk_seeds()
        filecoin_params_seeds()
        filecoin_c1_seeds()
        filecoin_partition_seeds()
        filecoin_update_input_seeds()
        sys.exit(0)
    r1cs_seeds()
    wtns_seeds()
    zkey_seeds()
    json_seeds()
    synth_seeds()
    reply_seeds()
    config_seeds()
    filecoin_vk_seeds()
    filecoin_params_seeds()
    filecoin_c1_seeds()
    filecoin_partition_seeds()
    filecoin_update_input_seeds()
