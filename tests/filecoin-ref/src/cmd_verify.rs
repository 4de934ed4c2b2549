//! `verify`: filecoin_proofs::verify_seal itself, with the given verifying key installed under
//! the file name filecoin-proofs expects in a private parameter cache (FIL_PROOFS_PARAMETER_CACHE).
//! `check-c1`: StackedDrg::verify_all_partitions on the vanilla proofs of a C1 output, as
//! seal_commit_phase1's own sanity check does.

use std::fs;
use std::time::Instant;

use anyhow::Result;
use blstrs::Scalar as Fr;
use filecoin_hashers::{Domain, Hasher};
use filecoin_proofs::constants::{DefaultPieceDomain, DefaultPieceHasher};
use filecoin_proofs::parameters::public_params;
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs::{as_safe_commitment, get_seal_inputs, verify_seal, with_shape};
use filecoin_proofs_api::SectorId;
use serde_json::{json, Value};
use storage_proofs_core::merkle::MerkleProofTrait;
use storage_proofs_core::proof::ProofScheme;
use storage_proofs_porep::stacked::{generate_replica_id, PublicInputs, StackedDrg, Tau};

use crate::c1::{raw_vanilla, read_c1, replica_id_of, ApiC1};
use crate::common::*;
use crate::vk::parse_vk;

const SPEC: &[&str] = &[
    "vk",
    "proof",
    "registered-proof",
    "api-version",
    "porep-id",
    "prover-id",
    "sector",
    "ticket",
    "seed",
    "comm-r",
    "comm-d",
];

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let p = Porep::from_args(&a)?;
    let prover_id = a.hex32("prover-id")?;
    let sector = a.u64("sector")?;
    let ticket = a.hex32("ticket")?;
    let seed = a.hex32("seed")?;
    let comm_r = a.hex32("comm-r")?;
    let comm_d = a.hex32("comm-d")?;
    let vk_bytes = read_bytes_or_hex(&a.path("vk")?)?;
    let proof = read_bytes_or_hex(&a.path("proof")?)?;

    if p.cfg.feature_enabled(filecoin_proofs_api::ApiFeature::NonInteractivePoRep) {
        return Err(usage_err(
            "NonInteractivePoRep proofs are SnarkPack aggregates (seal_commit_phase2 aggregates the \
             partition proofs with the inner-product SRS, which is not available here); not supported",
        ));
    }
    let loaded = parse_vk(&vk_bytes).map_err(|e| usage_err(format!("--vk: {:#}", e)))?;
    let partitions = usize::from(p.cfg.partitions);
    let expected_len = partitions * filecoin_proofs::SINGLE_PARTITION_PROOF_LEN;
    if proof.len() != expected_len {
        return Err(usage_err(format!(
            "--proof has {} bytes, expected {} ({} partition(s) x 192)",
            proof.len(),
            expected_len,
            partitions
        )));
    }

    // A private parameter cache holding only this verifying key, under Filecoin's file name.
    let param_dir = tempfile::Builder::new()
        .prefix("filecoin-ref-params-")
        .tempdir()?;
    init_env(p.cfg.api_version, Some(param_dir.path()))?;

    let v = with_shape!(
        p.sector_size(),
        verify_inner,
        &p,
        &loaded.vk,
        loaded.compressed,
        &proof,
        prover_id,
        sector,
        ticket,
        seed,
        comm_r,
        comm_d,
    )?;
    let valid = v["valid"].as_bool().unwrap_or(false);
    print_json(&v)?;
    Ok(if valid { OK } else { INVALID })
}

#[allow(clippy::too_many_arguments)]
fn verify_inner<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    vk: &bellperson::groth16::VerifyingKey<blstrs::Bls12>,
    compressed: bool,
    proof: &[u8],
    prover_id: [u8; 32],
    sector: u64,
    ticket: [u8; 32],
    seed: [u8; 32],
    comm_r: [u8; 32],
    comm_d: [u8; 32],
) -> Result<Value> {
    let cfg = &p.cfg;
    let vk_path = cfg.get_cache_verifying_key_path::<Tree>()?;
    if let Some(d) = vk_path.parent() {
        fs::create_dir_all(d)?;
    }
    let mut f = fs::File::create(&vk_path)?;
    vk.write(&mut f)?;
    drop(f);

    let replica_id = generate_replica_id::<Tree::Hasher, _>(
        &prover_id,
        sector,
        &ticket,
        comm_d,
        &cfg.porep_id,
    );
    let inputs = get_seal_inputs::<Tree>(
        cfg,
        comm_r,
        comm_d,
        prover_id,
        SectorId::from(sector),
        ticket,
        seed,
    );

    let t = Instant::now();
    let res = verify_seal::<Tree>(
        cfg,
        comm_r,
        comm_d,
        prover_id,
        SectorId::from(sector),
        ticket,
        seed,
        proof,
    );
    let elapsed = t.elapsed();
    let (valid, error) = match res {
        Ok(b) => (b, None),
        Err(e) => {
            eprintln!("verify_seal rejected the proof with an error: {:#}", e);
            (false, Some(format!("{:#}", e)))
        }
    };
    let replica_fr: Fr = replica_id.into();
    let mut out = serde_json::to_value(p.describe())?;
    let extra = json!({
        "valid": valid,
        "error": error,
        "function": "filecoin_proofs::verify_seal",
        "vk_encoding": if compressed { "compressed" } else { "uncompressed" },
        "vk_ic_points": vk.ic.len(),
        "vk_cache_file": vk_path.file_name().map(|n| n.to_string_lossy().to_string()),
        "replica_id": hx(replica_id.into_bytes()),
        "replica_id_decimal": fr_dec(&replica_fr),
        "public_inputs": match &inputs {
            Ok(v) => json!(v.iter().map(|p| p.iter().map(fr_dec).collect::<Vec<_>>()).collect::<Vec<_>>()),
            Err(e) => json!(format!("unavailable: {}", e)),
        },
        "time_s": secs(elapsed),
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut out, extra) {
        m.extend(e);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------

const C1_SPEC: &[&str] = &["c1", "prover-id", "sector", "api-version", "porep-id"];

pub fn run_check_c1(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, C1_SPEC)?;
    let c1 = read_c1(&a.path("c1")?)?;
    let p = Porep::from_args_with(&a, c1.registered_proof)?;
    let prover_id = a.hex32("prover-id")?;
    let sector = a.u64("sector")?;
    init_env(p.cfg.api_version, None)?;
    let v = with_shape!(p.sector_size(), check_inner, &p, c1, prover_id, sector,)?;
    let valid = v["valid"].as_bool().unwrap_or(false);
    print_json(&v)?;
    Ok(if valid { OK } else { INVALID })
}

fn check_inner<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    c1: ApiC1,
    prover_id: [u8; 32],
    sector: u64,
) -> Result<Value> {
    let cfg = &p.cfg;
    let pp = public_params::<Tree>(cfg)?;
    let replica_id = replica_id_of::<Tree>(&c1);
    let derived = generate_replica_id::<Tree::Hasher, _>(
        &prover_id,
        sector,
        &c1.ticket,
        c1.comm_d,
        &cfg.porep_id,
    );
    let replica_id_matches = derived == replica_id;
    let comm_d: DefaultPieceDomain = as_safe_commitment(&c1.comm_d, "comm_d")?;
    let comm_r: <Tree::Hasher as Hasher>::Domain = as_safe_commitment(&c1.comm_r, "comm_r")?;
    let proofs = raw_vanilla::<Tree>(c1.vanilla_proofs)?;
    let pub_in = PublicInputs::<<Tree::Hasher as Hasher>::Domain, DefaultPieceDomain> {
        replica_id,
        tau: Some(Tau { comm_d, comm_r }),
        seed: Some(c1.seed),
        k: None,
    };
    let partitions_ok = proofs.len() == usize::from(cfg.partitions);
    let t = Instant::now();
    let vanilla_ok = StackedDrg::<Tree, DefaultPieceHasher>::verify_all_partitions(
        &pp, &pub_in, &proofs,
    )?;
    let elapsed = t.elapsed();
    let valid = vanilla_ok && replica_id_matches && partitions_ok;
    let mut out = serde_json::to_value(p.describe())?;
    let extra = json!({
        "valid": valid,
        "vanilla_proofs_valid": vanilla_ok,
        "function": "StackedDrg::verify_all_partitions",
        "replica_id": hx(replica_id.into_bytes()),
        "replica_id_derived": hx(derived.into_bytes()),
        "replica_id_matches": replica_id_matches,
        "partitions_in_c1": proofs.len(),
        "partitions_expected": cfg.partitions.0,
        "challenges_per_partition": proofs.iter().map(|x| x.len()).collect::<Vec<_>>(),
        "challenges": proofs.iter().map(|part| part.iter()
            .map(|pr| pr.comm_d_proofs.path_index()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "comm_c": proofs.first().and_then(|p| p.first()).map(|p| hx(p.comm_c().into_bytes())),
        "comm_r_last": proofs.first().and_then(|p| p.first()).map(|p| hx(p.comm_r_last().into_bytes())),
        "comm_d": hx(c1.comm_d),
        "comm_r": hx(c1.comm_r),
        "seed": hx(c1.seed),
        "ticket": hx(c1.ticket),
        "time_s": secs(elapsed),
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut out, extra) {
        m.extend(e);
    }
    Ok(out)
}
