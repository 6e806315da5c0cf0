//! Decoders of very short lists (a handful of values), used by the drop-ins
//! and by `intcodec_decode*` before calling the core codec.
//!
//! For a 1-int list, the core's decode is a kernel-pointer call that sets up
//! a SIMD loop, finds nothing for it to do and hands the value to its scalar
//! tail: that set-up, not the decoding, is most of the call. Through the C
//! ABI it came on top of the ABI's own checks and made the 1-int calls miss
//! issue 19's target (under 2 ns over the Rust call). These loops decode
//! the value(s) directly instead, reading the bytes in order.
//!
//! They only ever take the easy case: a complete, well-formed list. On
//! anything else (input too short, a VByte value longer than 5 bytes or
//! whose 5th byte is above 0x0F) they return `None` without a result and
//! the caller runs the core decoder on the same input, which reports the
//! error exactly as it always did (kind, byte offset, value index). `out`
//! may then have been partly written, as the core's decoders may too.

use crate::scan::SvbLens;

/// Largest list the VByte loop takes.
pub(crate) const VBYTE_MAX: usize = 8;
/// Largest list the Stream VByte loop takes (one control byte).
pub(crate) const SVB_MAX: usize = 4;

/// Stream VByte: decodes `out.len()` (1 to 4) values from `input`, whose
/// first byte is their control byte; returns the stream's length, or `None`
/// when `input` is shorter than that. With `prev`, the values are deltas
/// summed from it.
#[inline(always)]
pub(crate) fn svb(
    lens: &SvbLens,
    input: &[u8],
    out: &mut [u32],
    prev: Option<u32>,
) -> Option<usize> {
    debug_assert!((1..=SVB_MAX).contains(&out.len()));
    let &key = input.first()?;
    let mut pos = 1;
    let mut acc = prev.unwrap_or(0);
    for (i, o) in out.iter_mut().enumerate() {
        let len = lens.code[((key >> (2 * i)) & 3) as usize] as usize;
        let v = input
            .get(pos..pos + len)?
            .iter()
            .rev()
            .fold(0u32, |v, &b| v << 8 | b as u32);
        pos += len;
        *o = match prev {
            None => v,
            Some(_) => {
                acc = acc.wrapping_add(v);
                acc
            }
        };
    }
    Some(pos)
}

/// VByte: decodes `out.len()` values, reading byte `off` as `byte(off)`
/// (`None`: past the input), in order, each value to its end or its 5th
/// byte; returns the bytes used, or `None` at a missing byte or a bad value.
/// With `prev`, the values are deltas summed from it.
///
/// `byte(off)` is called only for the byte right after the bytes already
/// read, and only while a value is open or still to come: a valid stream of
/// `out.len()` values holds that byte, and `off < 5 * out.len()` always.
#[inline(always)]
pub(crate) fn vbyte(
    mut byte: impl FnMut(usize) -> Option<u8>,
    out: &mut [u32],
    prev: Option<u32>,
) -> Option<usize> {
    let mut off = 0usize;
    let mut acc = prev.unwrap_or(0);
    for o in out.iter_mut() {
        let mut v = 0u32;
        let mut shift = 0;
        loop {
            let b = byte(off)?;
            off += 1;
            if shift == 28 {
                // The 5th byte: 4 bits, no continuation.
                if b > 0x0F {
                    return None;
                }
                v |= (b as u32) << 28;
                break;
            }
            v |= ((b & 0x7F) as u32) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        *o = match prev {
            None => v,
            Some(_) => {
                acc = acc.wrapping_add(v);
                acc
            }
        };
    }
    Some(off)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{SVB_0124, SVB_1234};
    use intcodec::streamvbyte::{StreamVByte, Variant};
    use intcodec::vbyte::VByte;
    use intcodec::IntCodec;

    use intcodec_testkit::SplitMix64 as Rng;

    /// Every control byte and count, whole and cut streams: the same values
    /// and length as the core, and `None` exactly where the core fails.
    #[test]
    fn svb_matches_the_core() {
        let mut rng = Rng::new(3);
        for (lens, variant) in [(&SVB_1234, Variant::V1234), (&SVB_0124, Variant::V0124)] {
            let c = StreamVByte::new().with_variant(variant);
            for key in 0..=255u8 {
                for n in 1..=SVB_MAX {
                    let mut s = vec![key];
                    s.extend((0..16).map(|_| rng.next_u64() as u8));
                    for cut in 0..=s.len() {
                        let input = &s[..cut];
                        for prev in [None, Some(0xFFFF_FFF0)] {
                            let (mut a, mut b) = ([0u32; 4], [0u32; 4]);
                            let want = c.decode_opt(input, n, prev, &mut a);
                            let got = svb(lens, input, &mut b[..n], prev);
                            assert_eq!(got, want.ok(), "key {key:#x} n {n} cut {cut}");
                            if got.is_some() {
                                assert_eq!(a[..n], b[..n]);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Random bytes (valid, overlong, overflowing, cut): the same values and
    /// length as the core, and `None` exactly where the core fails.
    #[test]
    fn vbyte_matches_the_core() {
        let c = VByte::new();
        let mut rng = Rng::new(11);
        for round in 0..20_000 {
            let n = 1 + round % VBYTE_MAX;
            let len = (rng.next_u64() % (5 * n as u64 + 2)) as usize;
            let s: Vec<u8> = (0..len)
                .map(|_| {
                    let b = rng.next_u64() as u8;
                    match round % 3 {
                        0 => b & 0x7F,
                        1 => b,
                        _ if rng.next_u64().is_multiple_of(4) => b & 0x7F,
                        _ => b | 0x80,
                    }
                })
                .collect();
            for prev in [None, Some(7)] {
                let (mut a, mut b) = ([0u32; VBYTE_MAX], [0u32; VBYTE_MAX]);
                let want = c.decode_opt(&s, n, prev, &mut a);
                let got = vbyte(|i| s.get(i).copied(), &mut b[..n], prev);
                assert_eq!(got, want.ok(), "{s:02x?} n {n}");
                if got.is_some() {
                    assert_eq!(a[..n], b[..n]);
                }
            }
        }
    }
}
