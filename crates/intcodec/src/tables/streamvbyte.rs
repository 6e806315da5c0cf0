//! Stream VByte tables: for every control byte (four 2-bit codes, lowest bits
//! first), the number of data bytes it announces, the `pshufb` mask that
//! spreads those bytes into four little-endian u32 lanes (decode), and the mask
//! that gathers the significant bytes of four u32 lanes (encode).

/// Tables for one Stream VByte variant.
pub(crate) struct SvbTables {
    /// Data bytes announced by each control byte.
    pub(crate) len: [u8; 256],
    /// Decode shuffle: output byte `4*lane + k` takes input byte `mask[..]`,
    /// or zero (`0x80`).
    pub(crate) decode: [[u8; 16]; 256],
    /// Encode shuffle: output byte `j` takes input byte `mask[j]` (lane-major).
    pub(crate) encode: [[u8; 16]; 256],
}

/// Builds the tables for a variant given the byte count of codes 0..=3.
pub(crate) const fn build(code_bytes: [u8; 4]) -> SvbTables {
    let mut t = SvbTables {
        len: [0; 256],
        decode: [[0x80; 16]; 256],
        encode: [[0x80; 16]; 256],
    };
    let mut key = 0;
    while key < 256 {
        let mut pos = 0u8; // byte position within the group's data
        let mut lane = 0;
        while lane < 4 {
            let code = (key >> (2 * lane)) & 3;
            let bytes = code_bytes[code];
            let mut k = 0;
            while k < bytes {
                t.decode[key][4 * lane + k as usize] = pos + k;
                t.encode[key][(pos + k) as usize] = (4 * lane) as u8 + k;
                k += 1;
            }
            pos += bytes;
            lane += 1;
        }
        t.len[key] = pos;
        key += 1;
    }
    t
}

/// Encoder look-up, one entry per group of four values: `code byte |
/// data length << 8`.
///
/// The index is twelve "byte is zero" flags, three per value (bits
/// `3i..3i+3` for value `i`, lowest first): for the 1234 variant, bytes 1, 2
/// and 3 of the value; for 0124, bytes 0, 1 and 2 of `v | v >> 8` (so the
/// three flags say whether `v != 0`, `v >= 2^8` and `v >= 2^16`). Either way
/// a value's code is the position (1..=3) of its highest non-zero flagged
/// byte, or 0 if all three are zero; `code_bytes` gives the lengths.
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) const fn build_key_len(code_bytes: [u8; 4]) -> [u16; 4096] {
    let mut t = [0u16; 4096];
    let mut idx = 0;
    while idx < 4096 {
        let mut key = 0u16;
        let mut len = 0u16;
        let mut value = 0;
        while value < 4 {
            let zero = (idx >> (3 * value)) & 7;
            let mut code = 3;
            while code > 0 && zero & (1 << (code - 1)) != 0 {
                code -= 1;
            }
            key |= (code as u16) << (2 * value);
            len += code_bytes[code] as u16;
            value += 1;
        }
        t[idx] = key | len << 8;
        idx += 1;
    }
    t
}

/// [`build_key_len`] for each variant.
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) static KEY_LEN_1234: [u16; 4096] = build_key_len(BYTES_1234);
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) static KEY_LEN_0124: [u16; 4096] = build_key_len(BYTES_0124);

/// Encoder shuffle masks indexed like [`build_key_len`] (by the twelve zero
/// flags) instead of by control byte: entry `i` is `t.encode[key]` for the
/// key of `key_len[i]`.
///
/// 64 KiB per variant, but a list touches only the entries of the flag
/// patterns it contains (a handful for typical data). Indexing by the flags
/// takes the control-byte look-up off the path from the data to its shuffle,
/// which made the encoder about 15% faster.
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) const fn build_encode_by_flags(
    t: &SvbTables,
    key_len: &[u16; 4096],
) -> [[u8; 16]; 4096] {
    let mut m = [[0u8; 16]; 4096];
    let mut i = 0;
    while i < 4096 {
        m[i] = t.encode[(key_len[i] & 0xFF) as usize];
        i += 1;
    }
    m
}

/// Byte counts of the standard variant: codes 0..=3 mean 1..=4 bytes.
pub(crate) const BYTES_1234: [u8; 4] = [1, 2, 3, 4];
/// Byte counts of the "0124" variant: codes mean 0, 1, 2 and 4 bytes.
pub(crate) const BYTES_0124: [u8; 4] = [0, 1, 2, 4];

pub(crate) static TABLES_1234: SvbTables = build(BYTES_1234);
pub(crate) static TABLES_0124: SvbTables = build(BYTES_0124);

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive construction: encode four sentinel values per control byte with
    /// the byte-at-a-time rule and read the permutation off the result.
    fn naive(code_bytes: [u8; 4]) -> (Vec<u8>, Vec<[u8; 16]>, Vec<[u8; 16]>) {
        let mut lens = Vec::new();
        let mut decs = Vec::new();
        let mut encs = Vec::new();
        for key in 0..256usize {
            let codes: Vec<usize> = (0..4).map(|l| (key >> (2 * l)) & 3).collect();
            // Source bytes of each lane, labelled by their lane-major index.
            let mut data: Vec<u8> = Vec::new();
            for (lane, &c) in codes.iter().enumerate() {
                for k in 0..code_bytes[c] {
                    data.push((4 * lane) as u8 + k);
                }
            }
            let mut enc = [0x80u8; 16];
            enc[..data.len()].copy_from_slice(&data);
            let mut dec = [0x80u8; 16];
            for (pos, &label) in data.iter().enumerate() {
                dec[label as usize] = pos as u8;
            }
            lens.push(data.len() as u8);
            decs.push(dec);
            encs.push(enc);
        }
        (lens, decs, encs)
    }

    #[test]
    fn tables_match_naive_builder() {
        for (bytes, tables) in [(BYTES_1234, &TABLES_1234), (BYTES_0124, &TABLES_0124)] {
            let (lens, decs, encs) = naive(bytes);
            assert_eq!(&tables.len[..], &lens[..]);
            assert_eq!(&tables.decode[..], &decs[..]);
            assert_eq!(&tables.encode[..], &encs[..]);
        }
    }

    #[test]
    fn key_len_tables_match_scalar_codes() {
        // For every pattern of zero / non-zero bytes in four values, the
        // entry found by the index rule must hold the codes and data length
        // the scalar encoder gives those values.
        use crate::codec::streamvbyte::{Format, F0124, F1234};
        fn value(zero_flags: usize) -> u32 {
            (0..4)
                .filter(|k| zero_flags & (1 << k) == 0)
                .map(|k| 0x5Au32 << (8 * k))
                .sum()
        }
        // The three flags of one value, as the SIMD encoder gathers them.
        fn flags(v: u32, variant_0124: bool) -> usize {
            let (p, first) = if variant_0124 {
                (v | v >> 8, 0)
            } else {
                (v, 1)
            };
            (0..3)
                .filter(|k| (p >> (8 * (first + k))) & 0xFF == 0)
                .map(|k| 1 << k)
                .sum()
        }
        fn check<F: Format>(table: &[u16; 4096], values: [u32; 4]) {
            let is_0124 = F::BYTES[0] == 0;
            let (mut idx, mut key, mut len) = (0, 0u16, 0u16);
            for (i, &v) in values.iter().enumerate() {
                idx |= flags(v, is_0124) << (3 * i);
                key |= (F::code(v) as u16) << (2 * i);
                len += F::BYTES[F::code(v) as usize] as u16;
            }
            assert_eq!(table[idx], key | len << 8, "{values:x?}");
        }
        for pattern in 0..1usize << 16 {
            let values = core::array::from_fn(|i| value((pattern >> (4 * i)) & 0xF));
            check::<F1234>(&KEY_LEN_1234, values);
            check::<F0124>(&KEY_LEN_0124, values);
        }
    }

    #[test]
    fn encode_by_flags_follows_key_len() {
        for (tables, key_len) in [(&TABLES_1234, &KEY_LEN_1234), (&TABLES_0124, &KEY_LEN_0124)] {
            let by_flags = build_encode_by_flags(tables, key_len);
            for (idx, mask) in by_flags.iter().enumerate() {
                let key = key_len[idx] & 0xFF;
                assert_eq!(mask, &tables.encode[usize::from(key)], "{idx:#x}");
            }
        }
    }

    #[test]
    fn lengths_are_in_range() {
        assert_eq!(TABLES_1234.len[0], 4);
        assert_eq!(TABLES_1234.len[255], 16);
        assert_eq!(TABLES_0124.len[0], 0);
        assert_eq!(TABLES_0124.len[255], 16);
    }
}
