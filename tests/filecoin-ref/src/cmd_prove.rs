//! `prove`: Filecoin's own CPU C2. The params file is linked into a private parameter cache
//! (FIL_PROOFS_PARAMETER_CACHE) under the name filecoin-proofs expects, with its verifying key
//! (the head of a bellperson params file) next to it, and filecoin_proofs::seal_commit_phase2 runs
//! unchanged: StackedCompound::circuit_proofs (bellperson create_random_proof_batch over all
//! partitions) followed by verify_seal.

use std::fs::{self, File};
use std::io::BufReader;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use bellperson::groth16::VerifyingKey;
use blstrs::Bls12;
use filecoin_proofs::types::{MerkleTreeTrait, SealCommitPhase1Output};
use filecoin_proofs::{seal_commit_phase2, with_shape};
use filecoin_proofs_api::SectorId;
use serde_json::{json, Value};

use crate::c1::{raw_vanilla, read_c1, replica_id_of, ApiC1};
use crate::common::*;

const SPEC: &[&str] = &["c1", "params", "prover-id", "sector", "out", "api-version", "porep-id"];

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let c1 = read_c1(&a.path("c1")?)?;
    let p = Porep::from_args_with(&a, c1.registered_proof)?;
    let prover_id = a.hex32("prover-id")?;
    let sector = a.u64("sector")?;
    let out = a.path("out")?;
    let params = a.path("params")?;
    let params = fs::canonicalize(&params)
        .map_err(|e| usage_err(format!("--params {}: {}", params.display(), e)))?;

    if p.cfg.feature_enabled(filecoin_proofs_api::ApiFeature::NonInteractivePoRep) {
        return Err(usage_err(
            "NonInteractivePoRep proofs are SnarkPack aggregates (seal_commit_phase2 aggregates the \
             partition proofs with the inner-product SRS, which is not available here); not supported",
        ));
    }
    let param_dir = tempfile::Builder::new()
        .prefix("filecoin-ref-params-")
        .tempdir()?;
    init_env(p.cfg.api_version, Some(param_dir.path()))?;

    let v = with_shape!(
        p.sector_size(),
        prove_inner,
        &p,
        c1,
        &params,
        prover_id,
        sector,
        &out,
    )?;
    print_json(&v)?;
    Ok(OK)
}

fn prove_inner<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    c1: ApiC1,
    params: &Path,
    prover_id: [u8; 32],
    sector: u64,
    out: &Path,
) -> Result<Value> {
    let cfg = &p.cfg;
    let params_link = cfg.get_cache_params_path::<Tree>()?;
    let vk_path = cfg.get_cache_verifying_key_path::<Tree>()?;
    if let Some(d) = params_link.parent() {
        fs::create_dir_all(d)?;
    }
    std::os::unix::fs::symlink(params, &params_link)
        .with_context(|| format!("linking {}", params_link.display()))?;
    let vk = VerifyingKey::<Bls12>::read(BufReader::new(File::open(params)?))
        .map_err(|e| usage_err(format!("--params: cannot read its verifying key: {}", e)))?;
    vk.write(File::create(&vk_path)?)?;

    let raw = SealCommitPhase1Output::<Tree> {
        vanilla_proofs: raw_vanilla::<Tree>(c1.vanilla_proofs.clone())?,
        comm_r: c1.comm_r,
        comm_d: c1.comm_d,
        replica_id: replica_id_of::<Tree>(&c1),
        seed: c1.seed,
        ticket: c1.ticket,
    };

    let t = Instant::now();
    let output = seal_commit_phase2::<Tree>(cfg, raw, prover_id, SectorId::from(sector))
        .context("seal_commit_phase2")?;
    let elapsed = t.elapsed();
    fs::write(out, &output.proof).with_context(|| format!("writing {}", out.display()))?;
    eprintln!(
        "seal_commit_phase2: {:.3} s ({} bytes of proof)",
        elapsed.as_secs_f64(),
        output.proof.len()
    );

    let mut v = serde_json::to_value(p.describe())?;
    let extra = json!({
        "function": "filecoin_proofs::seal_commit_phase2",
        "proof_file": out.display().to_string(),
        "proof_bytes": output.proof.len(),
        "proof": hx(&output.proof),
        "verified_by_seal_commit_phase2": true,
        "vk_ic_points": vk.ic.len(),
        "threads": rayon_threads(),
        "time_s": secs(elapsed),
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
        m.extend(e);
    }
    Ok(v)
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
