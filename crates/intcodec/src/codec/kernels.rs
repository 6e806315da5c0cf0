//! Glue shared by the kernels of several byte-oriented families (Stream
//! VByte, VarInt-GB, VarInt-G8IU) on every ISA, written once: the decode
//! loop's signature and the checked and unchecked decode entry points
//! around it, and the position of a decode, select or seek scan.

/// Where a scan over a stream stands: the next value `i`, the byte offset
/// `pos` of its data, and the running value `acc` (delta: the value before
/// `i`; plain decode or select: unused).
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    pub(crate) i: usize,
    pub(crate) pos: usize,
    pub(crate) acc: u32,
}

impl At {
    /// At the first value, whose data begins at byte `pos`, with `acc`
    /// the value before it (delta: the stream's `prev`).
    pub(crate) const fn start(pos: usize, acc: u32) -> Self {
        At { i: 0, pos, acc }
    }
}

/// A kernel set's decode loop and its checked `decode` and
/// `decode_unchecked` entry points, generic over `<$g: $bound, ..>` and
/// `DELTA` and enabled for `$features`: the signature written once, each
/// kernel giving only the loop's docs (with its `# Safety` section) and body
/// (`decode_loop: |input, out, prev| { .. }`).
///
/// The loop is `unsafe fn decode_loop::<$g.., DELTA, CHECKED>(input, out,
/// prev) -> Result<usize, DecodeError>`, `#[inline]` in the same
/// `target_feature` context; the checked decode runs it with `CHECKED =
/// true` (no precondition beyond those the handle validated), the unchecked
/// one with `CHECKED = false` (a trusted stream). With `short`, the checked
/// decode first offers the list to that closure (`|input, out, prev|`,
/// `Some(bytes used)` when it decoded the list itself).
macro_rules! decode_entry_points {
    (
        $features:literal, <$($g:ident: $bound:path),*>,
        $(short: $short:expr,)?
        $(#[$doc:meta])*
        decode_loop: |$input:ident, $out:ident, $prev:ident| $body:block $(,)?
    ) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn decode_loop<$($g: $bound,)* const DELTA: bool, const CHECKED: bool>(
            $input: &[u8],
            $out: &mut [u32],
            $prev: u32,
        ) -> Result<usize, $crate::error::DecodeError> $body

        /// Checked decode: see [`Kernels`](super::super::Kernels).
        #[target_feature(enable = $features)]
        fn decode<$($g: $bound,)* const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, $crate::error::DecodeError> {
            $(
                if let Some(used) = ($short)(input, &mut *out, prev) {
                    return Ok(used);
                }
            )?
            // SAFETY: CHECKED = true has no precondition beyond those the
            // handle validated (Stream VByte: the control-byte length).
            unsafe { decode_loop::<$($g,)* DELTA, true>(input, out, prev) }
        }

        /// Unchecked decode of trusted input.
        ///
        /// # Safety
        /// `input` holds a valid stream of `out.len()` values, plus the
        /// family's `PADDING` bytes where it has that constant.
        #[target_feature(enable = $features)]
        unsafe fn decode_unchecked<$($g: $bound,)* const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> usize {
            // SAFETY: forwarded from the caller.
            let r = unsafe { decode_loop::<$($g,)* DELTA, false>(input, out, prev) };
            r.unwrap_or(0)
        }
    };
}

pub(crate) use decode_entry_points;
