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

/// Encoder look-up: index = the "byte is zero" flags of two values (bits
/// 0..=3 for the first value's bytes 0..=3, bits 4..=7 for the second's), as
/// `pmovmskb` of a byte-wise comparison with zero yields them; entry = the two
/// values' codes, `code0 | code1 << 2`. `code_bytes` picks the variant.
pub(crate) const fn build_zero_flags(code_bytes: [u8; 4]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut idx = 0;
    while idx < 256 {
        let mut half = 0;
        while half < 2 {
            let zero = (idx >> (4 * half)) & 0xF;
            // Significant bytes: one past the highest non-zero byte.
            let mut sig = 4;
            while sig > 0 && zero & (1 << (sig - 1)) != 0 {
                sig -= 1;
            }
            // The shortest code whose byte count holds them.
            let mut code = 0;
            while code_bytes[code] < sig {
                code += 1;
            }
            t[idx] |= (code as u8) << (2 * half);
            half += 1;
        }
        idx += 1;
    }
    t
}

/// [`build_zero_flags`] with each entry shifted into the high nibble: the
/// codes of values 2 and 3 of a group.
const fn shifted(t: [u8; 256]) -> [u8; 256] {
    let mut out = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        out[i] = t[i] << 4;
        i += 1;
    }
    out
}

/// Zero-flag tables: `[low half of a group, high half of a group]`.
pub(crate) static ZERO_FLAGS_1234: [[u8; 256]; 2] = [
    build_zero_flags(BYTES_1234),
    shifted(build_zero_flags(BYTES_1234)),
];
pub(crate) static ZERO_FLAGS_0124: [[u8; 256]; 2] = [
    build_zero_flags(BYTES_0124),
    shifted(build_zero_flags(BYTES_0124)),
];

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
    fn zero_flag_tables_match_scalar_codes() {
        // Every byte pattern of two values (each byte zero or 0x5A) must get
        // the codes the scalar encoder picks.
        use crate::codec::streamvbyte::{Format, F0124, F1234};
        fn value(zero_flags: usize) -> u32 {
            (0..4)
                .filter(|k| zero_flags & (1 << k) == 0)
                .map(|k| 0x5Au32 << (8 * k))
                .sum()
        }
        for idx in 0..256 {
            let (a, b) = (value(idx & 0xF), value(idx >> 4));
            let c1234 = F1234::code(a) | F1234::code(b) << 2;
            let c0124 = F0124::code(a) | F0124::code(b) << 2;
            assert_eq!(ZERO_FLAGS_1234[0][idx], c1234, "{idx:#x}");
            assert_eq!(ZERO_FLAGS_1234[1][idx], c1234 << 4, "{idx:#x}");
            assert_eq!(ZERO_FLAGS_0124[0][idx], c0124, "{idx:#x}");
            assert_eq!(ZERO_FLAGS_0124[1][idx], c0124 << 4, "{idx:#x}");
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
