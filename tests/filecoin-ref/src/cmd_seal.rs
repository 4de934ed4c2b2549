//! `seal`: add_piece -> seal_pre_commit_phase1 -> seal_pre_commit_phase2 [-> generate_synth_proofs]
//! -> seal_commit_phase1, all from filecoin-proofs (the functions filecoin-proofs-api wraps, called
//! with the PoRepConfig of the registered proof, optionally with api_version/porep_id overridden).

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use blstrs::Scalar as Fr;
use filecoin_hashers::Domain;
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs::{
    add_piece, generate_synth_proofs, seal_commit_phase1, seal_pre_commit_phase1,
    seal_pre_commit_phase2, validate_cache_for_commit, validate_cache_for_precommit_phase2,
    with_shape, PaddedBytesAmount, UnpaddedBytesAmount,
};
use filecoin_proofs_api::seal::SealCommitPhase1Output as ApiC1;
use filecoin_proofs_api::{ApiFeature, SectorId};
use merkletree::store::StoreConfig;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use storage_proofs_core::cache_key::CacheKey;
use storage_proofs_core::merkle::MerkleProofTrait;

use crate::c1::api_vanilla;
use crate::common::*;

const SPEC: &[&str] = &[
    "registered-proof",
    "api-version",
    "porep-id",
    "prover-id",
    "sector",
    "ticket",
    "seed",
    "data",
    "zeros!",
    "random",
    "out",
    "keep-cache!",
];

/// The documented `--random SEED` generator: the concatenation of
/// SHA-256(seed as u64 little-endian || i as u64 little-endian) for i = 0, 1, 2, ...,
/// truncated to `len` bytes.
pub fn random_piece(seed: u64, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 32);
    let mut i: u64 = 0;
    while out.len() < len {
        let h = Sha256::new()
            .chain_update(seed.to_le_bytes())
            .chain_update(i.to_le_bytes())
            .finalize();
        out.extend_from_slice(&h);
        i += 1;
    }
    out.truncate(len);
    out
}

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let p = Porep::from_args(&a)?;
    let prover_id = a.hex32("prover-id")?;
    let sector = a.u64("sector")?;
    let ticket = a.hex32("ticket")?;
    let seed = a.hex32("seed")?;
    let out = a.path("out")?;

    let sector_size = p.sector_size();
    let unpadded = u64::from(UnpaddedBytesAmount::from(PaddedBytesAmount(sector_size))) as usize;
    let sources = [a.get("data").is_some(), a.flag("zeros"), a.get("random").is_some()];
    if sources.iter().filter(|x| **x).count() != 1 {
        return Err(usage_err("give exactly one of --data FILE, --zeros, --random SEED"));
    }
    let (data, source) = if let Some(f) = a.get("data") {
        let d = fs::read(f).map_err(|e| usage_err(format!("cannot read --data {}: {}", f, e)))?;
        if d.len() != unpadded {
            return Err(usage_err(format!(
                "--data must be exactly the unpadded piece size {} bytes (= sector size {} * 127/128), got {}",
                unpadded,
                sector_size,
                d.len()
            )));
        }
        (d, json!({"kind": "data", "file": f}))
    } else if a.flag("zeros") {
        (vec![0u8; unpadded], json!({"kind": "zeros"}))
    } else {
        let s = a.u64("random")?;
        (
            random_piece(s, unpadded),
            json!({"kind": "random", "seed": s,
                   "generator": "SHA-256(seed u64 LE || i u64 LE), i = 0,1,..., concatenated, truncated"}),
        )
    };

    init_env(p.cfg.api_version, None)?;
    fs::create_dir_all(&out).map_err(|e| usage_err(format!("cannot create --out: {}", e)))?;

    let summary = with_shape!(
        sector_size,
        seal_inner,
        &p,
        &out,
        prover_id,
        sector,
        ticket,
        seed,
        &data,
        a.flag("keep-cache"),
    )?;
    let mut summary = summary;
    summary["piece_source"] = source;
    write_json(&out.join("commit.json"), &summary)?;
    print_json(&summary)?;
    Ok(OK)
}

#[allow(clippy::too_many_arguments)]
fn seal_inner<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    out: &Path,
    prover_id: [u8; 32],
    sector: u64,
    ticket: [u8; 32],
    seed: [u8; 32],
    data: &[u8],
    keep_cache: bool,
) -> Result<Value> {
    let cfg = &p.cfg;
    let sector_size = p.sector_size();
    let sector_id = SectorId::from(sector);
    let total = Instant::now();

    let work = tempfile::Builder::new()
        .prefix("seal-work-")
        .tempdir_in(out)
        .context("creating work dir")?;
    let cache = work.path().join("cache");
    fs::create_dir_all(&cache)?;
    let staged = work.path().join("staged");
    let sealed = work.path().join("sealed");

    // add_piece: fr32-pads the unpadded piece into the staged sector file.
    let t = Instant::now();
    let (piece_info, _) = add_piece(
        data,
        File::create(&staged)?,
        UnpaddedBytesAmount(data.len() as u64),
        &[],
    )
    .context("add_piece")?;
    let t_add = t.elapsed();
    File::create(&sealed)?;

    let t = Instant::now();
    let pc1 = seal_pre_commit_phase1::<_, _, _, Tree>(
        cfg,
        &cache,
        &staged,
        &sealed,
        prover_id,
        sector_id,
        ticket,
        &[piece_info.clone()],
    )
    .context("seal_pre_commit_phase1")?;
    let t_pc1 = t.elapsed();

    let t = Instant::now();
    validate_cache_for_precommit_phase2::<_, _, Tree>(&cache, &sealed, &pc1)?;
    let pc2 = seal_pre_commit_phase2::<_, _, Tree>(cfg, pc1, &cache, &sealed)
        .context("seal_pre_commit_phase2")?;
    let t_pc2 = t.elapsed();

    let synthetic = cfg.feature_enabled(ApiFeature::SyntheticPoRep);
    let t = Instant::now();
    if synthetic {
        generate_synth_proofs::<_, Tree>(
            cfg,
            &cache,
            &sealed,
            prover_id,
            sector_id,
            ticket,
            pc2.clone(),
            &[piece_info.clone()],
        )
        .context("generate_synth_proofs")?;
    } else {
        validate_cache_for_commit::<_, _, Tree>(&cache, &sealed)?;
    }
    let c1 = seal_commit_phase1::<_, Tree>(
        cfg,
        &cache,
        &sealed,
        prover_id,
        sector_id,
        ticket,
        seed,
        pc2.clone(),
        &[piece_info.clone()],
    )
    .context("seal_commit_phase1")?;
    let t_c1 = t.elapsed();

    let comm_c = c1.vanilla_proofs[0][0].comm_c();
    let comm_r_last = c1.vanilla_proofs[0][0].comm_r_last();
    let challenges: Vec<Vec<u64>> = c1
        .vanilla_proofs
        .iter()
        .map(|part| {
            part.iter()
                .map(|pr| pr.comm_d_proofs.path_index() as u64)
                .collect()
        })
        .collect();
    let replica_fr: Fr = c1.replica_id.into();

    // The C1 exactly as filecoin-proofs-api's seal_commit_phase1 returns it.
    let api_c1 = ApiC1 {
        registered_proof: p.rp,
        vanilla_proofs: api_vanilla::<Tree>(sector_size, c1.vanilla_proofs)?,
        comm_r: c1.comm_r,
        comm_d: c1.comm_d,
        replica_id: replica_fr.into(),
        seed: c1.seed,
        ticket: c1.ticket,
    };
    let c1_json = serde_json::to_vec(&api_c1)?;
    fs::write(out.join("c1.json"), &c1_json)?;

    // Label layers (raw 32-byte little-endian labels, as stored in the cache dir).
    let layers = layers_for(sector_size)?;
    let mut label_files = vec![];
    for layer in 1..=layers {
        let src = StoreConfig::data_path(&cache, &CacheKey::label_layer(layer));
        let dst = out.join(format!("labels-layer-{}.bin", layer));
        if src.exists() {
            fs::copy(&src, &dst).with_context(|| format!("copying {}", src.display()))?;
            label_files.push(dst.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    fs::copy(&sealed, out.join("replica.bin"))?;
    fs::copy(&staged, out.join("unsealed.bin"))?;
    fs::write(out.join("piece.bin"), data)?;

    let kept: Option<PathBuf> = if keep_cache {
        Some(work.keep())
    } else {
        None
    };

    let replica_id_hex = hx(replica_fr_bytes(&replica_fr));
    let mut desc = serde_json::to_value(p.describe())?;
    let extra = json!({
        "prover_id": hx(prover_id),
        "sector": sector,
        "ticket": hx(ticket),
        "seed": hx(seed),
        "comm_d": hx(pc2.comm_d),
        "comm_r": hx(pc2.comm_r),
        "comm_c": hx(comm_c.into_bytes()),
        "comm_r_last": hx(comm_r_last.into_bytes()),
        "tree_c_root": hx(comm_c.into_bytes()),
        "tree_r_last_root": hx(comm_r_last.into_bytes()),
        "replica_id": replica_id_hex,
        "replica_id_decimal": fr_dec(&replica_fr),
        "comm_p": hx(piece_info.commitment),
        "piece_size_unpadded": u64::from(piece_info.size),
        "layers": layers,
        "challenges": challenges,
        "files": {
            "c1": "c1.json",
            "labels": label_files,
            "replica": "replica.bin",
            "unsealed_padded": "unsealed.bin",
            "piece_unpadded": "piece.bin",
        },
        "kept_cache_dir": kept.map(|k| k.display().to_string()),
        "c1_json_bytes": c1_json.len(),
        "timings_s": {
            "add_piece": secs(t_add),
            "pc1": secs(t_pc1),
            "pc2": secs(t_pc2),
            "c1": secs(t_c1),
            "total": secs(total.elapsed()),
        },
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut desc, extra) {
        m.extend(e);
    }
    Ok(desc)
}

fn replica_fr_bytes(f: &Fr) -> Vec<u8> {
    filecoin_hashers::poseidon::PoseidonDomain::from(*f).into_bytes()
}
