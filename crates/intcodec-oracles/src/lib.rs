//! Reference implementations used as oracles by the tests.
//!
//! [`LibStreamVByte`] is lemire/streamvbyte as Debian packages it
//! (`libstreamvbyte0`, installed with `libstreamvbyte-dev`), loaded with
//! `dlopen` so that exactly that build is used. [`shared_data`] finds the
//! project's shared real data sets, when present. [`fastpfor`] drives
//! FastPFor's C++ codecs through PyPI's `pyfastpfor` in a Python subprocess.
//! [`harness`] holds what the tests share: our kernels, the random and real
//! lists, the checks of our side against a reference's bytes.

pub mod fastpfor;
pub mod harness;

type EncodeFn = unsafe extern "C" fn(*const u32, u32, *mut u8) -> usize;
type DeltaEncodeFn = unsafe extern "C" fn(*const u32, u32, *mut u8, u32) -> usize;
type DecodeFn = unsafe extern "C" fn(*const u8, *mut u32, u32) -> usize;
type DeltaDecodeFn = unsafe extern "C" fn(*const u8, *mut u32, u32, u32) -> usize;

/// Debian's libstreamvbyte, loaded at run time.
pub struct LibStreamVByte {
    encode: EncodeFn,
    encode_0124: EncodeFn,
    delta_encode: DeltaEncodeFn,
    decode: DecodeFn,
    decode_0124: DecodeFn,
    delta_decode: DeltaDecodeFn,
    // Keeps the library mapped while the function pointers are in use.
    _lib: libloading::Library,
}

/// Bytes of slack given to the C decoders, which may read ahead.
const C_PADDING: usize = 64;

impl LibStreamVByte {
    /// Loads `libstreamvbyte.so.0` (or the path in `INTCODEC_LIBSTREAMVBYTE`).
    pub fn load() -> Result<Self, String> {
        let name = std::env::var("INTCODEC_LIBSTREAMVBYTE")
            .unwrap_or_else(|_| "libstreamvbyte.so.0".into());
        // SAFETY: loading a shared library runs its initialisers; the Debian
        // libstreamvbyte has none beyond the C runtime's.
        let lib = unsafe { libloading::Library::new(&name) }
            .map_err(|e| format!("cannot load {name} (install libstreamvbyte-dev): {e}"))?;
        fn sym<T: Copy>(lib: &libloading::Library, name: &str) -> Result<T, String> {
            // SAFETY: each symbol is requested with the C signature declared
            // in streamvbyte.h / streamvbytedelta.h (checked by hand).
            let s = unsafe { lib.get::<T>(name.as_bytes()) };
            s.map(|s| *s)
                .map_err(|e| format!("libstreamvbyte lacks {name}: {e}"))
        }
        Ok(LibStreamVByte {
            encode: sym(&lib, "streamvbyte_encode")?,
            encode_0124: sym(&lib, "streamvbyte_encode_0124")?,
            delta_encode: sym(&lib, "streamvbyte_delta_encode")?,
            decode: sym(&lib, "streamvbyte_decode")?,
            decode_0124: sym(&lib, "streamvbyte_decode_0124")?,
            delta_decode: sym(&lib, "streamvbyte_delta_decode")?,
            _lib: lib,
        })
    }

    fn out_buf(n: usize) -> Vec<u8> {
        vec![0u8; n.div_ceil(4) + 4 * n + C_PADDING]
    }

    fn count(n: usize) -> u32 {
        u32::try_from(n).expect("libstreamvbyte takes u32 counts")
    }

    /// `streamvbyte_encode`.
    pub fn encode(&self, values: &[u32]) -> Vec<u8> {
        let mut out = Self::out_buf(values.len());
        // SAFETY: `out` holds streamvbyte_max_compressedbytes(n) bytes.
        let len =
            unsafe { (self.encode)(values.as_ptr(), Self::count(values.len()), out.as_mut_ptr()) };
        out.truncate(len);
        out
    }

    /// `streamvbyte_encode_0124`.
    pub fn encode_0124(&self, values: &[u32]) -> Vec<u8> {
        let mut out = Self::out_buf(values.len());
        // SAFETY: as in `encode`.
        let len = unsafe {
            (self.encode_0124)(values.as_ptr(), Self::count(values.len()), out.as_mut_ptr())
        };
        out.truncate(len);
        out
    }

    /// `streamvbyte_delta_encode` from `prev`.
    pub fn delta_encode(&self, values: &[u32], prev: u32) -> Vec<u8> {
        let mut out = Self::out_buf(values.len());
        // SAFETY: as in `encode`.
        let len = unsafe {
            (self.delta_encode)(
                values.as_ptr(),
                Self::count(values.len()),
                out.as_mut_ptr(),
                prev,
            )
        };
        out.truncate(len);
        out
    }

    fn padded(input: &[u8]) -> Vec<u8> {
        let mut v = input.to_vec();
        v.extend_from_slice(&[0; C_PADDING]);
        v
    }

    /// `streamvbyte_decode` of a complete, valid stream of `n` values.
    /// Returns the values and the bytes consumed.
    pub fn decode(&self, input: &[u8], n: usize) -> (Vec<u32>, usize) {
        let src = Self::padded(input);
        let mut out = vec![0u32; n];
        // SAFETY: `src` is a valid stream of `n` values (caller) plus padding
        // for any read-ahead; `out` has `n` slots.
        let used = unsafe { (self.decode)(src.as_ptr(), out.as_mut_ptr(), Self::count(n)) };
        (out, used)
    }

    /// `streamvbyte_decode_0124`, as [`decode`](Self::decode).
    pub fn decode_0124(&self, input: &[u8], n: usize) -> (Vec<u32>, usize) {
        let src = Self::padded(input);
        let mut out = vec![0u32; n];
        // SAFETY: as in `decode`.
        let used = unsafe { (self.decode_0124)(src.as_ptr(), out.as_mut_ptr(), Self::count(n)) };
        (out, used)
    }

    /// `streamvbyte_delta_decode` from `prev`, as [`decode`](Self::decode).
    pub fn delta_decode(&self, input: &[u8], n: usize, prev: u32) -> (Vec<u32>, usize) {
        let src = Self::padded(input);
        let mut out = vec![0u32; n];
        // SAFETY: as in `decode`.
        let used =
            unsafe { (self.delta_decode)(src.as_ptr(), out.as_mut_ptr(), Self::count(n), prev) };
        (out, used)
    }
}

/// Loads the reference library, or explains why not. When
/// `INTCODEC_REQUIRE_ORACLES=1` (set by the project's test command), a missing
/// library is a failure instead of a loud skip.
pub fn require_libstreamvbyte(test: &str) -> Option<LibStreamVByte> {
    intcodec_testkit::require(test, LibStreamVByte::load())
}

pub use intcodec_testkit::shared_data;
