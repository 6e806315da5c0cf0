//! The self-describing container `intcodec encode` writes by default.
//!
//! A 32-byte header, then the codec's bare stream (the payload). Byte by byte
//! (all integers little-endian; see also `docs/container.md`):
//!
//! ```text
//! offset size field
//!      0    8 magic           89 49 43 44 43 0D 0A 1A  ("\x89ICDC\r\n\x1A")
//!      8    1 version         1
//!      9    1 codec id        0x01 streamvbyte, 0x02 streamvbyte-0124, ...
//!     10    1 flags           bit 0: delta coded (from 0); bits 1-7: zero
//!     11    1 reserved        0
//!     12    8 value count     u64
//!     20    8 payload length  u64, bytes after the header
//!     28    4 checksum        CRC-32C of bytes 0..28, then of the payload
//!     32    - payload         exactly `payload length` bytes, then end of file
//! ```
//!
//! Reading checks, in this order: magic, header length, version, codec id,
//! flags, reserved byte, payload length against the file length (truncated
//! file or trailing bytes), checksum, and finally the codec's own decoding
//! (which must use the whole payload). Every error names a file offset.

use crate::codecs::{self, Codec};
use crate::error::{plural, CliError};
use intcodec::crc32c::Crc32c;

/// The eight magic bytes. The high first byte catches 7-bit transfers; the
/// CR LF and ^Z catch newline translation and DOS `type`, as in PNG.
pub(crate) const MAGIC: [u8; 8] = *b"\x89ICDC\r\n\x1A";
/// The format version this tool writes and reads.
pub(crate) const VERSION: u8 = 1;
/// Header length: the payload starts here.
pub(crate) const HEADER_LEN: usize = 32;
/// Flag bit 0: the values were delta coded from 0 before encoding.
pub(crate) const FLAG_DELTA: u8 = 1;
/// Every flag bit this version defines.
const KNOWN_FLAGS: u8 = FLAG_DELTA;

const OFF_VERSION: usize = 8;
const OFF_CODEC: usize = 9;
const OFF_FLAGS: usize = 10;
const OFF_RESERVED: usize = 11;
const OFF_COUNT: usize = 12;
const OFF_PAYLOAD_LEN: usize = 20;
const OFF_CHECKSUM: usize = 28;

/// A parsed, verified container: what the header says, and the payload.
#[derive(Debug)]
pub(crate) struct Container<'a> {
    /// The codec that wrote the payload.
    pub(crate) codec: &'static Codec,
    /// Whether the values were delta coded.
    pub(crate) delta: bool,
    /// The number of values.
    pub(crate) count: usize,
    /// The codec's stream.
    pub(crate) payload: &'a [u8],
}

/// Wraps `payload` (`count` values encoded by `codec`) in a container.
pub(crate) fn write(codec: &Codec, delta: bool, count: usize, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.push(VERSION);
    out.push(codec.id);
    out.push(if delta { FLAG_DELTA } else { 0 });
    out.push(0);
    out.extend_from_slice(&(count as u64).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    debug_assert_eq!(out.len(), OFF_CHECKSUM);
    let sum = checksum(&out, payload);
    out.extend_from_slice(&sum.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn checksum(header: &[u8], payload: &[u8]) -> u32 {
    let mut crc = Crc32c::new();
    crc.update(&header[..OFF_CHECKSUM]);
    crc.update(payload);
    crc.finish()
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Reads and verifies a container's header, length and checksum.
pub(crate) fn parse(file: &[u8]) -> Result<Container<'_>, CliError> {
    let len = file.len() as u64;
    // Magic: a strict prefix of it is a truncated container, anything else
    // is not a container at all.
    if let Some(bad) = file.iter().zip(&MAGIC).position(|(a, b)| a != b) {
        return Err(CliError::at(
            "not an intcodec container: bad magic bytes (use --raw to decode a bare stream)",
            bad as u64,
        ));
    }
    if file.len() < HEADER_LEN {
        return Err(CliError::at(
            format!(
                "truncated container: the header needs {HEADER_LEN} bytes, the input has {}",
                plural(len, "byte")
            ),
            len,
        ));
    }
    let version = file[OFF_VERSION];
    if version != VERSION {
        return Err(CliError::at(
            format!("unsupported container version {version} (this tool reads version {VERSION})"),
            OFF_VERSION as u64,
        ));
    }
    let id = file[OFF_CODEC];
    let codec = codecs::by_id(id)
        .ok_or_else(|| CliError::at(codecs::unknown_id_message(id), OFF_CODEC as u64))?;
    let flags = file[OFF_FLAGS];
    if flags & !KNOWN_FLAGS != 0 {
        return Err(CliError::at(
            format!(
                "unknown flag bits 0x{:02x} in container header",
                flags & !KNOWN_FLAGS
            ),
            OFF_FLAGS as u64,
        ));
    }
    if file[OFF_RESERVED] != 0 {
        return Err(CliError::at(
            format!(
                "reserved container header byte is 0x{:02x}, not 0",
                file[OFF_RESERVED]
            ),
            OFF_RESERVED as u64,
        ));
    }
    let count = u64_at(file, OFF_COUNT);
    let payload_len = u64_at(file, OFF_PAYLOAD_LEN);
    let present = len - HEADER_LEN as u64;
    if payload_len > present {
        return Err(CliError::at(
            format!(
                "truncated container: the header announces a payload of {}, the input has {present}",
                plural(payload_len, "byte")
            ),
            len,
        ));
    }
    if payload_len < present {
        let end = HEADER_LEN as u64 + payload_len;
        return Err(CliError::at(
            format!(
                "trailing garbage after the container: {} past its end",
                plural(len - end, "byte")
            ),
            end,
        ));
    }
    let payload = &file[HEADER_LEN..];
    let mut stored = [0u8; 4];
    stored.copy_from_slice(&file[OFF_CHECKSUM..OFF_CHECKSUM + 4]);
    let stored = u32::from_le_bytes(stored);
    let computed = checksum(file, payload);
    if stored != computed {
        return Err(CliError::at(
            format!(
                "corrupted container: checksum mismatch (stored 0x{stored:08x}, computed 0x{computed:08x})"
            ),
            OFF_CHECKSUM as u64,
        ));
    }
    let count = usize::try_from(count).map_err(|_| {
        CliError::at(
            format!("value count {count} in container is too large for this machine"),
            OFF_COUNT as u64,
        )
    })?;
    Ok(Container {
        codec,
        delta: flags & FLAG_DELTA != 0,
        count,
        payload,
    })
}

/// Reads a whole container file and decodes its values.
pub(crate) fn decode(file: &[u8]) -> Result<Vec<u32>, CliError> {
    let c = parse(file)?;
    codecs::decode_exact(c.codec, c.payload, c.count, c.delta, HEADER_LEN as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;
    use intcodec::crc32c::crc32c;
    use intcodec::IntCodec;

    fn svb() -> &'static Codec {
        codecs::by_name("streamvbyte").unwrap()
    }

    fn sample(delta: bool) -> (Vec<u32>, Vec<u8>) {
        let values = vec![1024, 12, 10, 1_073_741_824, 1, 2, 3, 1024];
        let payload = svb().encode(&values, delta);
        (values.clone(), write(svb(), delta, values.len(), &payload))
    }

    /// Rewrites the checksum after a deliberate header or payload edit.
    fn reseal(file: &mut [u8]) {
        let mut body = file[..OFF_CHECKSUM].to_vec();
        body.extend_from_slice(&file[HEADER_LEN..]);
        let sum = crc32c(&body);
        file[OFF_CHECKSUM..OFF_CHECKSUM + 4].copy_from_slice(&sum.to_le_bytes());
    }

    fn err_at(file: &[u8]) -> (String, u64) {
        let e = decode(file).unwrap_err();
        let Location { offset, .. } = e.location().expect("error has a location");
        (e.to_string(), offset)
    }

    #[test]
    fn layout_byte_by_byte() {
        // Paper Fig. 3 values; stream = 2 control + 13 data bytes.
        let (_, file) = sample(false);
        let mut expect = vec![0x89, b'I', b'C', b'D', b'C', 0x0D, 0x0A, 0x1A];
        expect.extend_from_slice(&[1, 0x01, 0, 0]);
        expect.extend_from_slice(&[8, 0, 0, 0, 0, 0, 0, 0]);
        expect.extend_from_slice(&[15, 0, 0, 0, 0, 0, 0, 0]);
        let payload = [
            0xC1, 0x40, // control bytes
            0x00, 0x04, 0x0C, 0x0A, 0x00, 0x00, 0x00, 0x40, // 1024, 12, 10, 2^30
            0x01, 0x02, 0x03, 0x00, 0x04, // 1, 2, 3, 1024
        ];
        assert_eq!(&file[HEADER_LEN..], &payload[..]);
        let mut covered = expect.clone();
        covered.extend_from_slice(&file[HEADER_LEN..]);
        let sum = crc32c(&covered);
        assert_eq!(sum, 0x35B6_C1AA, "golden value, also in docs/container.md");
        expect.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(&file[..HEADER_LEN], &expect[..]);
    }

    #[test]
    fn round_trip_and_flags() {
        for delta in [false, true] {
            let (values, file) = sample(delta);
            assert_eq!(file[OFF_FLAGS], delta as u8);
            let c = parse(&file).unwrap();
            assert_eq!((c.codec.id, c.delta, c.count), (0x01, delta, 8));
            assert_eq!(decode(&file).unwrap(), values);
        }
        let empty = write(svb(), false, 0, &[]);
        assert_eq!(empty.len(), HEADER_LEN);
        assert_eq!(decode(&empty).unwrap(), Vec::<u32>::new());
    }

    #[test]
    fn bad_magic() {
        let (_, mut file) = sample(false);
        file[0] = b'X';
        let (msg, off) = err_at(&file);
        assert!(msg.contains("bad magic"), "{msg}");
        assert_eq!(off, 0);
        let (_, mut file) = sample(false);
        file[5] = b'\n';
        assert_eq!(err_at(&file).1, 5);
        assert_eq!(err_at(b"hello").1, 0);
    }

    #[test]
    fn truncated_header() {
        let (_, file) = sample(false);
        for n in [0, 1, 7, 8, 20, 31] {
            let (msg, off) = err_at(&file[..n]);
            assert!(msg.contains("truncated container"), "{n}: {msg}");
            assert_eq!(off, n as u64);
        }
    }

    #[test]
    fn truncated_payload_and_trailing_garbage() {
        let (_, file) = sample(false);
        for n in [HEADER_LEN + 1, file.len() - 1] {
            let (msg, off) = err_at(&file[..n]);
            assert!(msg.contains("truncated container"), "{msg}");
            assert_eq!(off, n as u64);
        }
        let mut long = file.clone();
        long.extend_from_slice(b"xy");
        let (msg, off) = err_at(&long);
        assert!(msg.contains("trailing garbage"), "{msg}");
        assert!(msg.contains("2 bytes"), "{msg}");
        assert_eq!(off, file.len() as u64);
    }

    #[test]
    fn header_fields_checked_in_order() {
        let (_, file) = sample(false);
        let cases: [(usize, u8, &str); 5] = [
            (OFF_VERSION, 2, "unsupported container version 2"),
            (OFF_CODEC, 0x7F, "unknown codec id 0x7f"),
            (OFF_CODEC, 0, "unknown codec id 0x00"),
            (OFF_FLAGS, 0x81, "unknown flag bits 0x80"),
            (OFF_RESERVED, 1, "reserved container header byte"),
        ];
        for (at, value, words) in cases {
            let mut f = file.clone();
            f[at] = value;
            reseal(&mut f);
            let (msg, off) = err_at(&f);
            assert!(msg.contains(words), "{msg}");
            assert_eq!(off, at as u64, "{msg}");
        }
        // The codec id is checked before the (now wrong) checksum.
        let mut f = file.clone();
        f[OFF_CODEC] = 0x7F;
        assert!(err_at(&f).0.contains("unknown codec id"));
    }

    #[test]
    fn checksum_covers_header_and_payload() {
        let (_, file) = sample(false);
        // Fields no earlier check looks at: the count, the delta flag, every
        // payload byte, and the checksum itself.
        let edits = (OFF_COUNT..OFF_PAYLOAD_LEN)
            .chain(OFF_CHECKSUM..file.len())
            .map(|i| (i, 0x40))
            .chain([(OFF_FLAGS, FLAG_DELTA)]);
        for (i, bit) in edits {
            let mut f = file.clone();
            f[i] ^= bit;
            let (msg, off) = err_at(&f);
            assert!(msg.contains("checksum mismatch"), "byte {i}: {msg}");
            assert_eq!(off, OFF_CHECKSUM as u64);
        }
    }

    #[test]
    fn codec_error_offsets_are_file_offsets() {
        // Claim 9 values while the payload holds 8: the stream is now read
        // with 3 control bytes and comes up short.
        let (_, mut file) = sample(false);
        file[OFF_COUNT] = 9;
        reseal(&mut file);
        let lib = intcodec::streamvbyte::StreamVByte::new()
            .decode_to_vec(&file[HEADER_LEN..], 9)
            .unwrap_err();
        let e = decode(&file).unwrap_err();
        assert!(
            e.to_string()
                .contains("corrupt streamvbyte stream: input truncated"),
            "{e}"
        );
        let loc = e.location().unwrap();
        assert_eq!(loc.offset, (HEADER_LEN + lib.offset()) as u64);
        let detail = match lib.index() {
            Some(i) => crate::error::Detail::Index(i as u64),
            None => crate::error::Detail::None,
        };
        assert_eq!(loc.detail, detail);

        // Claim 4 values: the payload has bytes left over.
        let (_, mut file) = sample(false);
        file[OFF_COUNT] = 4;
        reseal(&mut file);
        let (msg, off) = err_at(&file);
        assert!(msg.contains("trailing bytes"), "{msg}");
        // 1 control byte + 2 + 1 + 1 + 4 data bytes of the first 4 values.
        assert_eq!(off, HEADER_LEN as u64 + 1 + 8);
    }

    #[test]
    fn absurd_count_is_an_error_not_an_allocation() {
        let (_, mut file) = sample(false);
        file[OFF_COUNT..OFF_COUNT + 8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        reseal(&mut file);
        let (msg, off) = err_at(&file);
        let payload = file.len() - HEADER_LEN;
        assert_eq!(
            msg,
            format!(
                "streamvbyte stream: count {} needs at least {} bytes, the payload has {payload} bytes \
                 (at byte offset {})",
                u64::MAX / 2,
                u128::from(u64::MAX / 2).div_ceil(4) + u128::from(u64::MAX / 2),
                file.len()
            )
        );
        assert_eq!(off, file.len() as u64);
    }
}
