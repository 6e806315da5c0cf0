//! `KeySet::from_bytes` on any input never panics; `Ok` means a valid set
//! (every invariant holds) whose serialization loads back to the same set
//! and is stable. Byte 0 picks the block codec; bit 7 of byte 0 switches to
//! corruption mode: the rest are keys, built into a set with a small block
//! length, serialized, then one byte (position from bytes 1-2) is xor-ed
//! with byte 3: the load must fail or give the same set.
#![no_main]

use intcodec::keys::KeySet;
use intcodec::{KernelChoice, SortedCodec};
use intcodec_fuzz::{with_keyset_codec, KeysetCheck};
use libfuzzer_sys::fuzz_target;

fn load<C: SortedCodec + KernelChoice>(codec: C, data: &[u8]) {
    if let Ok(s) = KeySet::from_bytes(codec, data) {
        s.check_invariants();
        let bytes = s.to_bytes();
        let back = KeySet::from_bytes(codec, &bytes).expect("a set's own bytes load");
        assert!(back == s);
        assert_eq!(back.to_bytes(), bytes);
    }
}

fn corrupt<C: SortedCodec + KernelChoice>(codec: C, data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let pos = usize::from(u16::from_le_bytes([data[0], data[1]]));
    let xor = data[2];
    let bl = usize::from(data[3] % 16) + 1;
    let mut keys: Vec<u32> = data[4..]
        .chunks(3)
        .map(|c| c.iter().fold(0u32, |a, &b| a << 8 | u32::from(b)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let set = KeySet::from_sorted_with(codec, bl, keys.iter().copied()).unwrap();
    let mut bytes = set.to_bytes();
    if bytes.is_empty() {
        return;
    }
    let at = pos % bytes.len();
    bytes[at] ^= xor;
    match KeySet::from_bytes(codec, &bytes) {
        Ok(s) => {
            s.check_invariants();
            assert!(s == set, "a corrupted byte {at} gave another set");
        }
        Err(e) => assert!(e.offset <= bytes.len()),
    }
}

/// Bit 7 of the first byte set: [`corrupt`], else [`load`], on the rest.
struct Run<'a> {
    mode: bool,
    data: &'a [u8],
}

impl KeysetCheck for Run<'_> {
    fn run<C: SortedCodec + KernelChoice>(self, codec: C) {
        if self.mode {
            corrupt(codec, self.data)
        } else {
            load(codec, self.data)
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let mode = which & 0x80 != 0;
    with_keyset_codec(which & 0x7F, Run { mode, data: rest });
});
