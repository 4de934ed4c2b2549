//! Verifying-key files: bellperson's `VerifyingKey::write` layout (uncompressed points), or the
//! same layout with compressed points (G1 48 bytes, G2 96 bytes) as in the polka-storage vector.
//! The compressed form is recognised by the 0x80 flag bit of the first byte (never set in an
//! uncompressed ZCash-encoded point). Point decoding is blstrs' (subgroup-checked).

use anyhow::{anyhow, bail, Result};
use bellperson::groth16::VerifyingKey;
use blstrs::{Bls12, G1Affine, G2Affine};

pub struct LoadedVk {
    pub vk: VerifyingKey<Bls12>,
    pub compressed: bool,
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.pos + n > self.b.len() {
            bail!(
                "verifying key truncated: need {} bytes at offset {}, file has {}",
                n,
                self.pos,
                self.b.len()
            );
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn g1(&mut self, compressed: bool, what: &str) -> Result<G1Affine> {
        let p = if compressed {
            let a: [u8; 48] = self.take(48)?.try_into().expect("48");
            G1Affine::from_compressed(&a)
        } else {
            let a: [u8; 96] = self.take(96)?.try_into().expect("96");
            G1Affine::from_uncompressed(&a)
        };
        Option::from(p).ok_or_else(|| anyhow!("{}: not a valid G1 point", what))
    }

    fn g2(&mut self, compressed: bool, what: &str) -> Result<G2Affine> {
        let p = if compressed {
            let a: [u8; 96] = self.take(96)?.try_into().expect("96");
            G2Affine::from_compressed(&a)
        } else {
            let a: [u8; 192] = self.take(192)?.try_into().expect("192");
            G2Affine::from_uncompressed(&a)
        };
        Option::from(p).ok_or_else(|| anyhow!("{}: not a valid G2 point", what))
    }
}

pub fn parse_vk(bytes: &[u8]) -> Result<LoadedVk> {
    if bytes.is_empty() {
        bail!("empty verifying key");
    }
    let compressed = bytes[0] & 0x80 != 0;
    if !compressed {
        // The uncompressed layout is exactly bellperson's reader.
        let vk = VerifyingKey::<Bls12>::read(bytes)
            .map_err(|e| anyhow!("bellperson VerifyingKey::read: {}", e))?;
        let expected = 96 * 3 + 192 * 3 + 4 + 96 * vk.ic.len();
        if bytes.len() != expected {
            bail!(
                "verifying key has {} bytes, expected {} for {} IC points",
                bytes.len(),
                expected,
                vk.ic.len()
            );
        }
        return Ok(LoadedVk {
            vk,
            compressed: false,
        });
    }
    let mut r = Reader { b: bytes, pos: 0 };
    let alpha_g1 = r.g1(true, "alpha_g1")?;
    let beta_g1 = r.g1(true, "beta_g1")?;
    let beta_g2 = r.g2(true, "beta_g2")?;
    let gamma_g2 = r.g2(true, "gamma_g2")?;
    let delta_g1 = r.g1(true, "delta_g1")?;
    let delta_g2 = r.g2(true, "delta_g2")?;
    let n = u32::from_be_bytes(r.take(4)?.try_into().expect("4")) as usize;
    let mut ic = Vec::with_capacity(n);
    for i in 0..n {
        ic.push(r.g1(true, &format!("ic[{}]", i))?);
    }
    if r.pos != bytes.len() {
        bail!(
            "verifying key has {} trailing bytes after {} IC points",
            bytes.len() - r.pos,
            n
        );
    }
    Ok(LoadedVk {
        vk: VerifyingKey {
            alpha_g1,
            beta_g1,
            beta_g2,
            gamma_g2,
            delta_g1,
            delta_g2,
            ic,
        },
        compressed: true,
    })
}
