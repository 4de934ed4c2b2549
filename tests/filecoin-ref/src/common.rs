//! Argument parsing, hex/field helpers, PoRep configuration and environment set-up shared by
//! every subcommand. Nothing in here re-implements Filecoin logic: porep_id, partitions, layers
//! and challenge counts all come from filecoin-proofs-api / filecoin-proofs.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use blstrs::Scalar as Fr;
use ff::PrimeField;
use filecoin_proofs::PoRepConfig;
use filecoin_proofs_api::{ApiFeature, ApiVersion, RegisteredSealProof};
use num_bigint::BigUint;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Errors and exit codes

/// A usage or input error: the tool exits with status 2 and prints the message on stderr.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

pub fn usage_err(msg: impl Into<String>) -> anyhow::Error {
    UsageError(msg.into()).into()
}

/// Exit status of a subcommand: 0 ok / valid, 1 invalid proof or failed check.
pub type Status = i32;
pub const OK: Status = 0;
pub const INVALID: Status = 1;

// ---------------------------------------------------------------------------------------------
// Command-line arguments: `--name value` options and `--flag` switches, nothing positional.

pub struct Args {
    values: HashMap<String, String>,
    flags: Vec<String>,
}

impl Args {
    /// `spec` lists the accepted option names; a trailing `!` marks a switch without value.
    pub fn parse(argv: &[String], spec: &[&str]) -> Result<Args> {
        let mut values = HashMap::new();
        let mut flags = Vec::new();
        let mut i = 0;
        while i < argv.len() {
            let a = &argv[i];
            let name = a
                .strip_prefix("--")
                .ok_or_else(|| usage_err(format!("unexpected argument '{}'", a)))?;
            let (name, inline) = match name.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (name.to_string(), None),
            };
            if spec.iter().any(|s| s.strip_suffix('!') == Some(name.as_str())) {
                if inline.is_some() {
                    return Err(usage_err(format!("--{} takes no value", name)));
                }
                flags.push(name);
                i += 1;
                continue;
            }
            if !spec.iter().any(|s| *s == name) {
                return Err(usage_err(format!("unknown option --{}", name)));
            }
            let v = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    argv.get(i)
                        .cloned()
                        .ok_or_else(|| usage_err(format!("--{} needs a value", name)))?
                }
            };
            if values.insert(name.clone(), v).is_some() {
                return Err(usage_err(format!("--{} given twice", name)));
            }
            i += 1;
        }
        Ok(Args { values, flags })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(|s| s.as_str())
    }

    pub fn req(&self, name: &str) -> Result<&str> {
        self.get(name)
            .ok_or_else(|| usage_err(format!("missing required option --{}", name)))
    }

    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    pub fn hex32(&self, name: &str) -> Result<[u8; 32]> {
        parse_hex32(self.req(name)?).map_err(|e| usage_err(format!("--{}: {}", name, e)))
    }

    pub fn opt_hex32(&self, name: &str) -> Result<Option<[u8; 32]>> {
        match self.get(name) {
            None => Ok(None),
            Some(s) => parse_hex32(s)
                .map(Some)
                .map_err(|e| usage_err(format!("--{}: {}", name, e))),
        }
    }

    pub fn u64(&self, name: &str) -> Result<u64> {
        parse_u64(self.req(name)?).map_err(|e| usage_err(format!("--{}: {}", name, e)))
    }

    pub fn opt_u64(&self, name: &str) -> Result<Option<u64>> {
        match self.get(name) {
            None => Ok(None),
            Some(s) => parse_u64(s)
                .map(Some)
                .map_err(|e| usage_err(format!("--{}: {}", name, e))),
        }
    }

    pub fn path(&self, name: &str) -> Result<PathBuf> {
        Ok(PathBuf::from(self.req(name)?))
    }
}

pub fn parse_u64(s: &str) -> Result<u64> {
    let s = s.trim();
    let r = if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16)
    } else {
        s.parse::<u64>()
    };
    r.map_err(|_| anyhow!("'{}' is not an unsigned 64-bit integer", s))
}

pub fn parse_hex(s: &str) -> Result<Vec<u8>> {
    let s = s.trim();
    let s = s.strip_prefix("0x").unwrap_or(s);
    hex::decode(s).map_err(|e| anyhow!("invalid hex: {}", e))
}

pub fn parse_hex32(s: &str) -> Result<[u8; 32]> {
    let v = parse_hex(s)?;
    v.as_slice()
        .try_into()
        .map_err(|_| anyhow!("expected 32 bytes (64 hex digits), got {} bytes", v.len()))
}

/// Reads a binary input file. A file made only of hex digits (and whitespace, optional 0x) is
/// decoded as hex, so the hex strings of the test vectors can be passed without conversion.
pub fn read_bytes_or_hex(path: &Path) -> Result<Vec<u8>> {
    let raw = fs::read(path)
        .map_err(|e| usage_err(format!("cannot read {}: {}", path.display(), e)))?;
    let is_text = !raw.is_empty()
        && raw
            .iter()
            .all(|b| b.is_ascii_hexdigit() || b.is_ascii_whitespace() || *b == b'x');
    if is_text {
        let text: String = String::from_utf8_lossy(&raw)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("");
        let text = text.strip_prefix("0x").unwrap_or(&text).to_string();
        if text.len() % 2 == 0 && text.chars().all(|c| c.is_ascii_hexdigit()) {
            return hex::decode(&text)
                .map_err(|e| usage_err(format!("{}: invalid hex: {}", path.display(), e)));
        }
    }
    Ok(raw)
}

// ---------------------------------------------------------------------------------------------
// Field elements and JSON helpers

pub fn hx(b: impl AsRef<[u8]>) -> String {
    hex::encode(b.as_ref())
}

/// Canonical decimal representation of a BLS12-381 scalar.
pub fn fr_dec(f: &Fr) -> String {
    let repr = f.to_repr();
    let bytes: &[u8] = repr.as_ref();
    if bytes[8..].iter().all(|b| *b == 0) {
        return u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")).to_string();
    }
    BigUint::from_bytes_le(bytes).to_string()
}

/// Balanced decimal representation of a scalar: `c` if c <= (r-1)/2, else `-(r - c)`.
/// Unambiguous (one string per field element) and short for the small negative coefficients
/// that dominate R1CS linear combinations.
pub fn fr_signed_dec(f: &Fr) -> String {
    let neg = -*f;
    let a = f.to_repr();
    let b = neg.to_repr();
    // Compare as little-endian integers: the smaller of f and r-f is the balanced form.
    let (ab, bb): (&[u8], &[u8]) = (a.as_ref(), b.as_ref());
    let f_is_small = ab.iter().rev().cmp(bb.iter().rev()) != std::cmp::Ordering::Greater;
    if f_is_small {
        fr_dec(f)
    } else {
        format!("-{}", fr_dec(&neg))
    }
}

pub fn print_json(v: &Value) -> Result<()> {
    let s = serde_json::to_string_pretty(v)?;
    println!("{}", s);
    Ok(())
}

pub fn write_json(path: &Path, v: &Value) -> Result<()> {
    let s = serde_json::to_string_pretty(v)?;
    fs::write(path, s + "\n").with_context(|| format!("writing {}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Registered proofs, API versions and the PoRep configuration

pub fn parse_registered_proof(name: &str) -> Result<RegisteredSealProof> {
    serde_json::from_value(Value::String(name.to_string())).map_err(|_| {
        usage_err(format!(
            "unknown registered proof '{}' (e.g. StackedDrg2KiBV1, StackedDrg2KiBV1_1, \
             StackedDrg8MiBV1_1, StackedDrg32GiBV1_1, StackedDrg2KiBV1_1_Feat_SyntheticPoRep)",
            name
        ))
    })
}

pub fn registered_proof_name(rp: RegisteredSealProof) -> String {
    match serde_json::to_value(rp) {
        Ok(Value::String(s)) => s,
        _ => format!("{:?}", rp),
    }
}

pub fn parse_api_version(s: &str) -> Result<ApiVersion> {
    match s {
        "V1_0_0" | "1.0.0" | "V1_0" => Ok(ApiVersion::V1_0_0),
        "V1_1_0" | "1.1.0" | "V1_1" => Ok(ApiVersion::V1_1_0),
        "V1_2_0" | "1.2.0" | "V1_2" => Ok(ApiVersion::V1_2_0),
        _ => Err(usage_err(format!(
            "unknown api version '{}' (V1_0_0, V1_1_0 or V1_2_0)",
            s
        ))),
    }
}

pub fn api_version_name(v: ApiVersion) -> &'static str {
    match v {
        ApiVersion::V1_0_0 => "V1_0_0",
        ApiVersion::V1_1_0 => "V1_1_0",
        ApiVersion::V1_2_0 => "V1_2_0",
    }
}

pub fn challenge_kind(cfg: &PoRepConfig) -> &'static str {
    if cfg.feature_enabled(ApiFeature::SyntheticPoRep) {
        "synthetic"
    } else if cfg.feature_enabled(ApiFeature::NonInteractivePoRep) {
        "non-interactive"
    } else {
        "interactive"
    }
}

/// A registered proof with the PoRepConfig Filecoin uses for it
/// (`RegisteredSealProof::as_v1_config`, from filecoin-proofs-api), optionally with its
/// api_version and/or porep_id overridden (as e.g. the polka-storage vector does).
pub struct Porep {
    pub rp: RegisteredSealProof,
    pub cfg: PoRepConfig,
    pub default_porep_id: [u8; 32],
    pub default_api_version: ApiVersion,
}

impl Porep {
    pub fn new(
        rp: RegisteredSealProof,
        api_version: Option<ApiVersion>,
        porep_id: Option<[u8; 32]>,
    ) -> Porep {
        let mut cfg = rp.as_v1_config();
        let default_porep_id = cfg.porep_id;
        let default_api_version = cfg.api_version;
        if let Some(v) = api_version {
            cfg.api_version = v;
        }
        if let Some(p) = porep_id {
            cfg.porep_id = p;
        }
        Porep {
            rp,
            cfg,
            default_porep_id,
            default_api_version,
        }
    }

    /// Reads --registered-proof, --api-version and --porep-id.
    pub fn from_args(a: &Args) -> Result<Porep> {
        let rp = parse_registered_proof(a.req("registered-proof")?)?;
        Self::from_args_with(a, rp)
    }

    pub fn from_args_with(a: &Args, rp: RegisteredSealProof) -> Result<Porep> {
        let v = a.get("api-version").map(parse_api_version).transpose()?;
        let p = a.opt_hex32("porep-id")?;
        Ok(Porep::new(rp, v, p))
    }

    pub fn sector_size(&self) -> u64 {
        u64::from(self.cfg.sector_size)
    }

    pub fn describe(&self) -> BTreeMap<&'static str, Value> {
        let mut m = BTreeMap::new();
        m.insert("registered_proof", Value::from(registered_proof_name(self.rp)));
        m.insert("api_version", Value::from(api_version_name(self.cfg.api_version)));
        m.insert("porep_id", Value::from(hx(self.cfg.porep_id)));
        m.insert(
            "porep_id_is_default",
            Value::from(self.cfg.porep_id == self.default_porep_id),
        );
        m.insert(
            "api_version_is_default",
            Value::from(self.cfg.api_version == self.default_api_version),
        );
        m.insert("sector_size", Value::from(self.sector_size()));
        m.insert("partitions", Value::from(self.cfg.partitions.0));
        m.insert("challenge_kind", Value::from(challenge_kind(&self.cfg)));
        m
    }
}

/// The number of SDR layers filecoin-proofs uses for a sector size (`constants::LAYERS`).
pub fn layers_for(sector_size: u64) -> Result<usize> {
    filecoin_proofs::constants::LAYERS
        .read()
        .map_err(|_| anyhow!("LAYERS poisoned"))?
        .get(&sector_size)
        .copied()
        .ok_or_else(|| usage_err(format!("unsupported sector size {}", sector_size)))
}

// ---------------------------------------------------------------------------------------------
// Environment: where rust-fil-proofs keeps its parent cache and parameter cache.

/// `${ZK_CACHE_DIR:-$HOME/.cache/zkfleet}/filecoin-ref`
pub fn cache_root() -> PathBuf {
    let base = std::env::var_os("ZK_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_else(|| "/tmp".into());
            PathBuf::from(home).join(".cache").join("zkfleet")
        });
    base.join("filecoin-ref")
}

/// Must run before anything touches `storage_proofs_core::settings::SETTINGS` (a lazy static
/// read from FIL_PROOFS_* variables on first use).
///
/// The SDR parent cache file name depends on the graph size and the porep_id but not on the
/// api version, although V1_0_0 and V1_1_0+ graphs differ; every api version therefore gets
/// its own directory under `$FIL_PROOFS_PARENT_CACHE` (default `<cache_root>/parents`).
pub fn init_env(api_version: ApiVersion, parameter_cache: Option<&Path>) -> Result<()> {
    let base = std::env::var_os("FIL_PROOFS_PARENT_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| cache_root().join("parents"));
    let dir = base.join(api_version_name(api_version));
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut s = dir.display().to_string();
    if !s.ends_with('/') {
        s.push('/');
    }
    std::env::set_var("FIL_PROOFS_PARENT_CACHE", s);
    if let Some(p) = parameter_cache {
        let mut s = p.display().to_string();
        if !s.ends_with('/') {
            s.push('/');
        }
        std::env::set_var("FIL_PROOFS_PARAMETER_CACHE", s);
    }
    // CPU only; these are the defaults, set explicitly so a stray environment cannot change them.
    std::env::set_var("FIL_PROOFS_USE_GPU_COLUMN_BUILDER", "false");
    std::env::set_var("FIL_PROOFS_USE_GPU_TREE_BUILDER", "false");
    std::env::set_var("FIL_PROOFS_VERIFY_PRODUCTION_PARAMS", "false");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Small base64 decoder (standard alphabet) for the lotus/curio C1 wrapper `Phase1Out`.

pub fn base64_decode(s: &str) -> Result<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some((c - b'A') as u32),
            b'a'..=b'z' => Some((c - b'a') as u32 + 26),
            b'0'..=b'9' => Some((c - b'0') as u32 + 52),
            b'+' | b'-' => Some(62),
            b'/' | b'_' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for &c in s.as_bytes() {
        if c == b'=' || c.is_ascii_whitespace() {
            continue;
        }
        let v = val(c).ok_or_else(|| anyhow!("invalid base64 character {:?}", c as char))?;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

pub fn secs(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}
