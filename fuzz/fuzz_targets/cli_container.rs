//! The CLI's container reader (`crates/intcodec-cli/src/container.rs`) and,
//! through it, the decoder of every codec in the CLI's registry
//! (`codecs.rs`). The CLI is a binary crate, so its modules are compiled into
//! this target by path; if `codecs.rs` starts to use another CLI module, add
//! it to the list below.
//!
//! Each input is tried twice: as a file, and as the fields of a container
//! with the right magic, version and checksum (so the codec's own decoder is
//! reached): byte 0 codec id (bit 7 clear: a known id), byte 1 flags (bit 7
//! clear: only the delta bit), byte 2 reserved (bit 7 clear: 0), bytes 3-10
//! the count (bit 7 of byte 11 clear: reduced to at most four values per
//! payload byte), byte 11 (bit 6: wrong payload length, bit 5: wrong
//! checksum), then the payload. Nothing may panic; an accepted container
//! must decode to `count` values that re-encode to a container decoding to
//! the same values; every error message is one line.
#![no_main]
#![allow(dead_code, unreachable_pub)]

#[path = "../../crates/intcodec-cli/src/codecs.rs"]
mod codecs;
#[path = "../../crates/intcodec-cli/src/container.rs"]
mod container;
#[path = "../../crates/intcodec-cli/src/error.rs"]
mod error;

use intcodec_fuzz::Reader;
use libfuzzer_sys::fuzz_target;

fn check(file: &[u8]) {
    match container::decode(file) {
        Ok(values) => {
            let c = container::parse(file).expect("a decoded container parses");
            assert_eq!(values.len(), c.count);
            let again = c.codec.encode(&values, c.delta);
            let rewritten = container::write(c.codec, c.delta, c.count, &again);
            assert_eq!(container::decode(&rewritten), Ok(values));
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n') && !msg.is_empty(), "{msg:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);

    let mut r = Reader::new(data);
    let (id, flags, reserved, count, mode) = (r.u8(), r.u8(), r.u8(), r.u64(), r.u8());
    let payload = r.rest();
    let known = &*codecs::CODECS;
    let id = if id & 0x80 == 0 {
        known[id as usize % known.len()].id
    } else {
        id & 0x7F
    };
    let flags = if flags & 0x80 == 0 { flags & 1 } else { flags };
    let reserved = if reserved & 0x80 == 0 { 0 } else { reserved };
    let count = if mode & 0x80 == 0 {
        count % (4 * payload.len() as u64 + 8)
    } else {
        count
    };
    let payload_len = if mode & 0x40 == 0 {
        payload.len() as u64
    } else {
        (payload.len() as u64)
            .wrapping_add(u64::from(mode & 0x1F))
            .wrapping_sub(16)
    };
    let mut file = Vec::with_capacity(container::HEADER_LEN + payload.len());
    file.extend_from_slice(&container::MAGIC);
    file.extend_from_slice(&[container::VERSION, id, flags, reserved]);
    file.extend_from_slice(&count.to_le_bytes());
    file.extend_from_slice(&payload_len.to_le_bytes());
    let mut crc = intcodec::crc32c::Crc32c::new();
    crc.update(&file);
    crc.update(payload);
    let sum = crc.finish() ^ u32::from(mode & 0x20 != 0);
    file.extend_from_slice(&sum.to_le_bytes());
    file.extend_from_slice(payload);
    check(&file);
});
