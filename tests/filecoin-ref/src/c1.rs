//! C1 output (`SealCommitPhase1Output` of rust-filecoin-proofs-api) reading and conversion
//! between the API enum and filecoin-proofs' typed vanilla proofs.

use std::any::Any;
use std::fs;
use std::path::Path;

use anyhow::{anyhow, Result};
use blstrs::Scalar as Fr;
use filecoin_proofs::constants::{
    SectorShape2KiB, SectorShape32GiB, SectorShape512MiB, SectorShape64GiB, SectorShape8MiB,
    SECTOR_SIZE_2_KIB, SECTOR_SIZE_32_GIB, SECTOR_SIZE_512_MIB, SECTOR_SIZE_64_GIB,
    SECTOR_SIZE_8_MIB,
};
use filecoin_proofs::types::{MerkleTreeTrait, VanillaSealProof};
use filecoin_proofs_api::seal::{SealCommitPhase1Output, VanillaSealProof as ApiVanilla};
use filecoin_proofs_api::Hasher;
use serde_json::Value;

use crate::common::{base64_decode, usage_err};

pub type ApiC1 = SealCommitPhase1Output;

/// Reads a C1 JSON: either the plain serde_json of `SealCommitPhase1Output`, or the lotus-bench /
/// curio wrapper `{"SectorNum": n, "Phase1Out": "<base64 of that JSON>", "SectorSize": ...}`.
pub fn read_c1(path: &Path) -> Result<ApiC1> {
    let text = fs::read_to_string(path)
        .map_err(|e| usage_err(format!("cannot read {}: {}", path.display(), e)))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| usage_err(format!("{}: not JSON: {}", path.display(), e)))?;
    if let Some(p) = v.get("Phase1Out") {
        let b64 = p
            .as_str()
            .ok_or_else(|| usage_err("Phase1Out is not a string"))?;
        let bytes = base64_decode(b64).map_err(|e| usage_err(format!("Phase1Out: {}", e)))?;
        return serde_json::from_slice(&bytes)
            .map_err(|e| usage_err(format!("Phase1Out: not a SealCommitPhase1Output: {}", e)));
    }
    serde_json::from_value(v).map_err(|e| {
        usage_err(format!(
            "{}: not a SealCommitPhase1Output: {}",
            path.display(),
            e
        ))
    })
}

pub fn raw_vanilla<Tree: 'static + MerkleTreeTrait>(
    v: ApiVanilla,
) -> Result<Vec<Vec<VanillaSealProof<Tree>>>> {
    v.try_into()
        .map_err(|e: anyhow::Error| usage_err(format!("vanilla proofs: {}", e)))
}

/// The reverse of the API's (private) `VanillaSealProof::from_raw`.
pub fn api_vanilla<Tree: 'static + MerkleTreeTrait>(
    sector_size: u64,
    proofs: Vec<Vec<VanillaSealProof<Tree>>>,
) -> Result<ApiVanilla> {
    let b: Box<dyn Any> = Box::new(proofs);
    let err = |_| anyhow!("vanilla proof shape does not match sector size {}", sector_size);
    Ok(match sector_size {
        SECTOR_SIZE_2_KIB => ApiVanilla::StackedDrg2KiBV1(
            *b.downcast::<Vec<Vec<VanillaSealProof<SectorShape2KiB>>>>()
                .map_err(err)?,
        ),
        SECTOR_SIZE_8_MIB => ApiVanilla::StackedDrg8MiBV1(
            *b.downcast::<Vec<Vec<VanillaSealProof<SectorShape8MiB>>>>()
                .map_err(err)?,
        ),
        SECTOR_SIZE_512_MIB => ApiVanilla::StackedDrg512MiBV1(
            *b.downcast::<Vec<Vec<VanillaSealProof<SectorShape512MiB>>>>()
                .map_err(err)?,
        ),
        SECTOR_SIZE_32_GIB => ApiVanilla::StackedDrg32GiBV1(
            *b.downcast::<Vec<Vec<VanillaSealProof<SectorShape32GiB>>>>()
                .map_err(err)?,
        ),
        SECTOR_SIZE_64_GIB => ApiVanilla::StackedDrg64GiBV1(
            *b.downcast::<Vec<Vec<VanillaSealProof<SectorShape64GiB>>>>()
                .map_err(err)?,
        ),
        _ => return Err(anyhow!("no API vanilla proof variant for {}", sector_size)),
    })
}

/// The replica_id of a C1 (a Poseidon domain element) as the tree's domain type, converted
/// through Fr exactly as filecoin-proofs-api's seal_commit_phase2 does.
pub fn replica_id_of<Tree: 'static + MerkleTreeTrait>(
    c1: &ApiC1,
) -> <Tree::Hasher as Hasher>::Domain {
    let f: Fr = c1.replica_id.into();
    f.into()
}
