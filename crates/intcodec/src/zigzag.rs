//! Zigzag mapping between signed and unsigned integers (0, -1, 1, -2, ... to
//! 0, 1, 2, 3, ...), so that small negative numbers stay small.

/// Maps an `i32` to a `u32`: `(v << 1) ^ (v >> 31)`.
#[inline]
pub const fn encode_i32(v: i32) -> u32 {
    ((v as u32) << 1) ^ ((v >> 31) as u32)
}

/// Inverse of [`encode_i32`].
#[inline]
pub const fn decode_i32(v: u32) -> i32 {
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

/// Maps an `i64` to a `u64`.
#[inline]
pub const fn encode_i64(v: i64) -> u64 {
    ((v as u64) << 1) ^ ((v >> 63) as u64)
}

/// Inverse of [`encode_i64`].
#[inline]
pub const fn decode_i64(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Zigzag-encodes `input` into `out` (`out.len()` must equal `input.len()`).
///
/// # Panics
/// If the lengths differ.
pub fn encode_slice_i32(input: &[i32], out: &mut [u32]) {
    assert_eq!(input.len(), out.len(), "zigzag: slices differ in length");
    for (o, &v) in out.iter_mut().zip(input) {
        *o = encode_i32(v);
    }
}

/// Zigzag-decodes `input` into `out` (`out.len()` must equal `input.len()`).
///
/// # Panics
/// If the lengths differ.
pub fn decode_slice_i32(input: &[u32], out: &mut [i32]) {
    assert_eq!(input.len(), out.len(), "zigzag: slices differ in length");
    for (o, &v) in out.iter_mut().zip(input) {
        *o = decode_i32(v);
    }
}

/// Differences of consecutive values (from `prev`, wrapping), zigzag-encoded:
/// the form lemire/streamvbyte's `zigzag_delta_encode` produces.
///
/// # Panics
/// If the lengths differ.
pub fn delta_encode_slice_i32(input: &[i32], out: &mut [u32], mut prev: i32) {
    assert_eq!(input.len(), out.len(), "zigzag: slices differ in length");
    for (o, &v) in out.iter_mut().zip(input) {
        *o = encode_i32(v.wrapping_sub(prev));
        prev = v;
    }
}

/// Inverse of [`delta_encode_slice_i32`].
///
/// # Panics
/// If the lengths differ.
pub fn delta_decode_slice_i32(input: &[u32], out: &mut [i32], mut prev: i32) {
    assert_eq!(input.len(), out.len(), "zigzag: slices differ in length");
    for (o, &v) in out.iter_mut().zip(input) {
        prev = prev.wrapping_add(decode_i32(v));
        *o = prev;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let pairs = [(0, 0u32), (-1, 1), (1, 2), (-2, 3), (2, 4)];
        for (s, u) in pairs {
            assert_eq!(encode_i32(s), u);
            assert_eq!(decode_i32(u), s);
        }
        assert_eq!(encode_i32(i32::MAX), u32::MAX - 1);
        assert_eq!(encode_i32(i32::MIN), u32::MAX);
        assert_eq!(encode_i64(i64::MIN), u64::MAX);
        assert_eq!(decode_i64(u64::MAX), i64::MIN);
    }

    #[test]
    fn delta_round_trip() {
        let v = [5, -3, i32::MIN, i32::MAX, 0, 7];
        let mut u = [0u32; 6];
        delta_encode_slice_i32(&v, &mut u, 2);
        let mut back = [0i32; 6];
        delta_decode_slice_i32(&u, &mut back, 2);
        assert_eq!(v, back);
    }
}
