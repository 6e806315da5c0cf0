//! Operation sequences on a `KeySet` against `BTreeSet<u32>`: every answer
//! (insert, remove, contains, lower_bound, rank, select, range, cursor
//! seeks, intersection and union with a second set built from the model)
//! must match (an intersection byte for byte the set its keys build), and
//! the invariants and a serialization round trip hold at the end. Byte 0:
//! codec; byte 1: block length; then 5 bytes per operation (kind, key;
//! an insert with bit 0x40 of its kind inserts a burst of keys).
#![no_main]

use std::collections::BTreeSet;

use intcodec::keys::KeySet;
use intcodec::{KernelChoice, SortedCodec};
use intcodec_fuzz::{with_keyset_codec, KeysetCheck};
use libfuzzer_sys::fuzz_target;

fn check<C: SortedCodec + KernelChoice>(codec: C, bl: usize, ops: &[u8]) {
    let mut s = KeySet::with_block_len(codec, bl);
    let mut m = BTreeSet::new();
    let mut other = BTreeSet::new();
    for op in ops.chunks_exact(5) {
        // Small keys collide often; the top bit of the kind widens them.
        let raw = u32::from_le_bytes([op[1], op[2], op[3], op[4]]);
        let k = if op[0] & 0x80 != 0 { raw } else { raw % 4096 };
        // Bit 0x40 of an insert makes it a burst of up to 255 keys from
        // `k`, 1 to 3 apart: dense blocks (bitmap and run forms).
        let burst = (op[0] & 0x40 != 0).then(|| {
            let mut at = k;
            (0..op[3]).map_while(move |i| {
                let key = at;
                at = at.checked_add(1 + u32::from(op[4] >> (2 * (i % 4)) & 3) % 3)?;
                Some(key)
            })
        });
        match op[0] & 0x0F {
            0..=4 if burst.is_some() => {
                for k in burst.into_iter().flatten() {
                    assert_eq!(s.insert(k), m.insert(k));
                }
            }
            12 if burst.is_some() => other.extend(burst.into_iter().flatten()),
            0..=4 => assert_eq!(s.insert(k), m.insert(k)),
            5..=6 => assert_eq!(s.remove(k), m.remove(&k)),
            7 => assert_eq!(s.contains(k), m.contains(&k)),
            8 => assert_eq!(s.lower_bound(k), m.range(k..).next().copied()),
            9 => {
                assert_eq!(s.rank(k), m.range(..k).count());
                let i = k as usize % (m.len() + 1);
                assert_eq!(s.select(i), m.iter().nth(i).copied());
            }
            10 => {
                let b = k.saturating_add(u32::from(op[4]) * 64);
                assert!(s.range(k..b).eq(m.range(k..b).copied()));
            }
            11 => {
                let mut c = s.cursor();
                let a = c.seek(k);
                assert_eq!(a, m.range(k..).next().copied());
                let b = k.saturating_add(u32::from(op[3]) * 16);
                assert_eq!(c.seek(b), m.range(b.max(a.unwrap_or(b))..).next().copied());
            }
            12 => {
                other.insert(k);
            }
            13 => {
                let ov: Vec<u32> = other.iter().copied().collect();
                let o = KeySet::from_sorted_with(codec, bl, ov.iter().copied()).unwrap();
                let want: Vec<u32> = m.intersection(&other).copied().collect();
                // The result is the set its keys build, byte for byte
                // (bitmap blocks come from the ANDed words, the rest from
                // keys).
                let got = s.intersection(&o);
                got.check_invariants();
                assert_eq!(got.to_vec(), want);
                let built = KeySet::from_sorted_with(codec, bl, want.iter().copied()).unwrap();
                assert_eq!(got.to_bytes(), built.to_bytes());
                assert_eq!(s.intersection_len(&o), want.len());
                assert_eq!(s.intersect_sorted(&ov), want);
                let u: Vec<u32> = m.union(&other).copied().collect();
                let us = s.union(&o);
                us.check_invariants();
                assert_eq!(us.to_vec(), u);
                assert_eq!(s.union_sorted(&ov).to_vec(), u);
            }
            _ => {
                let back = KeySet::from_bytes(codec, &s.to_bytes()).unwrap();
                assert!(back == s);
            }
        }
    }
    s.check_invariants();
    assert!(s.iter().eq(m.iter().copied()));
    assert_eq!(s.len(), m.len());
}

/// [`check`] with the block length and operations of one input.
struct Run<'a> {
    bl: usize,
    ops: &'a [u8],
}

impl KeysetCheck for Run<'_> {
    fn run<C: SortedCodec + KernelChoice>(self, codec: C) {
        check(codec, self.bl, self.ops)
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let bl = usize::from(data[1]) + 1;
    let ops = &data[2..];
    with_keyset_codec(data[0] % 7, Run { bl, ops });
});
