//! `count`: synthesizes the real StackedCircuit and reports inputs / aux / constraints.
//!   --registered-proof NAME   the blank circuit (StackedCompound::blank_circuit), as used to
//!                             generate the Groth16 parameters of that registered proof
//!   --c1 FILE                 the circuit of one partition of a real C1 output
//!                             (StackedCompound::circuit, as seal_commit_phase2 builds it), with
//!                             its witness evaluated and every constraint checked
//!   --test-config SHAPE       storage-proofs-porep/tests/stacked_circuit.rs, reproduced step by
//!                             step (same RNG, same replication, TestConstraintSystem)

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use bellperson::util_cs::test_cs::TestConstraintSystem;
use bellperson::{Circuit, ConstraintSystem};
use blstrs::Scalar as Fr;
use ff::Field;
use filecoin_hashers::poseidon::PoseidonHasher;
use filecoin_hashers::sha256::Sha256Hasher;
use filecoin_hashers::{Domain, Hasher};
use filecoin_proofs::constants::{DefaultPieceDomain, DefaultPieceHasher};
use filecoin_proofs::parameters::public_params;
use filecoin_proofs::types::MerkleTreeTrait;
use filecoin_proofs::{as_safe_commitment, with_shape};
use fr32::fr_into_bytes;
use rand::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use serde_json::{json, Value};
use storage_proofs_core::api_version::ApiVersion;
use storage_proofs_core::compound_proof::CompoundProof;
use storage_proofs_core::drgraph::BASE_DEGREE;
use storage_proofs_core::merkle::{get_base_tree_count, DiskTree};
use storage_proofs_core::parameter_cache::parameter_id;
use storage_proofs_core::proof::ProofScheme;
use storage_proofs_core::test_helper::setup_replica;
use storage_proofs_core::TEST_SEED;
use storage_proofs_porep::stacked::{
    generate_replica_id, Challenges, PrivateInputs, PublicInputs, SetupParams, StackedCompound,
    StackedDrg, Tau, TemporaryAuxCache, EXP_DEGREE,
};
use typenum::{U0, U2, U4, U8};

use crate::c1::{raw_vanilla, read_c1, replica_id_of, ApiC1};
use crate::common::*;
use crate::cs::RefCS;

const SPEC: &[&str] = &[
    "registered-proof",
    "api-version",
    "porep-id",
    "test-config",
    "c1",
    "prover-id",
    "sector",
    "partition",
    "dump",
    "witness",
];

pub fn run(argv: &[String]) -> Result<Status> {
    let a = Args::parse(argv, SPEC)?;
    let dump = a.get("dump").map(PathBuf::from);
    let witness = a.get("witness").map(PathBuf::from);
    let modes = [
        a.get("registered-proof").is_some(),
        a.get("test-config").is_some(),
        a.get("c1").is_some(),
    ];
    if modes.iter().filter(|m| **m).count() != 1 {
        return Err(usage_err(
            "give exactly one of --registered-proof NAME, --test-config SHAPE, --c1 FILE",
        ));
    }

    let v = if let Some(shape) = a.get("test-config") {
        init_env(ApiVersion::V1_1_0, None)?;
        let (d, w) = (dump.as_deref(), witness.as_deref());
        match shape {
            "2" => test_config::<DiskTree<PoseidonHasher, U2, U0, U0>>(shape, 1_206_212, d, w)?,
            "8" => test_config::<DiskTree<PoseidonHasher, U8, U0, U0>>(shape, 1_199_620, d, w)?,
            "8-4" => test_config::<DiskTree<PoseidonHasher, U8, U4, U0>>(shape, 1_296_576, d, w)?,
            "8-4-2" => {
                test_config::<DiskTree<PoseidonHasher, U8, U4, U2>>(shape, 1_346_982, d, w)?
            }
            _ => {
                return Err(usage_err(format!(
                    "--test-config must be 2, 8, 8-4 or 8-4-2 (got '{}')",
                    shape
                )))
            }
        }
    } else if let Some(c1_path) = a.get("c1") {
        let c1 = read_c1(Path::new(c1_path))?;
        let p = Porep::from_args_with(&a, c1.registered_proof)?;
        let prover_id = a.hex32("prover-id")?;
        let sector = a.u64("sector")?;
        let k = a.opt_u64("partition")?.unwrap_or(0) as usize;
        if k >= usize::from(p.cfg.partitions) {
            return Err(usage_err(format!(
                "--partition {} out of range ({} partitions)",
                k,
                p.cfg.partitions.0
            )));
        }
        init_env(p.cfg.api_version, None)?;
        with_shape!(
            p.sector_size(),
            count_c1,
            &p,
            c1,
            prover_id,
            sector,
            k,
            dump.as_deref(),
            witness.as_deref(),
        )?
    } else {
        if witness.is_some() {
            return Err(usage_err("--witness needs a real circuit (--c1 or --test-config)"));
        }
        let p = Porep::from_args(&a)?;
        init_env(p.cfg.api_version, None)?;
        with_shape!(p.sector_size(), count_blank, &p, dump.as_deref(),)?
    };
    let ok = v.get("ok").and_then(|x| x.as_bool()).unwrap_or(true);
    print_json(&v)?;
    Ok(if ok { OK } else { INVALID })
}

fn cs_report(cs: &RefCS, evaluated: bool) -> Value {
    json!({
        "num_inputs": cs.num_inputs,
        "num_aux": cs.num_aux,
        "num_constraints": cs.num_constraints,
        "prover_constraints": cs.prover_constraints(),
        "domain_size": cs.domain_size(),
        "lc_terms": cs.lc_terms,
        "satisfied": if evaluated { json!(cs.is_satisfied()) } else { Value::Null },
        "unsatisfied_constraints": if evaluated { json!(cs.unsatisfied) } else { Value::Null },
        "first_unsatisfied": cs.first_unsatisfied.as_ref().map(|(i, p)| json!({"index": i, "path": p})),
    })
}

fn merge(a: &mut Value, b: Value) {
    if let (Value::Object(m), Value::Object(e)) = (a, b) {
        m.extend(e);
    }
}

fn count_blank<Tree: 'static + MerkleTreeTrait>(p: &Porep, dump: Option<&Path>) -> Result<Value> {
    let pp = public_params::<Tree>(&p.cfg)?;
    let t = Instant::now();
    let mut cs = RefCS::new(false, dump)?;
    StackedCompound::<Tree, DefaultPieceHasher>::blank_circuit(&pp).synthesize(&mut cs)?;
    cs.finish()?;
    let elapsed = t.elapsed();
    let cache_id = p.cfg.get_cache_identifier::<Tree>()?;
    let mut v = serde_json::to_value(p.describe())?;
    merge(
        &mut v,
        json!({
            "circuit": "StackedCompound::blank_circuit",
            "challenges_per_partition": pp.challenges.num_challenges_per_partition(),
            "layers": pp.num_layers,
            "filecoin_params_file_name": parameter_id(&cache_id),
            "dump": dump.map(|d| d.display().to_string()),
            "time_s": secs(elapsed),
        }),
    );
    merge(&mut v, cs_report(&cs, false));
    Ok(v)
}

#[allow(clippy::too_many_arguments)]
fn count_c1<Tree: 'static + MerkleTreeTrait>(
    p: &Porep,
    c1: ApiC1,
    prover_id: [u8; 32],
    sector: u64,
    k: usize,
    dump: Option<&Path>,
    witness: Option<&Path>,
) -> Result<Value> {
    let pp = public_params::<Tree>(&p.cfg)?;
    let replica_id = replica_id_of::<Tree>(&c1);
    let derived = generate_replica_id::<Tree::Hasher, _>(
        &prover_id,
        sector,
        &c1.ticket,
        c1.comm_d,
        &p.cfg.porep_id,
    );
    let comm_d: DefaultPieceDomain = as_safe_commitment(&c1.comm_d, "comm_d")?;
    let comm_r: <Tree::Hasher as Hasher>::Domain = as_safe_commitment(&c1.comm_r, "comm_r")?;
    let proofs = raw_vanilla::<Tree>(c1.vanilla_proofs)?;
    if k >= proofs.len() {
        return Err(usage_err(format!("C1 has only {} partitions", proofs.len())));
    }
    let pub_in = PublicInputs::<<Tree::Hasher as Hasher>::Domain, DefaultPieceDomain> {
        replica_id,
        tau: Some(Tau { comm_d, comm_r }),
        seed: Some(c1.seed),
        k: None,
    };
    let t = Instant::now();
    let circuit =
        StackedCompound::<Tree, DefaultPieceHasher>::circuit(&pub_in, (), &proofs[k], &pp, Some(k))?;
    let mut cs = RefCS::new(true, dump)?;
    circuit.synthesize(&mut cs)?;
    cs.finish()?;
    let elapsed = t.elapsed();
    let expected =
        StackedCompound::<Tree, DefaultPieceHasher>::generate_public_inputs(&pub_in, &pp, Some(k))?;
    let inputs_match = cs.inputs.len() == expected.len() + 1 && cs.inputs[1..] == expected[..];
    if let Some(w) = witness {
        cs.write_witness(w)?;
    }
    let ok = cs.is_satisfied() && inputs_match && derived == replica_id;
    let mut v = serde_json::to_value(p.describe())?;
    merge(
        &mut v,
        json!({
            "circuit": "StackedCompound::circuit (real, from C1)",
            "partition": k,
            "ok": ok,
            "replica_id_matches": derived == replica_id,
            "public_inputs_match_generate_public_inputs": inputs_match,
            "dump": dump.map(|d| d.display().to_string()),
            "witness": witness.map(|d| d.display().to_string()),
            "time_s": secs(elapsed),
        }),
    );
    merge(&mut v, cs_report(&cs, true));
    Ok(v)
}

/// storage-proofs-porep/tests/stacked_circuit.rs `test_stacked_porep_circuit`, step by step.
fn test_config<Tree: 'static + MerkleTreeTrait>(
    shape: &str,
    expected_constraints: usize,
    dump: Option<&Path>,
    witness: Option<&Path>,
) -> Result<Value> {
    let expected_inputs = 22;
    let nodes = 8 * get_base_tree_count::<Tree>();
    let num_layers = 2;
    let mut rng = XorShiftRng::from_seed(TEST_SEED);
    let replica_id: Fr = Fr::random(&mut rng);
    let data: Vec<u8> = (0..nodes)
        .flat_map(|_| fr_into_bytes(&Fr::random(&mut rng)))
        .collect();
    let cache_dir = tempfile::tempdir()?;
    let replica_path = cache_dir.path().join("replica-path");
    let mut mmapped_data = setup_replica(&data, &replica_path);
    let sp = SetupParams {
        nodes,
        degree: BASE_DEGREE,
        expansion_degree: EXP_DEGREE,
        porep_id: [44; 32],
        challenges: Challenges::new_interactive(1),
        num_layers,
        api_version: ApiVersion::V1_1_0,
        api_features: vec![],
    };
    let pp = StackedDrg::<Tree, Sha256Hasher>::setup(&sp)?;
    let replica_domain: <Tree::Hasher as Hasher>::Domain = replica_id.into();
    let (labels, _) =
        StackedDrg::<Tree, Sha256Hasher>::replicate_phase1(&pp, &replica_domain, cache_dir.path())?;
    let (tau, (p_aux, t_aux)) = StackedDrg::<Tree, Sha256Hasher>::replicate_phase2(
        &pp,
        labels,
        (mmapped_data.as_mut()).into(),
        None,
        cache_dir.path().to_path_buf(),
        replica_path.clone(),
    )?;
    drop(mmapped_data);

    let seed: [u8; 32] = rng.gen();
    let pub_inputs = PublicInputs::<<Tree::Hasher as Hasher>::Domain, <Sha256Hasher as Hasher>::Domain> {
        replica_id: replica_domain,
        seed: Some(seed),
        tau: Some(tau),
        k: None,
    };
    let t_aux = TemporaryAuxCache::<Tree, Sha256Hasher>::new(&t_aux, replica_path, false)?;
    let priv_inputs = PrivateInputs::<Tree, Sha256Hasher> { p_aux, t_aux };
    let proofs =
        StackedDrg::<Tree, Sha256Hasher>::prove_all_partitions(&pp, &pub_inputs, &priv_inputs, 1)?;
    let vanilla_ok =
        StackedDrg::<Tree, Sha256Hasher>::verify_all_partitions(&pp, &pub_inputs, &proofs)?;

    // Exactly the upstream assertion path: TestConstraintSystem under "stacked drgporep".
    let t = Instant::now();
    let mut tcs = TestConstraintSystem::<Fr>::new();
    StackedCompound::<Tree, Sha256Hasher>::circuit(&pub_inputs, (), &proofs[0], &pp, None)?
        .synthesize(&mut tcs.namespace(|| "stacked drgporep"))?;
    let tcs_satisfied = tcs.is_satisfied();
    let tcs_inputs = tcs.num_inputs();
    let tcs_constraints = tcs.num_constraints();
    let generated = <StackedCompound<Tree, Sha256Hasher> as CompoundProof<
        StackedDrg<'_, Tree, Sha256Hasher>,
        _,
    >>::generate_public_inputs(&pub_inputs, &pp, None)?;
    let tcs_input_values: Vec<Fr> = tcs.get_inputs().iter().map(|(v, _)| *v).collect();
    let inputs_match = tcs_input_values.len() == generated.len() + 1
        && tcs_input_values[0] == Fr::ONE
        && tcs_input_values[1..] == generated[..];
    drop(tcs);
    let t_tcs = t.elapsed();

    // The same circuit into the streaming constraint system (for --dump / --witness).
    let mut cs = RefCS::new(true, dump)?;
    StackedCompound::<Tree, Sha256Hasher>::circuit(&pub_inputs, (), &proofs[0], &pp, None)?
        .synthesize(&mut cs.namespace(|| "stacked drgporep"))?;
    cs.finish()?;
    if let Some(w) = witness {
        cs.write_witness(w)?;
    }

    let matches = tcs_inputs == expected_inputs
        && tcs_constraints == expected_constraints
        && cs.num_inputs == expected_inputs
        && cs.num_constraints == expected_constraints;
    let ok = matches && tcs_satisfied && inputs_match && vanilla_ok && cs.is_satisfied();
    let mut v = json!({
        "test_config": shape,
        "tree": Tree::display(),
        "nodes": nodes,
        "layers": num_layers,
        "challenges": 1,
        "porep_id": hx([44u8; 32]),
        "api_version": "V1_1_0",
        "replica_id": hx(replica_domain.into_bytes()),
        "seed": hx(seed),
        "vanilla_proofs_valid": vanilla_ok,
        "expected_inputs": expected_inputs,
        "expected_constraints": expected_constraints,
        "test_cs": {
            "num_inputs": tcs_inputs,
            "num_constraints": tcs_constraints,
            "satisfied": tcs_satisfied,
            "inputs_match_generate_public_inputs": inputs_match,
            "time_s": secs(t_tcs),
        },
        "matches_expected": matches,
        "ok": ok,
        "dump": dump.map(|d| d.display().to_string()),
        "witness": witness.map(|d| d.display().to_string()),
    });
    merge(&mut v, cs_report(&cs, true));
    Ok(v)
}
