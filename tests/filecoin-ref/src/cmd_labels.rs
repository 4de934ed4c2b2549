//! `labels`: SDR labeling alone, with the function PC1 uses
//! (storage_proofs_porep::stacked::create_label::single::create_labels_for_encoding, which is what
//! StackedDrg::replicate_phase1 runs when the multicore-sdr feature is off) on the graph
//! StackedDrg::setup builds (StackedBucketGraph::new_stacked with the porep_id and api version).

use std::fs;
use std::time::Instant;

use anyhow::{Context, Result};
use blstrs::Scalar as Fr;
use filecoin_hashers::poseidon::{PoseidonDomain, PoseidonHasher};
use filecoin_hashers::Domain;
use filecoin_proofs::constants::SectorShapeBase;
use filecoin_proofs_api::ApiVersion;
use merkletree::store::StoreConfig;
use serde_json::json;
use storage_proofs_core::drgraph::{Graph, BASE_DEGREE};
use storage_proofs_porep::stacked::create_label::single::create_labels_for_encoding;
use storage_proofs_porep::stacked::{StackedBucketGraph, EXP_DEGREE};

use crate::common::*;

const SPEC: &[&str] = &[
    "registered-proof",
    "sector-size",
    "layers",
    "api-version",
    "porep-id",
    "replica-id",
    "out",
];

/// Largest sector for which labels are written out (the tool keeps two layers in memory).
const MAX_LABEL_SECTOR: u64 = 1 << 30;

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let replica_bytes = a.hex32("replica-id")?;
    let replica_id = PoseidonDomain::try_from_bytes(&replica_bytes)
        .map_err(|e| usage_err(format!("--replica-id is not a field element: {}", e)))?;
    let out = a.path("out")?;

    let (sector_size, porep_id, api_version, rp_name, default_layers): (
        u64,
        [u8; 32],
        ApiVersion,
        Option<String>,
        Option<usize>,
    ) = if let Some(name) = a.get("registered-proof") {
        if a.get("sector-size").is_some() {
            return Err(usage_err("give --registered-proof or --sector-size, not both"));
        }
        let p = Porep::from_args_with(&a, parse_registered_proof(name)?)?;
        let ss = p.sector_size();
        (
            ss,
            p.cfg.porep_id,
            p.cfg.api_version,
            Some(registered_proof_name(p.rp)),
            Some(layers_for(ss)?),
        )
    } else {
        let ss = a.u64("sector-size")?;
        let v = parse_api_version(a.req("api-version")?)?;
        let pid = a.hex32("porep-id")?;
        (ss, pid, v, None, layers_for(ss).ok())
    };
    let layers = match a.opt_u64("layers")? {
        Some(l) => l as usize,
        None => default_layers
            .ok_or_else(|| usage_err("--layers is required for this sector size"))?,
    };
    if layers == 0 {
        return Err(usage_err("--layers must be at least 1"));
    }
    if sector_size % 32 != 0 || !(sector_size / 32).is_power_of_two() || sector_size < 256 {
        return Err(usage_err("--sector-size must be a power of two >= 256 bytes"));
    }
    if sector_size > MAX_LABEL_SECTOR {
        return Err(usage_err(format!(
            "labels are limited to sectors of at most {} bytes",
            MAX_LABEL_SECTOR
        )));
    }

    init_env(api_version, None)?;
    fs::create_dir_all(&out).map_err(|e| usage_err(format!("cannot create --out: {}", e)))?;
    let nodes = (sector_size / 32) as usize;

    let t = Instant::now();
    let graph = StackedBucketGraph::<PoseidonHasher>::new_stacked(
        nodes,
        BASE_DEGREE,
        EXP_DEGREE,
        porep_id,
        api_version,
    )?;
    let mut parent_cache = graph.parent_cache()?;
    let work = tempfile::Builder::new()
        .prefix("labels-work-")
        .tempdir_in(&out)?;
    let (labels, _) = create_labels_for_encoding::<SectorShapeBase, _, _>(
        &graph,
        &mut parent_cache,
        layers,
        &replica_id,
        work.path(),
    )
    .context("create_labels_for_encoding")?;
    let elapsed = t.elapsed();

    let mut layer_info = vec![];
    for (i, cfg) in labels.labels.iter().enumerate() {
        let layer = i + 1;
        let src = StoreConfig::data_path(&cfg.path, &cfg.id);
        let dst = out.join(format!("labels-layer-{}.bin", layer));
        fs::copy(&src, &dst).with_context(|| format!("copying {}", src.display()))?;
        let bytes = fs::read(&dst)?;
        let last: [u8; 32] = bytes[bytes.len() - 32..].try_into().expect("32");
        let first: [u8; 32] = bytes[..32].try_into().expect("32");
        let last_fr: Fr = PoseidonDomain::try_from_bytes(&last)?.into();
        let limbs: Vec<String> = last
            .chunks(8)
            .map(|c| format!("0x{:016x}", u64::from_le_bytes(c.try_into().expect("8"))))
            .collect();
        layer_info.push(json!({
            "layer": layer,
            "file": dst.file_name().unwrap().to_string_lossy(),
            "first_label": hx(first),
            "last_label": hx(last),
            "last_label_decimal": fr_dec(&last_fr),
            "last_label_u64_limbs_le": limbs,
        }));
    }
    let v = json!({
        "registered_proof": rp_name,
        "sector_size": sector_size,
        "nodes": nodes,
        "layers": layers,
        "api_version": api_version_name(api_version),
        "porep_id": hx(porep_id),
        "replica_id": hx(replica_bytes),
        "graph_size": graph.size(),
        "labels": layer_info,
        "time_s": secs(elapsed),
    });
    print_json(&v)?;
    Ok(OK)
}
