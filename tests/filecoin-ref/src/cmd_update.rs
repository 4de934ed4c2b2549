//! SnapDeals (EmptySectorUpdate) through filecoin-proofs-api's own update functions:
//! `update-verify`: update::verify_empty_sector_update_proof, with the given verifying key
//! installed under the file name filecoin-proofs loads (the update's cache identifier, from
//! storage-proofs-update's CacheableParameters) in a private parameter cache.
//! `update-check-vanilla`: update::verify_partition_proofs on Curio's snap-vproof.json (a JSON
//! list of base64 partition proofs) or one raw bincode partition proof.
//! `update-prove`: update::generate_empty_sector_update_proof_with_vanilla (what Curio's
//! ProveUpdate and cuzk call), Filecoin's own CPU prover, with the given `.params` linked into a
//! private parameter cache under the update's cache identifier and its verifying key (the head of
//! the file) beside it; prints the call's wall time and the process's peak RSS.
//! `update-count`: synthesizes storage-proofs-update's EmptySectorUpdateCircuit into the streaming
//! constraint system of cs.rs (counts, `--dump` of every allocation and constraint): the blank
//! circuit (EmptySectorUpdateCircuit::blank, what the parameters are generated for), or with
//! `--vanilla` the circuit of partition K (EmptySectorUpdateCompound::circuit, as
//! generate_empty_sector_update_proof_with_vanilla builds it), its witness evaluated, every
//! constraint checked, its inputs compared with generate_public_inputs, `--witness FILE.bin`
//! (a file of one partition's proof is taken as partition K's).

use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use bellperson::groth16::VerifyingKey;
use bellperson::Circuit;
use blstrs::Bls12;
use filecoin_proofs::as_safe_commitment;
use filecoin_proofs::constants::{
    SectorShape2KiB, SectorShape32GiB, SectorShape512MiB, SectorShape64GiB, SectorShape8MiB,
};
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs_api::update;
use filecoin_proofs_api::{PartitionProofBytes, RegisteredUpdateProof};
use serde_json::{json, Value};
use storage_proofs_core::compound_proof::CompoundProof;
use storage_proofs_core::parameter_cache::CacheableParameters;
use storage_proofs_update::constants::{h_default, TreeRHasher};
use storage_proofs_update::{
    EmptySectorUpdateCircuit, EmptySectorUpdateCompound, PartitionProof, PublicInputs,
    PublicParams,
};

use crate::common::*;
use crate::cs::RefCS;
use crate::vk::parse_vk;

fn parse_update_proof(name: &str) -> Result<RegisteredUpdateProof> {
    Ok(match name {
        "StackedDrg2KiBV1" => RegisteredUpdateProof::StackedDrg2KiBV1,
        "StackedDrg8MiBV1" => RegisteredUpdateProof::StackedDrg8MiBV1,
        "StackedDrg512MiBV1" => RegisteredUpdateProof::StackedDrg512MiBV1,
        "StackedDrg32GiBV1" => RegisteredUpdateProof::StackedDrg32GiBV1,
        "StackedDrg64GiBV1" => RegisteredUpdateProof::StackedDrg64GiBV1,
        _ => return Err(usage_err(format!("unknown registered update proof '{}'", name))),
    })
}

/// The update parameters' cache identifier (the `v28-<id>.vk` file filecoin-proofs loads).
fn cache_id<Tree: 'static + MerkleTreeTrait<Hasher = storage_proofs_update::constants::TreeRHasher>>(
    sector_size: u64,
) -> String {
    let pp = PublicParams::from_sector_size(sector_size);
    <EmptySectorUpdateCompound<Tree> as CacheableParameters<
        EmptySectorUpdateCircuit<Tree>,
        PublicParams,
    >>::cache_identifier(&pp)
}

fn cache_id_for(sector_size: u64) -> Result<String> {
    Ok(match sector_size {
        2048 => cache_id::<SectorShape2KiB>(sector_size),
        8388608 => cache_id::<SectorShape8MiB>(sector_size),
        536870912 => cache_id::<SectorShape512MiB>(sector_size),
        34359738368 => cache_id::<SectorShape32GiB>(sector_size),
        68719476736 => cache_id::<SectorShape64GiB>(sector_size),
        _ => return Err(usage_err(format!("no update proof for {} bytes", sector_size))),
    })
}

const SPEC: &[&str] = &[
    "vk",
    "proof",
    "registered-update-proof",
    "comm-r-old",
    "comm-r-new",
    "comm-d-new",
];

pub fn run_verify(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let up = parse_update_proof(a.req("registered-update-proof")?)?;
    let comm_r_old = a.hex32("comm-r-old")?;
    let comm_r_new = a.hex32("comm-r-new")?;
    let comm_d_new = a.hex32("comm-d-new")?;
    let vk_bytes = fs::read(a.path("vk")?)?;
    let proof = fs::read(a.path("proof")?)?;
    let loaded = parse_vk(&vk_bytes).map_err(|e| usage_err(format!("--vk: {:#}", e)))?;

    let param_dir = tempfile::Builder::new()
        .prefix("filecoin-ref-params-")
        .tempdir()?;
    init_env(filecoin_proofs_api::ApiVersion::V1_1_0, Some(param_dir.path()))?;
    let id = cache_id_for(u64::from(up.sector_size()))?;
    let vk_path = param_dir.path().join(format!("v28-{}.vk", id));
    let mut f = fs::File::create(&vk_path)?;
    loaded.vk.write(&mut f)?;
    drop(f);

    // An Err (bad length, bad point, malformed key, a commitment not below r) ends with exit 2.
    let valid =
        update::verify_empty_sector_update_proof(up, &proof, comm_r_old, comm_r_new, comm_d_new)?;
    print_json(&json!({
        "valid": valid,
        "function": "filecoin_proofs_api::update::verify_empty_sector_update_proof",
        "registered_update_proof": a.req("registered-update-proof")?,
        "vk_cache_file": format!("v28-{}.vk", id),
        "vk_ic_points": loaded.vk.ic.len(),
    }))?;
    Ok(if valid { OK } else { INVALID })
}

/// The partition proofs of `--vanilla`: snap-vproof.json (Go's json.Marshal of [][]byte) or one
/// raw partition.
fn read_partitions(path: &Path) -> Result<Vec<Vec<u8>>> {
    let raw = fs::read(path)?;
    if raw.first() != Some(&b'[') {
        return Ok(vec![raw]);
    }
    let v: Value = serde_json::from_slice(&raw)?;
    let list = v
        .as_array()
        .ok_or_else(|| usage_err("--vanilla: not a JSON list"))?;
    list.iter()
        .map(|s| base64_decode(s.as_str().ok_or_else(|| usage_err("--vanilla: not a string"))?))
        .collect()
}

const VANILLA_SPEC: &[&str] = &[
    "vanilla",
    "registered-update-proof",
    "comm-r-old",
    "comm-r-new",
    "comm-d-new",
];

pub fn run_check_vanilla(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, VANILLA_SPEC)?;
    let up = parse_update_proof(a.req("registered-update-proof")?)?;
    let comm_r_old = a.hex32("comm-r-old")?;
    let comm_r_new = a.hex32("comm-r-new")?;
    let comm_d_new = a.hex32("comm-d-new")?;
    let parts = read_partitions(&a.path("vanilla")?)?;
    init_env(filecoin_proofs_api::ApiVersion::V1_1_0, None)?;
    let proofs: Vec<PartitionProofBytes> = parts.into_iter().map(PartitionProofBytes).collect();
    let valid = update::verify_partition_proofs(up, &proofs, comm_r_old, comm_r_new, comm_d_new)?;
    print_json(&json!({
        "valid": valid,
        "function": "filecoin_proofs_api::update::verify_partition_proofs",
        "partitions": proofs.len(),
    }))?;
    Ok(if valid { OK } else { INVALID })
}

const PROVE_SPEC: &[&str] = &[
    "registered-update-proof",
    "vanilla",
    "comm-r-old",
    "comm-r-new",
    "comm-d-new",
    "params",
    "out",
];

pub fn run_prove(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, PROVE_SPEC)?;
    let up = parse_update_proof(a.req("registered-update-proof")?)?;
    let comm_r_old = a.hex32("comm-r-old")?;
    let comm_r_new = a.hex32("comm-r-new")?;
    let comm_d_new = a.hex32("comm-d-new")?;
    let parts = read_partitions(&a.path("vanilla")?)?;
    let out = a.path("out")?;
    let params = a.path("params")?;
    let params = fs::canonicalize(&params)
        .map_err(|e| usage_err(format!("--params {}: {}", params.display(), e)))?;

    let param_dir = tempfile::Builder::new()
        .prefix("filecoin-ref-params-")
        .tempdir()?;
    init_env(filecoin_proofs_api::ApiVersion::V1_1_0, Some(param_dir.path()))?;
    let id = cache_id_for(u64::from(up.sector_size()))?;
    let params_link = param_dir.path().join(format!("v28-{}.params", id));
    std::os::unix::fs::symlink(&params, &params_link)
        .with_context(|| format!("linking {}", params_link.display()))?;
    let vk = VerifyingKey::<Bls12>::read(BufReader::new(File::open(&params)?))
        .map_err(|e| usage_err(format!("--params: cannot read its verifying key: {}", e)))?;
    vk.write(File::create(param_dir.path().join(format!("v28-{}.vk", id)))?)?;

    let proofs: Vec<PartitionProofBytes> = parts.into_iter().map(PartitionProofBytes).collect();
    let t = Instant::now();
    let proof = update::generate_empty_sector_update_proof_with_vanilla(
        up, proofs, comm_r_old, comm_r_new, comm_d_new,
    )
    .context("generate_empty_sector_update_proof_with_vanilla")?;
    let elapsed = t.elapsed();
    fs::write(&out, &proof.0).with_context(|| format!("writing {}", out.display()))?;
    let peak_rss_kb = peak_rss_kb();
    eprintln!(
        "generate_empty_sector_update_proof_with_vanilla: {:.3} s ({} bytes of proof), peak RSS {} KB",
        elapsed.as_secs_f64(),
        proof.0.len(),
        peak_rss_kb.map_or("?".to_string(), |k| k.to_string())
    );
    print_json(&json!({
        "function": "filecoin_proofs_api::update::generate_empty_sector_update_proof_with_vanilla",
        "registered_update_proof": a.req("registered-update-proof")?,
        "params_cache_file": format!("v28-{}.params", id),
        "vk_ic_points": vk.ic.len(),
        "proof_file": out.display().to_string(),
        "proof_bytes": proof.0.len(),
        "proof": hx(&proof.0),
        "time_s": secs(elapsed),
        "peak_rss_kb": peak_rss_kb,
    }))?;
    Ok(OK)
}

/// The process's peak resident set (VmHWM of /proc/self/status), in KB.
fn peak_rss_kb() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

const COUNT_SPEC: &[&str] = &[
    "registered-update-proof",
    "dump",
    "witness",
    "vanilla",
    "partition",
    "comm-r-old",
    "comm-r-new",
    "comm-d-new",
];

/// The real circuit's inputs (`--vanilla`).
struct RealCircuit {
    partition: Vec<u8>,
    k: usize,
    comm_r_old: [u8; 32],
    comm_d_new: [u8; 32],
    comm_r_new: [u8; 32],
}

pub fn run_count(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, COUNT_SPEC)?;
    let name = a.req("registered-update-proof")?;
    let up = parse_update_proof(name)?;
    let dump = a.get("dump").map(PathBuf::from);
    let witness = a.get("witness").map(PathBuf::from);
    let real = match a.get("vanilla") {
        Some(path) => {
            let mut parts = read_partitions(Path::new(path))?;
            let k = a.opt_u64("partition")?.unwrap_or(0) as usize;
            // One partition given (a raw one): it is partition K.
            let at = if parts.len() == 1 { 0 } else { k };
            if at >= parts.len() {
                return Err(usage_err(format!(
                    "--partition {} of {} partition proofs",
                    k,
                    parts.len()
                )));
            }
            Some(RealCircuit {
                partition: parts.swap_remove(at),
                k,
                comm_r_old: a.hex32("comm-r-old")?,
                comm_d_new: a.hex32("comm-d-new")?,
                comm_r_new: a.hex32("comm-r-new")?,
            })
        }
        None if witness.is_some() => {
            return Err(usage_err("--witness needs the real circuit (--vanilla)"))
        }
        None => None,
    };
    init_env(filecoin_proofs_api::ApiVersion::V1_1_0, None)?;
    let bytes = u64::from(up.sector_size());
    let (d, w) = (dump.as_deref(), witness.as_deref());
    let mut v = match bytes {
        2048 => count_update::<SectorShape2KiB>(bytes, real, d, w)?,
        8388608 => count_update::<SectorShape8MiB>(bytes, real, d, w)?,
        536870912 => count_update::<SectorShape512MiB>(bytes, real, d, w)?,
        34359738368 => count_update::<SectorShape32GiB>(bytes, real, d, w)?,
        68719476736 => count_update::<SectorShape64GiB>(bytes, real, d, w)?,
        _ => return Err(usage_err(format!("no update proof for {} bytes", bytes))),
    };
    if let Value::Object(m) = &mut v {
        m.insert("registered_update_proof".into(), json!(name));
    }
    let ok = v.get("ok").and_then(|x| x.as_bool()).unwrap_or(true);
    print_json(&v)?;
    Ok(if ok { OK } else { INVALID })
}

fn count_update<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>>(
    sector_size: u64,
    real: Option<RealCircuit>,
    dump: Option<&Path>,
    witness: Option<&Path>,
) -> Result<Value> {
    let pp = PublicParams::from_sector_size(sector_size);
    let t = Instant::now();
    let Some(r) = real else {
        let mut cs = RefCS::new(false, dump)?;
        EmptySectorUpdateCircuit::<Tree>::blank(pp.clone()).synthesize(&mut cs)?;
        cs.finish()?;
        return Ok(json!({
            "circuit": "EmptySectorUpdateCircuit::blank",
            "sector_nodes": pp.sector_nodes,
            "num_inputs": cs.num_inputs,
            "num_aux": cs.num_aux,
            "num_constraints": cs.num_constraints,
            "prover_constraints": cs.prover_constraints(),
            "lc_terms": cs.lc_terms,
            "dump": dump.map(|d| d.display().to_string()),
            "time_s": secs(t.elapsed()),
        }));
    };
    let proof: PartitionProof<Tree> = bincode::deserialize(&r.partition)
        .map_err(|e| usage_err(format!("--vanilla: partition {}: {}", r.k, e)))?;
    let pub_inputs = PublicInputs {
        k: r.k,
        comm_r_old: as_safe_commitment(&r.comm_r_old, "comm_r_old")?,
        comm_d_new: as_safe_commitment(&r.comm_d_new, "comm_d_new")?,
        comm_r_new: as_safe_commitment(&r.comm_r_new, "comm_r_new")?,
        h: h_default(pp.sector_nodes),
    };
    let circuit = <EmptySectorUpdateCompound<Tree> as CompoundProof<_, _>>::circuit(
        &pub_inputs,
        (),
        &proof,
        &pp,
        Some(r.k),
    )?;
    let expected = <EmptySectorUpdateCompound<Tree> as CompoundProof<_, _>>::generate_public_inputs(
        &pub_inputs,
        &pp,
        Some(r.k),
    )?;
    let mut cs = RefCS::new(true, dump)?;
    circuit.synthesize(&mut cs)?;
    cs.finish()?;
    let inputs_match = cs.inputs.len() == expected.len() + 1 && cs.inputs[1..] == expected[..];
    if let Some(w) = witness {
        cs.write_witness(w)?;
    }
    Ok(json!({
        "circuit": "EmptySectorUpdateCompound::circuit (real, from the vanilla proof)",
        "partition": r.k,
        "ok": cs.is_satisfied() && inputs_match,
        "satisfied": cs.is_satisfied(),
        "unsatisfied_constraints": cs.unsatisfied,
        "first_unsatisfied": cs.first_unsatisfied.as_ref().map(|(i, p)| json!({"index": i, "path": p})),
        "public_inputs_match_generate_public_inputs": inputs_match,
        "num_inputs": cs.num_inputs,
        "num_aux": cs.num_aux,
        "num_constraints": cs.num_constraints,
        "dump": dump.map(|d| d.display().to_string()),
        "witness": witness.map(|d| d.display().to_string()),
        "time_s": secs(t.elapsed()),
    }))
}
