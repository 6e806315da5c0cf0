//! Zigzag mapping between signed and unsigned integers (0, -1, 1, -2, ... to
//! 0, 1, 2, 3, ...), so that small negative numbers stay small.

/// `$enc` and `$dec`: the zigzag map of the signed `$s` to the unsigned
/// `$u` of the same width, `(v << 1) ^ (v >> (BITS - 1))`, and its inverse.
/// Written once for the public maps here and the crate's others (the
/// narrow ones of [`varint::Signed`](crate::varint::Signed)).
macro_rules! zigzag_maps {
    ($($vis:vis fn $enc:ident, $dec:ident: $s:ty => $u:ty;)*) => {$(
        #[doc = concat!(
            "Maps an `", stringify!($s), "` to a `", stringify!($u), "`: `(v << 1) ^ (v >> ",
            stringify!($s), "::BITS - 1)`."
        )]
        #[inline(always)]
        $vis const fn $enc(v: $s) -> $u {
            ((v as $u) << 1) ^ ((v >> (<$s>::BITS - 1)) as $u)
        }

        #[doc = concat!("Inverse of [`", stringify!($enc), "`].")]
        #[inline(always)]
        $vis const fn $dec(v: $u) -> $s {
            ((v >> 1) as $s) ^ -((v & 1) as $s)
        }
    )*};
}

zigzag_maps! {
    pub(crate) fn encode_i8, decode_i8: i8 => u8;
    pub(crate) fn encode_i16, decode_i16: i16 => u16;
    pub fn encode_i32, decode_i32: i32 => u32;
    pub fn encode_i64, decode_i64: i64 => u64;
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
