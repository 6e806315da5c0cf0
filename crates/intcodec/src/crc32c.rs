//! CRC-32C (Castagnoli): the checksum of serialized key sets
//! ([`KeySet::to_bytes`](crate::keys::KeySet::to_bytes)) and of the CLI's
//! container format.
//!
//! Parameters (the "CRC-32/ISCSI" entry of the usual catalogues): polynomial
//! 0x1EDC6F41, processed bit-reflected (0x82F63B78), initial value and final
//! XOR 0xFFFFFFFF. Check value: `crc32c(b"123456789") == 0xE306_9283`.
//!
//! The implementation is table driven, slicing by 8: eight 256-entry tables
//! built at compile time by `const fn`, eight input bytes per step, one table
//! lookup per byte for the tail. A bit-at-a-time reference in the tests checks
//! it.

/// The reflected Castagnoli polynomial.
const POLY: u32 = 0x82F6_3B78;

/// `TABLES[0]` is the classic byte-at-a-time table; `TABLES[k][b]` is the CRC
/// contribution of byte `b` followed by `k` zero bytes.
static TABLES: [[u32; 256]; 8] = build_tables();

const fn build_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let mut crc = b as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ POLY
            } else {
                crc >> 1
            };
            bit += 1;
        }
        t[0][b] = crc;
        b += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut b = 0;
        while b < 256 {
            let prev = t[k - 1][b];
            t[k][b] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            b += 1;
        }
        k += 1;
    }
    t
}

/// An incremental CRC-32C computation.
///
/// ```
/// use intcodec::crc32c::{crc32c, Crc32c};
///
/// let mut c = Crc32c::new();
/// c.update(b"1234");
/// c.update(b"56789");
/// assert_eq!(c.finish(), crc32c(b"123456789"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Crc32c {
    /// The running register, kept inverted (as the algorithm works on it).
    state: u32,
}

impl Default for Crc32c {
    fn default() -> Self {
        Crc32c::new()
    }
}

impl Crc32c {
    /// A fresh computation (over zero bytes so far).
    pub fn new() -> Self {
        Crc32c { state: !0 }
    }

    /// Feeds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut crc = self.state;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let lo = crc ^ u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            crc = TABLES[7][(lo & 0xFF) as usize]
                ^ TABLES[6][((lo >> 8) & 0xFF) as usize]
                ^ TABLES[5][((lo >> 16) & 0xFF) as usize]
                ^ TABLES[4][(lo >> 24) as usize]
                ^ TABLES[3][c[4] as usize]
                ^ TABLES[2][c[5] as usize]
                ^ TABLES[1][c[6] as usize]
                ^ TABLES[0][c[7] as usize];
        }
        for &b in chunks.remainder() {
            crc = (crc >> 8) ^ TABLES[0][((crc ^ u32::from(b)) & 0xFF) as usize];
        }
        self.state = crc;
    }

    /// The checksum of everything fed so far.
    pub fn finish(&self) -> u32 {
        !self.state
    }
}

/// The CRC-32C of `bytes`.
///
/// ```
/// assert_eq!(intcodec::crc32c::crc32c(b"123456789"), 0xE306_9283);
/// ```
pub fn crc32c(bytes: &[u8]) -> u32 {
    let mut c = Crc32c::new();
    c.update(bytes);
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Bit-at-a-time reference, straight from the definition.
    fn naive(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                let mask = (crc & 1).wrapping_neg();
                crc = (crc >> 1) ^ (POLY & mask);
            }
        }
        !crc
    }

    fn pseudo_random(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (x >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn check_value() {
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(naive(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn empty_input() {
        assert_eq!(crc32c(b""), 0);
    }

    /// RFC 3720 (iSCSI), appendix B.4.
    #[test]
    fn rfc3720_vectors() {
        assert_eq!(crc32c(&[0u8; 32]), 0x8A91_36AA);
        assert_eq!(crc32c(&[0xFFu8; 32]), 0x62A8_AB43);
        let up: Vec<u8> = (0u8..32).collect();
        assert_eq!(crc32c(&up), 0x46DD_794E);
        let down: Vec<u8> = (0u8..32).rev().collect();
        assert_eq!(crc32c(&down), 0x113F_DB5C);
    }

    #[test]
    fn table_matches_bitwise_reference() {
        for len in (0..=70).chain([255, 256, 257, 1000, 4099]) {
            let data = pseudo_random(len, len as u64 + 1);
            assert_eq!(crc32c(&data), naive(&data), "length {len}");
        }
    }

    #[test]
    fn incremental_equals_one_shot() {
        let data = pseudo_random(1000, 7);
        for split in [0, 1, 3, 7, 8, 9, 500, 999, 1000] {
            let mut c = Crc32c::new();
            c.update(&data[..split]);
            c.update(&data[split..]);
            assert_eq!(c.finish(), crc32c(&data), "split at {split}");
        }
    }

    #[test]
    fn detects_single_bit_flips() {
        let data = pseudo_random(64, 3);
        let sum = crc32c(&data);
        for i in 0..data.len() * 8 {
            let mut d = data.clone();
            d[i / 8] ^= 1 << (i % 8);
            assert_ne!(crc32c(&d), sum, "bit {i}");
        }
    }
}
