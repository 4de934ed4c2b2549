//! SnapDeals (EmptySectorUpdate) through filecoin-proofs-api's own update functions:
//! `update-verify`: update::verify_empty_sector_update_proof, with the given verifying key
//! installed under the file name filecoin-proofs loads (the update's cache identifier, from
//! storage-proofs-update's CacheableParameters) in a private parameter cache.
//! `update-check-vanilla`: update::verify_partition_proofs on Curio's snap-vproof.json (a JSON
//! list of base64 partition proofs) or one raw bincode partition proof.

use std::fs;

use anyhow::Result;
use filecoin_proofs::constants::{
    SectorShape2KiB, SectorShape32GiB, SectorShape512MiB, SectorShape64GiB, SectorShape8MiB,
};
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs_api::update;
use filecoin_proofs_api::{PartitionProofBytes, RegisteredUpdateProof};
use serde_json::{json, Value};
use storage_proofs_core::parameter_cache::CacheableParameters;
use storage_proofs_update::{EmptySectorUpdateCircuit, EmptySectorUpdateCompound, PublicParams};

use crate::common::*;
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
    let raw = fs::read(a.path("vanilla")?)?;
    // snap-vproof.json (Go's json.Marshal of [][]byte) or one raw partition.
    let parts: Vec<Vec<u8>> = if raw.first() == Some(&b'[') {
        let v: Value = serde_json::from_slice(&raw)?;
        let list = v
            .as_array()
            .ok_or_else(|| usage_err("--vanilla: not a JSON list"))?;
        list.iter()
            .map(|s| {
                base64_decode(s.as_str().ok_or_else(|| usage_err("--vanilla: not a string"))?)
            })
            .collect::<Result<_>>()?
    } else {
        vec![raw]
    };
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
