//! `derive`: porep_id, replica_id, challenges, parents and circuit public inputs, each from the
//! function Filecoin itself uses:
//!   public params     filecoin_proofs::parameters::public_params (StackedDrg::setup)
//!   replica_id        storage_proofs_porep::stacked::generate_replica_id
//!   challenges        stacked::PublicInputs::challenges (interactive / synthetic / NI)
//!   DRG parents       StackedBucketGraph::base_graph().parents  (BucketGraph, degree 6)
//!   expander parents  StackedBucketGraph::expanded_parents      (Feistel, degree 8)
//!   public inputs     StackedCompound::generate_public_inputs(pub_in, pp, Some(k))

use anyhow::Result;
use blstrs::Scalar as Fr;
use filecoin_hashers::{Domain, Hasher};
use filecoin_proofs::constants::{DefaultPieceDomain, DefaultPieceHasher};
use filecoin_proofs::parameters::public_params;
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs::{as_safe_commitment, with_shape};
use serde_json::{json, Value};
use storage_proofs_core::compound_proof::CompoundProof;
use storage_proofs_core::crypto::{derive_porep_domain_seed, FEISTEL_DST};
use storage_proofs_core::drgraph::Graph;
use storage_proofs_porep::stacked::{generate_replica_id, PublicInputs, StackedCompound, Tau};

use crate::common::*;

const SPEC: &[&str] = &[
    "registered-proof",
    "api-version",
    "porep-id",
    "prover-id",
    "sector",
    "ticket",
    "seed",
    "comm-d",
    "comm-r",
    "parents-all!",
];

/// Nodes above which --parents-all is refused (the JSON would be too large to be useful).
const MAX_PARENTS_ALL_NODES: usize = 1 << 20;

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let p = Porep::from_args(&a)?;
    let graph_only = a.get("prover-id").is_none()
        && a.get("comm-d").is_none()
        && a.get("comm-r").is_none()
        && a.flag("parents-all");
    let inputs = if graph_only {
        None
    } else {
        Some(SectorInputs {
            prover_id: a.hex32("prover-id")?,
            sector: a.u64("sector")?,
            ticket: a.hex32("ticket")?,
            seed: a.hex32("seed")?,
            comm_d: a.hex32("comm-d")?,
            comm_r: a.hex32("comm-r")?,
        })
    };
    let v = with_shape!(
        p.sector_size(),
        derive_inner,
        &p,
        inputs.as_ref(),
        a.flag("parents-all"),
    )?;
    print_json(&v)?;
    Ok(OK)
}

pub struct SectorInputs {
    pub prover_id: [u8; 32],
    pub sector: u64,
    pub ticket: [u8; 32],
    pub seed: [u8; 32],
    pub comm_d: [u8; 32],
    pub comm_r: [u8; 32],
}

fn derive_inner<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    inputs: Option<&SectorInputs>,
    parents_all: bool,
) -> Result<Value> {
    let pp = public_params::<Tree>(&p.cfg)?;
    let graph = &pp.graph;
    let nodes = graph.size();
    let base_degree = graph.base_graph().degree();
    let exp_degree = graph.expansion_degree();

    let feistel_seed = derive_porep_domain_seed(FEISTEL_DST, p.cfg.porep_id);
    let feistel_keys: Vec<u64> = feistel_seed
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8")))
        .collect();

    let mut out = serde_json::to_value(p.describe())?;
    let mut extra = json!({
        "nodes": nodes,
        "layers": pp.num_layers,
        "challenges_per_partition": pp.challenges.num_challenges_per_partition(),
        "minimum_challenges": p.cfg.minimum_challenges(),
        "drg_degree": base_degree,
        "exp_degree": exp_degree,
        "drg_seed": hx(graph.seed()),
        "feistel_keys": feistel_keys,
        "graph_identifier": storage_proofs_core::parameter_cache::ParameterSetMetadata::identifier(graph),
    });

    if let Some(si) = inputs {
        let replica_id = generate_replica_id::<Tree::Hasher, _>(
            &si.prover_id,
            si.sector,
            &si.ticket,
            si.comm_d,
            &p.cfg.porep_id,
        );
        let comm_d: DefaultPieceDomain = as_safe_commitment(&si.comm_d, "comm_d")
            .map_err(|e| usage_err(format!("--comm-d: {}", e)))?;
        let comm_r: <Tree::Hasher as Hasher>::Domain = as_safe_commitment(&si.comm_r, "comm_r")
            .map_err(|e| usage_err(format!("--comm-r: {}", e)))?;
        let pub_in = PublicInputs::<<Tree::Hasher as Hasher>::Domain, DefaultPieceDomain> {
            replica_id,
            tau: Some(Tau { comm_d, comm_r }),
            seed: Some(si.seed),
            k: None,
        };
        let replica_fr: Fr = replica_id.into();
        let partitions = usize::from(p.cfg.partitions);
        let mut parts = vec![];
        for k in 0..partitions {
            let challenges = pub_in.challenges(&pp.challenges, nodes, Some(k));
            let mut chs = vec![];
            for &c in &challenges {
                let mut drg = vec![0u32; base_degree];
                graph.base_graph().parents(c, &mut drg)?;
                let mut exp = vec![0u32; exp_degree];
                graph.expanded_parents(c, &mut exp)?;
                chs.push(json!({"challenge": c, "drg_parents": drg, "exp_parents": exp}));
            }
            let public_inputs =
                StackedCompound::<Tree, DefaultPieceHasher>::generate_public_inputs(
                    &pub_in,
                    &pp,
                    Some(k),
                )?;
            parts.push(json!({
                "k": k,
                "challenges": chs,
                "public_inputs": public_inputs.iter().map(fr_dec).collect::<Vec<_>>(),
                "num_public_inputs": public_inputs.len(),
            }));
        }
        let e = extra.as_object_mut().expect("object");
        e.insert("prover_id".into(), json!(hx(si.prover_id)));
        e.insert("sector".into(), json!(si.sector));
        e.insert("ticket".into(), json!(hx(si.ticket)));
        e.insert("seed".into(), json!(hx(si.seed)));
        e.insert("comm_d".into(), json!(hx(si.comm_d)));
        e.insert("comm_r".into(), json!(hx(si.comm_r)));
        e.insert("replica_id".into(), json!(hx(replica_id.into_bytes())));
        e.insert("replica_id_decimal".into(), json!(fr_dec(&replica_fr)));
        e.insert("partition_data".into(), Value::Array(parts));
    }

    if parents_all {
        if nodes > MAX_PARENTS_ALL_NODES {
            return Err(usage_err(format!(
                "--parents-all is limited to {} nodes (this graph has {})",
                MAX_PARENTS_ALL_NODES, nodes
            )));
        }
        // StackedGraph::parents: the 6 DRG parents then the 8 expander parents of every node
        // (layer 1 labels use only the DRG parents; layers >= 2 use all 14).
        let degree = graph.degree();
        let mut all = Vec::with_capacity(nodes);
        let mut buf = vec![0u32; degree];
        for node in 0..nodes {
            graph.parents(node, &mut buf)?;
            all.push(Value::from(buf.clone()));
        }
        extra
            .as_object_mut()
            .expect("object")
            .insert("parents_all".into(), Value::Array(all));
    }

    if let (Value::Object(m), Value::Object(e)) = (&mut out, extra) {
        m.extend(e);
    }
    Ok(out)
}
