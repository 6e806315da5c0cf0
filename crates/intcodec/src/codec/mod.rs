//! The codecs. Each module documents its wire format first.

#[cfg(target_arch = "aarch64")]
mod aarch64;
pub mod bp128;
pub mod frame_of_reference;
mod kernels;
pub mod streamvbyte;
pub mod varint;
#[cfg(feature = "g8iu")]
pub mod varint_g8iu;
pub mod varint_gb;
pub mod vbyte;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

// The kernel signatures of the byte-oriented codecs (Stream VByte,
// VarInt-GB, G8IU). The pointers are `unsafe fn` only because SIMD kernels
// may be called only on CPUs with their features; a handle holds only sets
// from the registries, which checked that (see `crate::dispatch`).
//
// decode: `(input, out, prev)`: decodes `out.len()` values (delta-coded
// from `prev` in the delta kernels); bytes consumed or the first error.
// encode: `(values, prev, out)`, `out.len() >= compressed length`; returns
// bytes written.
// unchecked decode: a valid stream followed by the codec's `PADDING`
// readable bytes; bytes consumed.
pub(crate) type DecodeFn = unsafe fn(&[u8], &mut [u32], u32) -> Result<usize, DecodeError>;
pub(crate) type EncodeFn = unsafe fn(&[u32], u32, &mut [u8]) -> usize;
pub(crate) type DecodeUncheckedFn = unsafe fn(&[u8], &mut [u32], u32) -> usize;

/// `pub(crate) struct $K`, a kernel set of a byte-oriented codec, with its
/// `KernelSet` impl: its `isa`, the six kernels above (`decode`,
/// `decode_delta`, `decode_unchecked`, `decode_delta_unchecked`, `encode`,
/// `encode_delta`: what [`kernel_decoders!`] and [`kernel_encoders!`] call),
/// then the codec's own fields as given.
macro_rules! byte_kernels {
    ($(#[$meta:meta])* $K:ident { $($(#[$fmeta:meta])* $f:ident: $t:ty,)* }) => {
        $(#[$meta])*
        pub(crate) struct $K {
            isa: $crate::isa::Isa,
            decode: $crate::codec::DecodeFn,
            decode_delta: $crate::codec::DecodeFn,
            decode_unchecked: $crate::codec::DecodeUncheckedFn,
            decode_delta_unchecked: $crate::codec::DecodeUncheckedFn,
            encode: $crate::codec::EncodeFn,
            encode_delta: $crate::codec::EncodeFn,
            $($(#[$fmeta])* $f: $t,)*
        }

        $crate::codec::kernel_set!($K);
    };
}
pub(crate) use byte_kernels;

/// A kernel set `Kernels { .. }` of a byte-oriented codec for `$isa`: the
/// six kernels every set holds ([`byte_kernels!`]) from three generic
/// functions, each named with its type arguments (`decode<F>`,
/// `scalar::encode<u32>`) and given `DELTA` false, then true: the checked
/// decoder (`decode`, `decode_delta`), the unchecked one (`decode_unchecked`,
/// `decode_delta_unchecked`) and the encoder (`encode`, `encode_delta`);
/// then the codec's own fields, as given. The unchecked decoder `checked<>`
/// is the checked one, an error mapped to 0 bytes (the scalar sets, whose
/// checked decoders are as fast).
macro_rules! kernel_table {
    (
        $isa:expr,
        $($d:ident)::+ <$($dg:ty),*>,
        $($u:ident)::+ <$($ug:ty),*>,
        $($e:ident)::+ <$($eg:ty),*>;
        $($f:ident: $v:expr),* $(,)?
    ) => {
        Kernels {
            isa: $isa,
            decode: $($d)::+::<$($dg,)* false>,
            decode_delta: $($d)::+::<$($dg,)* true>,
            decode_unchecked: $crate::codec::kernel_table!(
                @unchecked false, $($u)::+ <$($ug),*>, $($d)::+ <$($dg),*>
            ),
            decode_delta_unchecked: $crate::codec::kernel_table!(
                @unchecked true, $($u)::+ <$($ug),*>, $($d)::+ <$($dg),*>
            ),
            encode: $($e)::+::<$($eg,)* false>,
            encode_delta: $($e)::+::<$($eg,)* true>,
            $($f: $v,)*
        }
    };
    (@unchecked $delta:literal, checked<>, $($d:ident)::+ <$($dg:ty),*>) => {
        |input, out, prev| $($d)::+::<$($dg,)* $delta>(input, out, prev).unwrap_or(0)
    };
    (@unchecked $delta:literal, $($u:ident)::+ <$($ug:ty),*>, $($d:tt)*) => {
        $($u)::+::<$($ug,)* $delta>
    };
}
pub(crate) use kernel_table;

/// `impl KernelSet for $K` of a kernel set struct with an `isa` field.
macro_rules! kernel_set {
    ($K:ident) => {
        impl $crate::dispatch::KernelSet for $K {
            fn isa(&self) -> $crate::isa::Isa {
                self.isa
            }
        }
    };
}
pub(crate) use kernel_set;

/// `static $name: Registry<Kernels>`: the scalar set, then the x86 sets and
/// the AArch64 sets, each compiled only for its architecture; best last.
macro_rules! kernel_registry {
    ($name:ident = [$scalar:path; x86: $($(#[$xm:meta])* $x:path),*; aarch64: $($a:path),*]) => {
        static $name: $crate::dispatch::Registry<Kernels> =
            $crate::codec::kernel_registry!(@new $scalar; x86: $($(#[$xm])* $x),*; aarch64: $($a),*);
    };
    (@new $scalar:path; x86: $($(#[$xm:meta])* $x:path),*; aarch64: $($a:path),*) => {
        $crate::dispatch::Registry::new(&[
            &$scalar,
            $(
                #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
                $(#[$xm])*
                &$x,
            )*
            $(
                #[cfg(target_arch = "aarch64")]
                &$a,
            )*
        ])
    };
}
pub(crate) use kernel_registry;

/// The registries of a codec with a format option: for each option value
/// `$pat`, `static $name` as [`kernel_registry!`] makes it, its scalar set
/// built by the const expression `$scalar`; and `fn $f(option)`, the
/// registry of an option value.
macro_rules! option_registries {
    (
        $(#[$doc:meta])*
        $vis:vis fn $f:ident($o:ident: $O:ty) {
            $(
                $pat:pat => $name:ident = [
                    $scalar:expr; x86: $($(#[$xm:meta])* $x:path),*; aarch64: $($a:path),*
                ]
            ),+ $(,)?
        }
    ) => {
        $(
            static $name: $crate::dispatch::Registry<Kernels> = {
                static SCALAR: Kernels = $scalar;
                $crate::codec::kernel_registry!(@new SCALAR; x86: $($(#[$xm])* $x),*; aarch64: $($a),*)
            };
        )+

        $(#[$doc])*
        $vis fn $f($o: $O) -> &'static $crate::dispatch::Registry<Kernels> {
            match $o {
                $($pat => &$name,)+
            }
        }
    };
}
pub(crate) use option_registries;

/// The set of `r` for `isa`, else `r`'s best: a handle's kernel choice kept
/// across a change of format option (`with_variant`, `with_layout`).
pub(crate) fn same_isa<K: crate::dispatch::KernelSet>(
    r: &'static crate::dispatch::Registry<K>,
    isa: crate::isa::Isa,
) -> &'static K {
    r.for_isa(isa).unwrap_or_else(|| r.best())
}

/// Where `value` goes in a sorted stream of `n` values: after any equal
/// values, i.e. at the first index whose value is above it, found by
/// `seek(target)` (the first index whose value is `>= target`, with the
/// value; it also validates the stream as far as it reads).
pub(crate) fn insertion_index(
    n: usize,
    value: u32,
    seek: impl FnOnce(u32) -> Result<Option<(usize, u32)>, DecodeError>,
) -> Result<usize, DecodeError> {
    Ok(match seek(value.saturating_add(1))? {
        Some((i, _)) if value != u32::MAX => i,
        _ => n,
    })
}

/// The little-endian value of the `len <= 4` bytes at `pos` of `input`;
/// `None` if they are not all inside it. One 4-byte load and a mask when
/// four bytes are there, byte by byte near the end: the value read of the
/// scalar Stream VByte and VarInt-GB decoders and select / seek walks.
#[inline(always)]
pub(crate) fn read_le(input: &[u8], pos: usize, len: usize) -> Option<u32> {
    debug_assert!(len <= 4);
    if let Some(&[a, b, c, d]) = input.get(pos..pos + 4) {
        // Keep the low `len` bytes.
        let mask = (((1u64 << (8 * len)) - 1) & 0xFFFF_FFFF) as u32;
        return Some(u32::from_le_bytes([a, b, c, d]) & mask);
    }
    let bytes = input.get(pos..pos + len)?;
    let mut le = [0u8; 4];
    le[..len].copy_from_slice(bytes);
    Some(u32::from_le_bytes(le))
}

/// For a SIMD kernel's group of `len` bytes at `pos` of `data` near its end
/// (fewer than 16 bytes of `data` from `pos` on): the last 16 bytes of
/// `data` and how far to shift the group's shuffle indices to read it from
/// them (`pos - (data.len() - 16)`), if the group's bytes are all inside
/// `data`; `None` otherwise (or if `data` is shorter than 16 bytes).
///
/// As `data.len() - 16 < pos` and `pos + len <= data.len()`, the shifted
/// indices of the group's bytes stay below 16 and the 0x80 (zeroing)
/// entries at or above 0x80. (At `pos == data.len()` only a group of no
/// bytes fits: shift 16, every entry 0x80, which stays zeroing.)
#[cfg(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(crate) fn last16(data: &[u8], pos: usize, len: usize) -> Option<(&[u8; 16], u8)> {
    let end = data.len();
    if end < 16 || pos + len > end {
        return None;
    }
    let start = end - 16;
    debug_assert!(start < pos, "16 bytes remain at `pos`");
    Some((data[start..].first_chunk::<16>()?, (pos - start) as u8))
}

/// `OutputTooSmall` unless an output of `out_len` slots holds `n` values.
#[inline]
pub(crate) fn check_out(n: usize, out_len: usize) -> Result<(), DecodeError> {
    if out_len < n {
        return Err(DecodeError::new(
            DecodeErrorKind::OutputTooSmall,
            0,
            Some(out_len),
        ));
    }
    Ok(())
}

/// `EncodeError::OutputTooSmall` unless an output of `out_len` bytes holds
/// the encoding: at once when it holds `max` (the largest encoding of that
/// many values, `None` on overflow), else the exact size `needed()` decides,
/// computed out of line so that the common check inlines into the encoders.
#[inline]
pub(crate) fn check_room(
    out_len: usize,
    max: Option<usize>,
    needed: impl FnOnce() -> usize,
) -> Result<(), EncodeError> {
    if max.is_some_and(|m| out_len >= m) {
        return Ok(());
    }
    check_exact_room(out_len, needed)
}

/// [`check_room`] when the output is shorter than the largest encoding.
#[cold]
#[inline(never)]
fn check_exact_room(out_len: usize, needed: impl FnOnce() -> usize) -> Result<(), EncodeError> {
    let needed = needed();
    if out_len < needed {
        return Err(EncodeError::OutputTooSmall {
            needed,
            available: out_len,
        });
    }
    Ok(())
}

/// The plumbing of a handle `$T { k: &'static Kernels }` whose kernel set
/// has an `isa` field (Stream VByte, VarInt-GB, G8IU, SIMD-FOR), written
/// once: `Debug` (the ISA and the named format options, fields of the
/// kernel set), `Default` and [`KernelChoice`](crate::KernelChoice) (`best`
/// is `$best`), and `kernel_registry()`, the registry of the handle's
/// format options (`$reg` maps the kernel set to it), which
/// [`kernel_info!`] reads.
macro_rules! kernel_handle {
    ($T:ident { $($opt:ident),* }, best: $best:expr, registry: $reg:expr) => {
        impl $T {
            /// The kernel sets of this handle's format options.
            fn kernel_registry(&self) -> &'static $crate::dispatch::Registry<Kernels> {
                let reg: fn(&'static Kernels) -> &'static $crate::dispatch::Registry<Kernels> = $reg;
                reg(self.k)
            }
        }

        impl core::fmt::Debug for $T {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($T))
                    .field("isa", &self.k.isa)
                    $(.field(stringify!($opt), &self.k.$opt))*
                    .finish()
            }
        }

        impl Default for $T {
            fn default() -> Self {
                <Self as $crate::traits::KernelChoice>::best()
            }
        }

        impl $crate::traits::KernelChoice for $T {
            fn best() -> Self {
                $best
            }

            fn with_isa(&self, isa: $crate::isa::Isa) -> Option<Self> {
                self.kernel_registry().for_isa(isa).map(|k| $T { k })
            }
        }
    };
}
pub(crate) use kernel_handle;

/// The [`IntCodec`](crate::IntCodec) methods `isa`, `kernel_isas` and
/// `with_isa_dyn` of a handle with a kernel set `self.k`, an inherent
/// `kernel_registry()` (see [`kernel_handle!`]) and `KernelChoice`.
macro_rules! kernel_info {
    () => {
        fn isa(&self) -> $crate::isa::Isa {
            self.k.isa
        }

        fn kernel_isas(&self) -> ::alloc::vec::Vec<$crate::isa::Isa> {
            self.kernel_registry().enabled_isas()
        }

        fn with_isa_dyn(
            &self,
            isa: $crate::isa::Isa,
        ) -> Option<::alloc::boxed::Box<dyn $crate::traits::IntCodec>> {
            let codec = $crate::traits::KernelChoice::with_isa(self, isa)?;
            Some(::alloc::boxed::Box::new(codec))
        }
    };
}
pub(crate) use kernel_info;

/// [`SortedCodec`](crate::SortedCodec)'s `select` and `lower_bound`, their
/// signatures and `select`'s bound written once: `select` is `Ok(None)` for
/// `i >= n` (nothing read), else `$select`; `lower_bound` is
/// `$lower_bound`; optionally an `insert` (with its docs) overriding the
/// trait's default. Each body is given as `|codec, input, n, prev, i| expr`,
/// naming the handle and the arguments.
macro_rules! sorted_queries {
    (
        select: |$c:ident, $input:ident, $n:ident, $prev:ident, $i:ident| $select:expr,
        lower_bound: |$c2:ident, $input2:ident, $n2:ident, $prev2:ident, $key:ident|
            $lower_bound:expr,
        $(
            $(#[$doc:meta])*
            insert: |$c3:ident, $stream:ident, $n3:ident, $prev3:ident, $value:ident|
                $insert:expr,
        )?
    ) => {
        fn select(
            &self,
            $input: &[u8],
            $n: usize,
            $prev: u32,
            $i: usize,
        ) -> Result<Option<u32>, $crate::error::DecodeError> {
            if $i >= $n {
                return Ok(None);
            }
            let $c = self;
            $select
        }

        fn lower_bound(
            &self,
            $input2: &[u8],
            $n2: usize,
            $prev2: u32,
            $key: u32,
        ) -> Result<Option<(usize, u32)>, $crate::error::DecodeError> {
            let $c2 = self;
            $lower_bound
        }

        $(
            $(#[$doc])*
            fn insert(
                &self,
                $stream: &mut ::alloc::vec::Vec<u8>,
                $n3: usize,
                $prev3: u32,
                $value: u32,
            ) -> Result<usize, $crate::error::DecodeError> {
                let $c3 = self;
                $insert
            }
        )?
    };
}
pub(crate) use sorted_queries;

/// [`sorted_queries!`] of a handle whose kernel set holds `select_delta` and
/// `seek_delta`, called on the whole stream as `(input, n, prev, i)` and
/// `(input, n, prev, target)` (VByte, VarInt-GB): one kernel call each;
/// the rest (an `insert`) is passed on to [`sorted_queries!`].
macro_rules! delta_seek {
    ($($insert:tt)*) => {
        $crate::codec::sorted_queries! {
            select: |codec, input, n, prev, i| {
                // SAFETY: the handle's kernel set came from a registry, so
                // this CPU has its ISA (`crate::dispatch`); checked kernels
                // read only inside `input`.
                unsafe { (codec.k.select_delta)(input, n, prev, i) }.map(Some)
            },
            lower_bound: |codec, input, n, prev, target| {
                // SAFETY: as in `select`.
                unsafe { (codec.k.seek_delta)(input, n, prev, target) }
            },
            $($insert)*
        }
    };
}
pub(crate) use delta_seek;

/// `(plain, 0)` for the plain form of a coder (`prev` is `None`), else
/// `(delta, prev)`: which of a kernel set's two entries to call, and with
/// what `prev`. Folds away where `prev` is known.
#[inline(always)]
pub(crate) fn plain_or_delta<F>(prev: Option<u32>, plain: F, delta: F) -> (F, u32) {
    match prev {
        None => (plain, 0),
        Some(prev) => (delta, prev),
    }
}

/// The [`IntCodec`](crate::IntCodec) sizes and encoders, each plain and
/// delta pair written once over one body in which `prev` is an
/// `Option<u32>`: `None` in `compressed_len` and `encode`, `Some(prev)` in
/// `compressed_len_delta` and `encode_delta`. The bodies are given as
/// `|codec, values, prev| expr` (the exact size) and
/// `|codec, values, prev, out| expr` (the encoder), naming the handle and
/// the arguments.
macro_rules! encoders {
    (
        len: |$lc:ident, $lvalues:ident, $lprev:ident| $len:expr,
        encode: |$c:ident, $values:ident, $prev:ident, $out:ident| $encode:expr $(,)?
    ) => {
        fn compressed_len(&self, $lvalues: &[u32]) -> usize {
            let ($lc, $lprev) = (self, None::<u32>);
            $len
        }

        fn compressed_len_delta(&self, $lvalues: &[u32], $lprev: u32) -> usize {
            let ($lc, $lprev) = (self, Some($lprev));
            $len
        }

        #[inline]
        fn encode(
            &self,
            $values: &[u32],
            $out: &mut [u8],
        ) -> Result<usize, $crate::error::EncodeError> {
            let ($c, $prev) = (self, None::<u32>);
            $encode
        }

        #[inline]
        fn encode_delta(
            &self,
            $values: &[u32],
            $prev: u32,
            $out: &mut [u8],
        ) -> Result<usize, $crate::error::EncodeError> {
            let ($c, $prev) = (self, Some($prev));
            $encode
        }
    };
}
pub(crate) use encoders;

/// The [`IntCodec`](crate::IntCodec) decoders `decode` and `decode_delta`
/// (`checked`), or `decode_unchecked` and `decode_delta_unchecked`
/// (`unchecked`, whose body must uphold their contract), each pair written
/// once over one body `|codec, input, n, prev, out| expr` in which `prev` is
/// `None` for the plain form and `Some(prev)` for the delta form.
macro_rules! decoders {
    (checked: $($body:tt)*) => {
        $crate::codec::decoders!(@pair [#[inline]] decode, decode_delta,
            Result<usize, $crate::error::DecodeError>, $($body)*);
    };
    (unchecked: $($body:tt)*) => {
        $crate::codec::decoders!(@pair [unsafe] decode_unchecked, decode_delta_unchecked,
            usize, $($body)*);
    };
    (
        @pair [$($head:tt)*] $plain:ident, $delta:ident, $ret:ty,
        |$c:ident, $input:ident, $n:ident, $prev:ident, $out:ident| $body:expr
    ) => {
        $($head)* fn $plain(&self, $input: &[u8], $n: usize, $out: &mut [u32]) -> $ret {
            let ($c, $prev) = (self, None::<u32>);
            $body
        }

        $($head)* fn $delta(
            &self,
            $input: &[u8],
            $n: usize,
            $prev: u32,
            $out: &mut [u32],
        ) -> $ret {
            let ($c, $prev) = (self, Some($prev));
            $body
        }
    };
}
pub(crate) use decoders;

/// `decode_unchecked` and `decode_delta_unchecked` of a codec whose checked
/// decoders are its fastest: they run `decode` / `decode_delta` (and panic
/// on a stream that breaks the contract).
macro_rules! checked_as_unchecked {
    () => {
        $crate::codec::decoders!(unchecked: |codec, input, n, prev, out| {
            $crate::IntCodec::decode_opt(codec, input, n, prev, out)
                .expect("the caller guarantees a valid stream")
        });
    };
}
pub(crate) use checked_as_unchecked;

/// The [`IntCodec`](crate::IntCodec) sizes and encoders of a handle whose
/// kernel set holds `encode` and `encode_delta`, each called as `(values,
/// prev, out)` (Stream VByte, VarInt-GB, G8IU): written once. The handle
/// provides `self.compressed_len_from(values, prev: Option<u32>)`, the exact
/// encoded size (delta-coded from `prev` when `Some`); the kernels need an
/// output of that size, checked by [`check_room`].
macro_rules! kernel_encoders {
    () => {
        $crate::codec::encoders! {
            len: |codec, values, prev| codec.compressed_len_from(values, prev),
            encode: |codec, values, prev, out| {
                let max = codec.max_compressed_len(values.len());
                let needed = || codec.compressed_len_from(values, prev);
                $crate::codec::check_room(out.len(), max, needed)?;
                let k = codec.k;
                let (encode, prev) = $crate::codec::plain_or_delta(prev, k.encode, k.encode_delta);
                // SAFETY: the kernel's ISA is supported (it came from a
                // registry) and `out` holds the encoded length (`check_room`).
                Ok(unsafe { encode(values, prev, out) })
            },
        }
    };
}
pub(crate) use kernel_encoders;

/// The [`IntCodec`](crate::IntCodec) decoders of a handle `{ k: &'static
/// Kernels }` whose kernel set holds `decode`, `decode_delta`,
/// `decode_unchecked` and `decode_delta_unchecked`, each called as
/// `(input, &mut out[..n], prev)` (Stream VByte, VByte, VarInt-GB, G8IU):
/// written once. The handle provides `Self::decode_args(input, n, out_len)`
/// (the checks before a checked kernel runs: at least `check_out`) and
/// `self.vec_for(input, n)` (a zeroed `Vec` of `n` values, allocated only
/// once the input is known to be able to hold them, else decoding's error),
/// which the allocating decoders (`decode_to_vec`, ...) use.
///
/// `kernel_decoders!(first: f)` runs `f(codec, input, n, prev, out)` before
/// the checked kernel: a short-list path that returns `Some` result when it
/// decoded the list itself (and `None` to leave it to the kernel), for
/// lists so short that the kernel's call costs more than the decode.
macro_rules! kernel_decoders {
    () => {
        $crate::codec::kernel_decoders!(@with);
    };
    (first: $first:path) => {
        $crate::codec::kernel_decoders!(@with $first);
    };
    (@with $($first:path)?) => {
        $crate::codec::decoders!(checked: |codec, input, n, prev, out| {
            $(if let Some(r) = $first(codec, input, n, prev, out) {
                return r;
            })?
            Self::decode_args(input, n, out.len())?;
            let k = codec.k;
            let (decode, prev) = $crate::codec::plain_or_delta(prev, k.decode, k.decode_delta);
            // SAFETY: the kernel's ISA is supported (it came from a
            // registry); `out` has `n` slots (`decode_args`); checked kernels
            // read only inside `input` and write only inside `out[..n]`.
            unsafe { decode(input, &mut out[..n], prev) }
        });

        $crate::codec::decoders!(unchecked: |codec, input, n, prev, out| {
            debug_assert!(out.len() >= n);
            let out = &mut out[..n];
            let k = codec.k;
            let (decode, prev) =
                $crate::codec::plain_or_delta(prev, k.decode_unchecked, k.decode_delta_unchecked);
            // SAFETY: the caller guarantees a valid stream of `n` values
            // followed by `unchecked_padding()` bytes; `out` has `n` slots;
            // the kernel's ISA is supported (registry).
            unsafe { decode(input, out, prev) }
        });

        /// The output of the allocating decoders: `self.vec_for(input, n)`.
        fn alloc_decoded(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
            self.vec_for(input, n)
        }
    };
}
pub(crate) use kernel_decoders;
