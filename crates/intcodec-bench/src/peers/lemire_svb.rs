//! lemire/streamvbyte (C), the Stream VByte peer (feature `peer-streamvbyte`).

use crate::measure::Codec;
use intcodec::streamvbyte::max_compressed_len;
use streamvbyte_sys as sys;

/// Bytes lemire/streamvbyte may read past a stream when decoding, or
/// write past the data when encoding (16-byte SIMD loads and stores).
const SLACK: usize = 16;

/// lemire/streamvbyte (C), through `streamvbyte-sys`, whose build
/// compiles it with `-march=native` (its SSE/AVX paths).
#[derive(Clone, Copy, Debug, Default)]
pub struct PeerStreamVByte;

fn check(n: usize, room: usize, needed: usize, what: &str) -> Result<u32, String> {
    let n32 = u32::try_from(n).map_err(|_| format!("peer:streamvbyte: {n} values is too many"))?;
    if room < needed {
        return Err(format!(
            "peer:streamvbyte: {what} has {room} bytes, needs {needed}"
        ));
    }
    Ok(n32)
}

impl Codec for PeerStreamVByte {
    fn family(&self) -> &'static str {
        "streamvbyte"
    }
    fn name(&self) -> String {
        "peer:streamvbyte".to_string()
    }
    fn kernel(&self) -> String {
        "c-simd".to_string()
    }
    fn is_peer(&self) -> bool {
        true
    }
    fn is_default(&self) -> bool {
        false
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_compressed_len(n) + SLACK
    }
    #[inline]
    fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
        let n = check(
            values.len(),
            out.len(),
            self.max_encoded_len(values.len()),
            "output",
        )?;
        // SAFETY: `values` holds `n` readable u32s; `out` is writable for
        // max_compressed_len(n) + 16 bytes (checked), more than the C
        // encoder writes (the stream plus at most 16 bytes of SIMD store).
        let w = unsafe { sys::streamvbyte_encode(values.as_ptr(), n, out.as_mut_ptr()) };
        Ok(w as usize)
    }
    #[inline]
    fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String> {
        let n = check(
            values.len(),
            out.len(),
            self.max_encoded_len(values.len()),
            "output",
        )?;
        // SAFETY: as in `encode`.
        let w =
            unsafe { sys::streamvbyte_delta_encode(values.as_ptr(), n, out.as_mut_ptr(), prev) };
        Ok(w as usize)
    }
    #[inline]
    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String> {
        let n32 = check(n, input.len(), self.max_encoded_len(n), "input")?;
        if out.len() < n {
            return Err(format!(
                "peer:streamvbyte: output holds {} < {n}",
                out.len()
            ));
        }
        // SAFETY: `out` has room for `n` values (checked); `input` has
        // max_compressed_len(n) + 16 readable bytes (checked): the C
        // decoder reads the control bytes, at most 4 data bytes per
        // value, and at most 16 bytes past the data, whatever the bytes.
        let r = unsafe { sys::streamvbyte_decode(input.as_ptr(), out.as_mut_ptr(), n32) };
        Ok(r as usize)
    }
    #[inline]
    fn decode_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, String> {
        let n32 = check(n, input.len(), self.max_encoded_len(n), "input")?;
        if out.len() < n {
            return Err(format!(
                "peer:streamvbyte: output holds {} < {n}",
                out.len()
            ));
        }
        // SAFETY: as in `decode`.
        let r =
            unsafe { sys::streamvbyte_delta_decode(input.as_ptr(), out.as_mut_ptr(), n32, prev) };
        Ok(r as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_matches_the_streamvbyte_crate() {
        let values: Vec<u32> = (0..777u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
            .collect();
        let mut out = vec![0u8; PeerStreamVByte.max_encoded_len(values.len())];
        let w = PeerStreamVByte.encode(&values, &mut out).unwrap();
        assert_eq!(&out[..w], &::streamvbyte::encode(&values)[..]);
    }

    #[test]
    fn peer_refuses_short_buffers() {
        let p = PeerStreamVByte;
        let mut out = vec![0u8; 10];
        assert!(p.encode(&[1, 2, 3, 4], &mut out).is_err());
        let mut vals = [0u32; 4];
        assert!(p.decode(&[0u8; 8], 4, &mut vals).is_err());
    }
}
