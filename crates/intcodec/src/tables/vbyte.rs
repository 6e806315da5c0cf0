//! Masked VByte tables (Plaisance, Kurz, Lemire 2015, §IV).
//!
//! The decoder looks at 12 input bytes at a time through a 12-bit mask: bit
//! `k` is the continuation (high) bit of byte `k`. [`DECODE`] maps each of the
//! 4096 masks to `(bytes consumed, shuffle index)`, packed in a `u16` as
//! `consumed | index << 8`; [`build_shuffles`] makes the 170 `pshufb` masks the
//! indices name, in three groups:
//!
//! - `0..64`: the next 6 values each take 1 or 2 bytes; value `j`'s length
//!   minus one is bit `j` of the index. The shuffle puts value `j`'s low byte
//!   at byte `2j` and its high byte (or zero) at `2j + 1`.
//! - `64..145`: the next 4 values each take 1 to 3 bytes; `index - 64`
//!   written in base 3 gives the lengths minus one, value 0 in the lowest
//!   digit. Value `j`'s bytes go to bytes `4j..4j+3`, zero-filled.
//! - `145..170`: the next 2 values each take 1 to 5 bytes; `index - 145 =
//!   (len0 - 1) + 5 (len1 - 1)`. Value `j`'s bytes `a b c d e` go to
//!   bytes `8j..8j+8` as `b 0 c 0 d 0 e a` (missing bytes zero), the layout of
//!   the paper's `pmullw` step.
//!
//! A mask whose first value, or second value, has more than 5 bytes cannot
//! be decoded by any group (for a u32 that value is malformed): its entry is
//! [`OVERLONG`] (`consumed = 0`, index 255), and the kernels hand that position to the
//! scalar decoder, which reports the error (u32) or decodes the long value
//! (u64). Masks of all-zero (12 one-byte values) never reach the table: the
//! kernels take the paper's fast path first.

/// Entry of a mask the groups cannot decode (a value of 6 or more bytes):
/// nothing consumed, and a shuffle index (255) above every group, so that
/// "index < GROUP_C" alone tells the kernels a group applies.
pub(crate) const OVERLONG: u16 = 0xFF00;

/// First shuffle index of the 4 × (1..=3)-byte group.
pub(crate) const GROUP_B: u8 = 64;
/// First shuffle index of the 2 × (1..=5)-byte group.
pub(crate) const GROUP_C: u8 = 145;
/// Number of shuffle masks.
pub(crate) const SHUFFLE_COUNT: usize = 170;

/// Lengths of the complete values at the start of a 12-byte window whose
/// continuation bits are `mask`, and how many there are.
const fn lengths(mask: usize) -> ([u8; 12], usize) {
    let mut lens = [0u8; 12];
    let mut count = 0;
    let mut start = 0;
    let mut k = 0;
    while k < 12 {
        if mask & (1 << k) == 0 {
            lens[count] = (k + 1 - start) as u8;
            count += 1;
            start = k + 1;
        }
        k += 1;
    }
    (lens, count)
}

/// Whether the first `m` values are complete and at most `max` bytes each.
const fn all_within(lens: &[u8; 12], count: usize, m: usize, max: u8) -> bool {
    if count < m {
        return false;
    }
    let mut j = 0;
    while j < m {
        if lens[j] > max {
            return false;
        }
        j += 1;
    }
    true
}

const fn sum(lens: &[u8; 12], m: usize) -> u8 {
    let mut s = 0;
    let mut j = 0;
    while j < m {
        s += lens[j];
        j += 1;
    }
    s
}

/// `(consumed, index)` for one mask, or `None` for an overlong value.
const fn classify(mask: usize) -> Option<(u8, u8)> {
    let (lens, count) = lengths(mask);
    if all_within(&lens, count, 6, 2) {
        let mut index = 0u8;
        let mut j = 0;
        while j < 6 {
            index |= (lens[j] - 1) << j;
            j += 1;
        }
        Some((sum(&lens, 6), index))
    } else if all_within(&lens, count, 4, 3) {
        let mut code = 0u8;
        let mut weight = 1u8;
        let mut j = 0;
        while j < 4 {
            code += (lens[j] - 1) * weight;
            weight *= 3;
            j += 1;
        }
        Some((sum(&lens, 4), GROUP_B + code))
    } else if all_within(&lens, count, 2, 5) {
        Some((sum(&lens, 2), GROUP_C + (lens[0] - 1) + 5 * (lens[1] - 1)))
    } else {
        None
    }
}

const fn build_decode() -> [u16; 4096] {
    let mut t = [OVERLONG; 4096];
    let mut mask = 0;
    while mask < 4096 {
        if let Some((consumed, index)) = classify(mask) {
            t[mask] = consumed as u16 | (index as u16) << 8;
        }
        mask += 1;
    }
    t
}

/// The lengths (minus one) of the values a shuffle index stands for, and
/// how many values it decodes.
pub(crate) const fn index_lengths(index: u8) -> ([u8; 6], usize) {
    let mut lens = [0u8; 6];
    if index < GROUP_B {
        let mut j = 0;
        while j < 6 {
            lens[j] = (index >> j) & 1;
            j += 1;
        }
        (lens, 6)
    } else if index < GROUP_C {
        let mut code = index - GROUP_B;
        let mut j = 0;
        while j < 4 {
            lens[j] = code % 3;
            code /= 3;
            j += 1;
        }
        (lens, 4)
    } else {
        let code = index - GROUP_C;
        lens[0] = code % 5;
        lens[1] = code / 5;
        (lens, 2)
    }
}

/// The shuffle masks (`0x80` = zero byte), indexed by shuffle index (the
/// x86 kernels keep them as vectors).
pub(crate) const fn build_shuffles() -> [[u8; 16]; 256] {
    // 256 entries so that a `u8` index needs no bounds check; 170.. unused.
    let mut t = [[0x80u8; 16]; 256];
    let mut index = 0;
    while index < SHUFFLE_COUNT {
        let (lens, m) = index_lengths(index as u8);
        let mut pos = 0u8; // input byte where value j starts
        let mut j = 0;
        while j < m {
            let len = lens[j] + 1;
            if (index as u8) < GROUP_B {
                t[index][2 * j] = pos;
                if len == 2 {
                    t[index][2 * j + 1] = pos + 1;
                }
            } else if (index as u8) < GROUP_C {
                let mut k = 0;
                while k < len {
                    t[index][4 * j + k as usize] = pos + k;
                    k += 1;
                }
            } else {
                // Bytes a b c d e -> b 0 c 0 d 0 e a.
                t[index][8 * j + 7] = pos;
                let mut k = 1;
                while k < len {
                    t[index][8 * j + 2 * (k as usize - 1)] = pos + k;
                    k += 1;
                }
            }
            pos += len;
            j += 1;
        }
        index += 1;
    }
    t
}

/// Encoder shuffles for eight values below 2^14, held as u16 lanes already
/// split into their VByte bytes (low byte with the continuation bit, high
/// byte): index = which lanes take two bytes (bit `j` for lane `j`); the
/// shuffle packs lane `j`'s low byte and, if it takes two, its high byte,
/// lane after lane (`0x80` past the end). The inverse of group A.
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) const fn build_encode_shuffles() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut p = 0;
        let mut j = 0;
        while j < 8 {
            t[m][p] = 2 * j as u8;
            p += 1;
            if m & (1 << j) != 0 {
                t[m][p] = 2 * j as u8 + 1;
                p += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
}

/// Mask of 12 continuation bits -> `consumed | shuffle index << 8`, or
/// [`OVERLONG`].
pub(crate) static DECODE: [u16; 4096] = build_decode();

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive: decode the window value by value and try the groups in order.
    fn naive_entry(mask: usize) -> Option<(u8, u8)> {
        let mut lens = Vec::new();
        let mut len = 0;
        for k in 0..12 {
            len += 1;
            if mask >> k & 1 == 0 {
                lens.push(len);
                len = 0;
            }
        }
        let fits = |m: usize, max: u8| lens.len() >= m && lens[..m].iter().all(|&l| l <= max);
        let consumed = |m: usize| lens[..m].iter().sum::<u8>();
        if fits(6, 2) {
            let idx = lens[..6]
                .iter()
                .enumerate()
                .map(|(j, &l)| (l - 1) << j)
                .sum();
            Some((consumed(6), idx))
        } else if fits(4, 3) {
            let code: u32 = lens[..4]
                .iter()
                .rev()
                .fold(0, |acc, &l| acc * 3 + u32::from(l - 1));
            Some((consumed(4), 64 + code as u8))
        } else if fits(2, 5) {
            Some((consumed(2), 145 + (lens[0] - 1) + 5 * (lens[1] - 1)))
        } else {
            None
        }
    }

    #[test]
    fn decode_table_matches_naive_builder() {
        for (mask, &entry) in DECODE.iter().enumerate() {
            let want = naive_entry(mask).map_or(OVERLONG, |(c, i)| c as u16 | (i as u16) << 8);
            assert_eq!(entry, want, "mask {mask:#05x}");
        }
        // Every shuffle index is used by some mask, and none beyond 170.
        let mut used = [false; 256];
        for &e in DECODE.iter().filter(|&&e| e != OVERLONG) {
            used[(e >> 8) as usize] = true;
        }
        assert!(used[..SHUFFLE_COUNT].iter().all(|&u| u));
        assert!(used[SHUFFLE_COUNT..].iter().all(|&u| !u));
        // Group sizes: 64 + 81 + 25.
        assert_eq!((GROUP_B, GROUP_C - GROUP_B, 170 - GROUP_C), (64, 81, 25));
    }

    #[test]
    fn overlong_masks_are_exactly_those_with_a_long_value_first() {
        for (mask, &entry) in DECODE.iter().enumerate() {
            // The first value is > 5 bytes, or it is <= 5 and the second is.
            let first = (0..12).find(|k| mask >> k & 1 == 0).map_or(13, |k| k + 1);
            let second = (first..12)
                .find(|k| mask >> k & 1 == 0)
                .map_or(13, |k| k + 1 - first);
            let long = first > 5 || second > 5;
            assert_eq!(entry == OVERLONG, long, "mask {mask:#05x}");
        }
    }

    #[test]
    fn encode_shuffles_match_naive_builder() {
        let t = build_encode_shuffles();
        for (m, mask) in t.iter().enumerate() {
            let mut want = Vec::new();
            for j in 0..8u8 {
                want.push(2 * j);
                if m >> j & 1 == 1 {
                    want.push(2 * j + 1);
                }
            }
            want.resize(16, 0x80);
            assert_eq!(&mask[..], &want[..], "mask {m:#04x}");
        }
    }

    /// Applies a shuffle like `pshufb` does.
    fn shuffle(data: &[u8; 16], mask: &[u8; 16]) -> [u8; 16] {
        mask.map(|m| {
            if m & 0x80 != 0 {
                0
            } else {
                data[m as usize & 15]
            }
        })
    }

    #[test]
    fn shuffles_place_every_byte_as_documented() {
        // Window bytes are their own positions (continuation bits aside), so a
        // shuffled byte names where it came from (+1, so zero means "none").
        let data: [u8; 16] = core::array::from_fn(|k| k as u8 + 1);
        for index in 0..SHUFFLE_COUNT as u8 {
            let (lens, m) = index_lengths(index);
            let got = shuffle(&data, &build_shuffles()[index as usize]);
            let mut want = [0u8; 16];
            let mut pos = 1u8;
            for (v, &l) in lens[..m].iter().enumerate() {
                let bytes: Vec<u8> = (pos..=pos + l).collect();
                pos += l + 1;
                if index < GROUP_B {
                    want[2 * v] = bytes[0];
                    want[2 * v + 1] = bytes.get(1).copied().unwrap_or(0);
                } else if index < GROUP_C {
                    for (k, &b) in bytes.iter().enumerate() {
                        want[4 * v + k] = b;
                    }
                } else {
                    want[8 * v + 7] = bytes[0];
                    for (k, &b) in bytes.iter().enumerate().skip(1) {
                        want[8 * v + 2 * (k - 1)] = b;
                    }
                }
            }
            assert_eq!(got, want, "index {index}");
        }
    }
}
