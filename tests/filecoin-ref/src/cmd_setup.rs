//! `setup`: bellperson::groth16::generate_random_parameters over the blank StackedCircuit
//! (StackedCompound::blank_circuit of filecoin-proofs' public params, the circuit Filecoin's
//! CompoundProof::groth_params builds parameters from), with a seeded ChaCha20 RNG.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::time::Instant;

use anyhow::{Context, Result};
use bellperson::groth16;
use bellperson::Circuit;
use blstrs::Bls12;
use filecoin_proofs::constants::DefaultPieceHasher;
use filecoin_proofs::parameters::public_params;
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs::with_shape;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};
use storage_proofs_core::compound_proof::CompoundProof;
use storage_proofs_core::parameter_cache::{parameter_id, verifying_key_id};
use storage_proofs_porep::stacked::StackedCompound;

use crate::common::*;
use crate::cs::RefCS;

const SPEC: &[&str] = &["registered-proof", "api-version", "porep-id", "out", "seed", "name"];

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let p = Porep::from_args(&a)?;
    let out = a.path("out")?;
    let seed = a.opt_u64("seed")?.unwrap_or(0);
    let name = a
        .get("name")
        .map(|s| s.to_string())
        .unwrap_or_else(|| registered_proof_name(p.rp));
    init_env(p.cfg.api_version, None)?;
    fs::create_dir_all(&out).map_err(|e| usage_err(format!("cannot create --out: {}", e)))?;
    let v = with_shape!(p.sector_size(), setup_inner, &p, &out, seed, &name,)?;
    print_json(&v)?;
    Ok(OK)
}

fn setup_inner<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    out: &std::path::Path,
    seed: u64,
    name: &str,
) -> Result<Value> {
    let pp = public_params::<Tree>(&p.cfg)?;

    // Count first (cheap): the same blank circuit into the counting constraint system.
    let mut cs = RefCS::new(false, None)?;
    StackedCompound::<Tree, DefaultPieceHasher>::blank_circuit(&pp).synthesize(&mut cs)?;

    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let circuit = StackedCompound::<Tree, DefaultPieceHasher>::blank_circuit(&pp);
    let t = Instant::now();
    let params = groth16::generate_random_parameters::<Bls12, _, _>(circuit, &mut rng)
        .context("generate_random_parameters")?;
    let t_gen = t.elapsed();

    let params_path = out.join(format!("{}.params", name));
    let vk_path = out.join(format!("{}.vk", name));
    let t = Instant::now();
    {
        let mut w = BufWriter::with_capacity(1 << 22, File::create(&params_path)?);
        params.write(&mut w)?;
        w.flush()?;
    }
    {
        let mut w = BufWriter::new(File::create(&vk_path)?);
        params.vk.write(&mut w)?;
        w.flush()?;
    }
    let t_write = t.elapsed();

    let cache_id = p.cfg.get_cache_identifier::<Tree>()?;
    let mut v = serde_json::to_value(p.describe())?;
    let extra = json!({
        "params_file": params_path.display().to_string(),
        "vk_file": vk_path.display().to_string(),
        "params_bytes": fs::metadata(&params_path)?.len(),
        "vk_bytes": fs::metadata(&vk_path)?.len(),
        "rng": format!("rand_chacha 0.3 ChaCha20Rng::seed_from_u64({})", seed),
        "seed": seed,
        "num_inputs": cs.num_inputs,
        "num_aux": cs.num_aux,
        "num_constraints": cs.num_constraints,
        "prover_constraints": cs.prover_constraints(),
        "domain_size": cs.domain_size(),
        "h_len": params.h.len(),
        "l_len": params.l.len(),
        "a_len": params.a.len(),
        "b_g1_len": params.b_g1.len(),
        "b_g2_len": params.b_g2.len(),
        "ic_len": params.vk.ic.len(),
        "filecoin_params_file_name": parameter_id(&cache_id),
        "filecoin_vk_file_name": verifying_key_id(&cache_id),
        "time_s": { "generate": secs(t_gen), "write": secs(t_write) },
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
        m.extend(e);
    }
    Ok(v)
}
