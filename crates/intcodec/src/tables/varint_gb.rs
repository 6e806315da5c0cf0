//! VarInt-GB tables: for every control byte, the number of data bytes its
//! four codes announce and the `pshufb` mask that spreads those bytes (which
//! start right after the control byte) into four little-endian u32 lanes.
//!
//! Two layouts of the control byte: codes lowest bits first (FastPFor's
//! `varintgb`: value `i` of the group in bits `2i..2i+1`) or highest bits
//! first (Lucene's group-varint: value `i` in bits `6-2i..7-2i`). A code `c`
//! means `c + 1` data bytes in both.

/// Tables for one VarInt-GB layout.
pub(crate) struct GbTables {
    /// Data bytes announced by each control byte (4..=16).
    pub(crate) len: [u8; 256],
    /// Decode shuffle: output byte `4*lane + k` takes data byte `mask[..]`, or
    /// zero (`0x80`).
    pub(crate) decode: [[u8; 16]; 256],
    /// For the handle's decode of one short block (`VarIntGb::decode_first`):
    /// bytes `0..4`, the offset from the control byte of the end of lanes
    /// `0..4` (lane `i + 1` starts where lane `i` ends, lane 0 at 1); bytes
    /// `4..8`, per lane, `8 * (3 - code)`: the right shift of `u32::MAX`
    /// that masks a 4-byte load to the lane's bytes.
    pub(crate) first: [u64; 256],
}

/// The code of value `lane` (0..=3) of a group in control byte `key`.
#[inline(always)]
pub(crate) const fn code(key: u8, lane: usize, top_first: bool) -> u8 {
    let shift = if top_first { 6 - 2 * lane } else { 2 * lane };
    (key >> shift) & 3
}

/// Data bytes announced by control byte `key` (4..=16, either layout: the
/// sum of the four codes plus four), computed instead of looked up. A code's
/// value is its bit count plus its high bit, so the sum is two bit counts:
/// in a kernel built with `popcnt` that is two one-cycle instructions, which
/// shortens the chain from one block's control byte to the next (the load
/// of `GbTables::len` it replaces takes four to five cycles).
/// (x86 only: AArch64 has no scalar bit count before FEAT_CSSC.)
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline(always)]
pub(crate) const fn data_len(key: usize) -> usize {
    // On a full-width key: counted on the `u8`, LLVM narrowed the sum to
    // byte registers (partial-register adds and re-extensions on the chain),
    // which measured slower than the table.
    4 + (key.count_ones() + (key & 0xAA).count_ones()) as usize
}

impl GbTables {
    /// Data bytes announced by control byte `key`: [`data_len`] where the
    /// calling kernel is built with `popcnt` (`computed`, a constant at each
    /// call site), else the `len` table (x86 kernels only, as `data_len`).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline(always)]
    pub(crate) fn block_len(&self, key: usize, computed: bool) -> usize {
        if computed {
            data_len(key)
        } else {
            self.len[key] as usize
        }
    }
}

/// Builds the tables of one layout.
pub(crate) const fn build(top_first: bool) -> GbTables {
    let mut t = GbTables {
        len: [0; 256],
        decode: [[0x80; 16]; 256],
        first: [0; 256],
    };
    let mut key = 0;
    while key < 256 {
        let mut pos = 0u8;
        let mut lane = 0;
        while lane < 4 {
            let c = code(key as u8, lane, top_first);
            let bytes = c + 1;
            t.first[key] |= ((1 + pos + bytes) as u64) << (8 * lane);
            t.first[key] |= ((8 * (3 - c)) as u64) << (32 + 8 * lane);
            let mut k = 0;
            while k < bytes {
                t.decode[key][4 * lane + k as usize] = pos + k;
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

/// Codes lowest bits first (FastPFor `varintgb`).
pub(crate) static TABLES_LOW_FIRST: GbTables = build(false);
/// Codes highest bits first (Lucene group-varint).
pub(crate) static TABLES_LUCENE: GbTables = build(true);

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive construction: lay out four labelled values of the announced
    /// lengths, read the permutation off the result.
    fn naive(top_first: bool) -> (Vec<u8>, Vec<[u8; 16]>) {
        let mut lens = Vec::new();
        let mut decs = Vec::new();
        for key in 0..256usize {
            let codes: Vec<usize> = (0..4)
                .map(|l| {
                    let bit = if top_first { 6 - 2 * l } else { 2 * l };
                    (key >> bit) & 3
                })
                .collect();
            let mut data: Vec<u8> = Vec::new();
            for (lane, &c) in codes.iter().enumerate() {
                for k in 0..=c {
                    data.push((4 * lane + k) as u8);
                }
            }
            let mut dec = [0x80u8; 16];
            for (pos, &label) in data.iter().enumerate() {
                dec[label as usize] = pos as u8;
            }
            lens.push(data.len() as u8);
            decs.push(dec);
        }
        (lens, decs)
    }

    #[test]
    fn tables_match_naive_builder() {
        for (top, t) in [(false, &TABLES_LOW_FIRST), (true, &TABLES_LUCENE)] {
            let (lens, decs) = naive(top);
            assert_eq!(&t.len[..], &lens[..]);
            assert_eq!(&t.decode[..], &decs[..]);
        }
        assert_eq!(TABLES_LOW_FIRST.len[0], 4);
        assert_eq!(TABLES_LUCENE.len[255], 16);
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        for key in 0..=255u8 {
            let k = key as usize;
            assert_eq!(data_len(k), TABLES_LOW_FIRST.len[k] as usize);
            assert_eq!(data_len(k), TABLES_LUCENE.len[k] as usize);
        }
        // `first`: lane ends and mask shifts, from the naive lengths.
        for (top, t) in [(false, &TABLES_LOW_FIRST), (true, &TABLES_LUCENE)] {
            for key in 0..256usize {
                let mut end = 1u64;
                for lane in 0..4 {
                    let bit = if top { 6 - 2 * lane } else { 2 * lane };
                    let code = (key as u64 >> bit) & 3;
                    end += code + 1;
                    assert_eq!(t.first[key] >> (8 * lane) & 0xFF, end, "{top} {key} {lane}");
                    let shift = t.first[key] >> (32 + 8 * lane) & 0xFF;
                    assert_eq!(u32::MAX >> shift, u32::MAX >> (24 - 8 * code));
                }
            }
        }
        // 0b01_00_00_11 low-first: lanes of 4, 1, 1, 2 bytes end at 5, 6, 7
        // and 9; shifts 0, 24, 24, 16.
        assert_eq!(TABLES_LOW_FIRST.first[0x43], 0x10_18_18_00_09_07_06_05);
        // 0b01_00_00_11: low-first = 4+1+1+2 bytes, Lucene = 2+1+1+4.
        assert_eq!(TABLES_LOW_FIRST.len[0x43], 8);
        assert_eq!(TABLES_LUCENE.decode[0x43][4..8], [2, 0x80, 0x80, 0x80]);
        assert_eq!(TABLES_LOW_FIRST.decode[0x43][4..8], [4, 0x80, 0x80, 0x80]);
    }
}
