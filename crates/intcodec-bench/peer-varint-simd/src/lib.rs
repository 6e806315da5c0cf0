//! C-ABI benchmark loops over varint-simd 0.4.1 (see Cargo.toml for why
//! this is a separate cdylib). Every function takes raw pointers and
//! lengths from intcodec-bench, which guarantees what each `# Safety` says.
//! Decoders return the bytes consumed, or -1 on a decoding error.

use std::ffi::c_char;
use varint_simd::VarIntTarget;

/// The flags this library was compiled with (NUL-terminated).
#[no_mangle]
pub extern "C" fn vs_build_flags() -> *const c_char {
    const S: &str = concat!(
        "varint-simd 0.4.1 cdylib: target features",
        " sse2=", cfg!(target_feature = "sse2"),
        " ssse3=", cfg!(target_feature = "ssse3"),
        " sse4.1=", cfg!(target_feature = "sse4.1"),
        " popcnt=", cfg!(target_feature = "popcnt"),
        " lzcnt=", cfg!(target_feature = "lzcnt"),
        " bmi2=", cfg!(target_feature = "bmi2"),
        " avx2=", cfg!(target_feature = "avx2"),
        "; native-optimizations feature=", cfg!(feature = "native"),
        "\0"
    );
    S.as_ptr().cast()
}

/// # Safety
/// `input` is readable for `len` bytes, `out` writable for `n` values.
unsafe fn parts<'a, T>(input: *const u8, len: usize, n: usize, out: *mut T) -> (&'a [u8], &'a mut [T]) {
    // SAFETY: the caller's contract.
    let i = unsafe { std::slice::from_raw_parts(input, len) };
    // SAFETY: the caller's contract.
    let o = unsafe { std::slice::from_raw_parts_mut(out, n) };
    (i, o)
}

#[inline(always)]
fn safe_loop<T: VarIntTarget>(input: &[u8], out: &mut [T]) -> isize {
    let mut slice = input;
    for slot in out.iter_mut() {
        match varint_simd::decode::<T>(slice) {
            Ok((v, len)) => {
                *slot = v;
                slice = &slice[len..];
            }
            Err(_) => return -1,
        }
    }
    (input.len() - slice.len()) as isize
}

/// `decode_unsafe` as in varint-simd's own benchmark: 16 readable bytes at
/// every value start (the caller pads the input).
#[inline(always)]
unsafe fn unsafe_loop<T: VarIntTarget>(input: &[u8], out: &mut [T]) -> isize {
    let mut slice = input;
    for slot in out.iter_mut() {
        // SAFETY: the caller pads `input` with 16 bytes.
        let (v, len) = unsafe { varint_simd::decode_unsafe::<T>(slice.as_ptr()) };
        *slot = v;
        slice = &slice[len..];
    }
    (input.len() - slice.len()) as isize
}

#[inline(always)]
fn encode_loop<T: VarIntTarget>(values: &[T], out: &mut [u8]) -> usize {
    let mut pos = 0;
    for &v in values {
        pos += usize::from(varint_simd::encode_to_slice::<T>(v, &mut out[pos..]));
    }
    pos
}

macro_rules! single {
    ($t:ty, $safe:ident, $unsafe:ident, $enc:ident) => {
        /// # Safety
        /// `input`/`len` readable, `out` holds `n` values.
        #[no_mangle]
        pub unsafe extern "C" fn $safe(input: *const u8, len: usize, n: usize, out: *mut $t) -> isize {
            // SAFETY: the caller's contract.
            let (i, o) = unsafe { parts(input, len, n, out) };
            safe_loop::<$t>(i, o)
        }
        /// # Safety
        /// As above, and `len` covers 16 bytes past the last value's start.
        #[no_mangle]
        pub unsafe extern "C" fn $unsafe(input: *const u8, len: usize, n: usize, out: *mut $t) -> isize {
            // SAFETY: the caller's contract.
            let (i, o) = unsafe { parts(input, len, n, out) };
            // SAFETY: the caller's contract.
            unsafe { unsafe_loop::<$t>(i, o) }
        }
        /// # Safety
        /// `values` holds `n` values, `out` is writable for `cap` bytes
        /// (at least 10 per value; varint-simd panics otherwise).
        #[no_mangle]
        pub unsafe extern "C" fn $enc(values: *const $t, n: usize, out: *mut u8, cap: usize) -> usize {
            // SAFETY: the caller's contract.
            let v = unsafe { std::slice::from_raw_parts(values, n) };
            // SAFETY: the caller's contract.
            let o = unsafe { std::slice::from_raw_parts_mut(out, cap) };
            encode_loop::<$t>(v, o)
        }
    };
}
single!(u8, vs_decode_safe_u8, vs_decode_unsafe_u8, vs_encode_u8);
single!(u16, vs_decode_safe_u16, vs_decode_unsafe_u16, vs_encode_u16);
single!(u32, vs_decode_safe_u32, vs_decode_unsafe_u32, vs_encode_u32);
single!(u64, vs_decode_safe_u64, vs_decode_unsafe_u64, vs_encode_u64);

/// Multi-value decoders exist only with SSSE3 (always true in the builds
/// intcodec-bench makes; the stubs keep a plain build compiling).
macro_rules! multi {
    ($name:ident, $t:ty, $n:expr, |$p:ident, $o:ident| $body:block) => {
        /// # Safety
        /// `input`/`len` readable with 16 bytes of padding after the values,
        /// `out` holds `n` values, `n` a multiple of the group size.
        #[no_mangle]
        pub unsafe extern "C" fn $name(input: *const u8, len: usize, n: usize, out: *mut $t) -> isize {
            // SAFETY: the caller's contract.
            let (i, o) = unsafe { parts(input, len, n, out) };
            #[cfg(target_feature = "ssse3")]
            {
                let mut slice = i;
                for $o in o.chunks_exact_mut($n) {
                    let $p = slice.as_ptr();
                    let used: usize = $body;
                    slice = &slice[used..];
                }
                (i.len() - slice.len()) as isize
            }
            #[cfg(not(target_feature = "ssse3"))]
            {
                let _ = (i, o);
                -2
            }
        }
    };
}

macro_rules! two {
    ($name:ident, $t:ty) => {
        multi!($name, $t, 2, |p, o| {
            // SAFETY: 16 readable bytes at `p` (the caller pads).
            let (a, b, la, lb) = unsafe { varint_simd::decode_two_unsafe::<$t, $t>(p) };
            o[0] = a;
            o[1] = b;
            usize::from(la) + usize::from(lb)
        });
    };
}
two!(vs_decode_two_u8, u8);
two!(vs_decode_two_u16, u16);
two!(vs_decode_two_u32, u32);

macro_rules! four {
    ($name:ident, $t:ty) => {
        multi!($name, $t, 4, |p, o| {
            // SAFETY: 16 readable bytes at `p` (the caller pads).
            let (a, b, c, d, la, lb, lc, ld, _) =
                unsafe { varint_simd::decode_four_unsafe::<$t, $t, $t, $t>(p) };
            o[0] = a;
            o[1] = b;
            o[2] = c;
            o[3] = d;
            usize::from(la) + usize::from(lb) + usize::from(lc) + usize::from(ld)
        });
    };
}
four!(vs_decode_four_u8, u8);
four!(vs_decode_four_u16, u16);

multi!(vs_decode_eight_u8, u8, 8, |p, o| {
    // SAFETY: 16 readable bytes at `p` (the caller pads).
    let (v, len) = unsafe { varint_simd::decode_eight_u8_unsafe(p) };
    o.copy_from_slice(&v);
    usize::from(len)
});
