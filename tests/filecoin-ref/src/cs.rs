//! A streaming constraint system for `count`: counts inputs / aux variables / constraints
//! exactly as bellperson's TestConstraintSystem and MetricCS do (input 0 is ONE), optionally
//! evaluates the assignment and checks every constraint (A·w)·(B·w) = C·w as it is enforced, and
//! optionally streams every allocation and constraint, in synthesis order, to a text file.
//!
//! Dump format (one event per line, tab separated):
//!   I <index> <path>                  a public input was allocated (index 0 = ONE)
//!   V <index> <path>                  an auxiliary (private) variable was allocated
//!   C <index> <path> <A> <B> <C>      a constraint; each linear combination is a space-separated
//!                                     list of terms `i<k>*<coeff>` (input k) / `a<k>*<coeff>`
//!                                     (aux k), coefficient in balanced decimal form: c when
//!                                     c <= (r-1)/2, else -(r-c) (so r-1 prints as -1); inputs
//!                                     first, each group in increasing index order, exactly as
//!                                     bellpepper's LinearCombination stores them (terms whose
//!                                     coefficient cancelled to 0 are kept); an empty LC is `-`.
//! Paths are the `/`-joined namespace path as TestConstraintSystem computes it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Result;
use bellperson::{ConstraintSystem, Index, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;
use ff::Field;

use crate::common::{fr_dec, fr_signed_dec};

pub struct RefCS {
    pub num_inputs: usize,
    pub num_aux: usize,
    pub num_constraints: usize,
    evaluate: bool,
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    pub input_paths: Vec<String>,
    ns: Vec<String>,
    dump: Option<BufWriter<File>>,
    dump_error: Option<std::io::Error>,
    pub unsatisfied: usize,
    pub first_unsatisfied: Option<(usize, String)>,
    pub lc_terms: usize,
}

impl RefCS {
    /// `evaluate`: call the assignment closures (needed for a real circuit; a blank circuit must
    /// be synthesized with `evaluate = false`, as bellperson's KeypairAssembly does).
    pub fn new(evaluate: bool, dump: Option<&Path>) -> Result<Self> {
        let dump = match dump {
            Some(p) => {
                let mut w = BufWriter::with_capacity(1 << 20, File::create(p)?);
                writeln!(w, "# filecoin-ref constraint dump v1 (I=input, V=aux, C=constraint)")?;
                Some(w)
            }
            None => None,
        };
        let mut cs = RefCS {
            num_inputs: 0,
            num_aux: 0,
            num_constraints: 0,
            evaluate,
            inputs: vec![],
            aux: vec![],
            input_paths: vec![],
            ns: vec![],
            dump,
            dump_error: None,
            unsatisfied: 0,
            first_unsatisfied: None,
            lc_terms: 0,
        };
        // Input 0 is the constant ONE, allocated by every bellperson constraint system.
        cs.alloc_input(|| "ONE", || Ok(Fr::ONE))
            .expect("allocating ONE cannot fail");
        Ok(cs)
    }

    fn path(&self, name: &str) -> String {
        if self.ns.is_empty() {
            name.to_string()
        } else {
            format!("{}/{}", self.ns.join("/"), name)
        }
    }

    fn emit(&mut self, line: std::fmt::Arguments<'_>) {
        if let Some(w) = self.dump.as_mut() {
            if let Err(e) = w.write_fmt(line) {
                if self.dump_error.is_none() {
                    self.dump_error = Some(e);
                }
            }
        }
    }

    pub fn finish(&mut self) -> Result<()> {
        if let Some(mut w) = self.dump.take() {
            w.flush()?;
        }
        if let Some(e) = self.dump_error.take() {
            return Err(e.into());
        }
        Ok(())
    }

    pub fn is_satisfied(&self) -> bool {
        self.unsatisfied == 0
    }

    /// bellperson's prover appends one `input_i × 0 = 0` constraint (A = input_i, B = C = empty)
    /// per public input, ONE included, and uses the smallest power-of-two domain that holds all.
    pub fn prover_constraints(&self) -> usize {
        self.num_constraints + self.num_inputs
    }

    pub fn domain_size(&self) -> usize {
        self.prover_constraints().next_power_of_two()
    }

    pub fn write_witness(&self, path: &Path) -> Result<()> {
        let binary = path.extension().map(|e| e == "bin").unwrap_or(false);
        let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
        if binary {
            for v in self.inputs.iter().chain(self.aux.iter()) {
                w.write_all(ff::PrimeField::to_repr(v).as_ref())?;
            }
        } else {
            writeln!(
                w,
                "# filecoin-ref witness v1: {} inputs (index 0 = ONE) then {} aux, decimal",
                self.inputs.len(),
                self.aux.len()
            )?;
            for (i, v) in self.inputs.iter().enumerate() {
                writeln!(w, "i {} {}", i, fr_dec(v))?;
            }
            for (i, v) in self.aux.iter().enumerate() {
                writeln!(w, "a {} {}", i, fr_dec(v))?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

fn fmt_lc(lc: &LinearCombination<Fr>) -> String {
    if lc.is_empty() {
        return "-".to_string();
    }
    let mut s = String::with_capacity(lc.len() * 8);
    for (i, (var, coeff)) in lc.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        match var.get_unchecked() {
            Index::Input(k) => {
                s.push('i');
                s.push_str(&k.to_string());
            }
            Index::Aux(k) => {
                s.push('a');
                s.push_str(&k.to_string());
            }
        }
        s.push('*');
        s.push_str(&fr_signed_dec(coeff));
    }
    s
}

impl ConstraintSystem<Fr> for RefCS {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, annotation: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        if self.evaluate {
            self.aux.push(f()?);
        }
        let index = self.num_aux;
        self.num_aux += 1;
        if self.dump.is_some() {
            let p = self.path(&annotation().into());
            self.emit(format_args!("V {}\t{}\n", index, p));
        }
        Ok(Variable::new_unchecked(Index::Aux(index)))
    }

    fn alloc_input<F, A, AR>(&mut self, annotation: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        if self.evaluate {
            self.inputs.push(f()?);
        }
        let index = self.num_inputs;
        self.num_inputs += 1;
        let p = self.path(&annotation().into());
        self.emit(format_args!("I {}\t{}\n", index, p));
        self.input_paths.push(p);
        Ok(Variable::new_unchecked(Index::Input(index)))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, annotation: A, a: LA, b: LB, c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        let a = a(LinearCombination::zero());
        let b = b(LinearCombination::zero());
        let c = c(LinearCombination::zero());
        let index = self.num_constraints;
        self.num_constraints += 1;
        self.lc_terms += a.len() + b.len() + c.len();

        let mut annotation = Some(annotation);
        let mut name: Option<String> = None;
        if self.evaluate {
            let av = a.eval(&self.inputs, &self.aux);
            let bv = b.eval(&self.inputs, &self.aux);
            let cv = c.eval(&self.inputs, &self.aux);
            if av * bv != cv {
                self.unsatisfied += 1;
                if self.first_unsatisfied.is_none() {
                    let n: String = (annotation.take().expect("annotation"))().into();
                    let p = self.path(&n);
                    self.first_unsatisfied = Some((index, p));
                    name = Some(n);
                }
            }
        }
        if self.dump.is_some() {
            let n = match name {
                Some(n) => n,
                None => match annotation.take() {
                    Some(f) => f().into(),
                    None => String::new(),
                },
            };
            let p = self.path(&n);
            let (sa, sb, sc) = (fmt_lc(&a), fmt_lc(&b), fmt_lc(&c));
            self.emit(format_args!("C {}\t{}\t{}\t{}\t{}\n", index, p, sa, sb, sc));
        }
    }

    fn push_namespace<NR, N>(&mut self, name_fn: N)
    where
        NR: Into<String>,
        N: FnOnce() -> NR,
    {
        self.ns.push(name_fn().into());
    }

    fn pop_namespace(&mut self) {
        self.ns.pop();
    }

    fn get_root(&mut self) -> &mut Self::Root {
        self
    }
}
