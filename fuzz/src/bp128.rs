//! BP128, FOR and SIMD-FOR specifics for the `bp128_*` and `for_*` targets.

use intcodec::bp128::{Bp128, DeltaMode, Layout, SortedArray};
use intcodec::frame_of_reference::SimdFor;
use intcodec::{DecodeError, IntCodec, KernelChoice};
use std::sync::OnceLock;

/// The most values a BP128 array holds per byte: a width-0 block of the 16x
/// layout is one byte for 512 values.
pub const DENSITY: usize = 512;

/// FOR / SIMD-FOR hold any count in 5 bytes at width 0; this only bounds the
/// capacities `DecodeCase` draws.
pub const FOR_DENSITY: usize = 64;

/// The layout two flag bits select: 16x if `x16`, else 8x if `x8` (bit 0
/// of a [`crate::DecodeCase`] and bit 1 of its `extra`), else 4x.
pub fn layout(x8: bool, x16: bool) -> Layout {
    match (x8, x16) {
        (_, true) => Layout::Lanes16,
        (true, false) => Layout::Lanes8,
        (false, false) => Layout::Lanes4,
    }
}

/// The coding of an array: plain (`None`, `encode`) or a delta mode (the
/// handle's, for `encode_delta`).
pub type Delta = Option<DeltaMode>;

/// The delta mode from the delta bit and the extra bits.
pub fn delta(delta: bool, extra: u8) -> Delta {
    match (delta, extra & 1) {
        (false, _) => None,
        (true, 0) => Some(DeltaMode::D1),
        (true, _) => Some(DeltaMode::Lane),
    }
}

/// `k` in the delta mode of `d` (D1 for plain).
pub fn in_mode(k: Bp128, d: Delta) -> Bp128 {
    k.with_delta(d.unwrap_or_default())
}

/// `compressed_len` or `compressed_len_delta`.
pub fn compressed_len(k: Bp128, values: &[u32], d: Delta, prev: u32) -> usize {
    match d {
        None => k.compressed_len(values),
        Some(_) => in_mode(k, d).compressed_len_delta(values, prev),
    }
}

/// A `SortedArray` of `values` coded as `d`.
pub fn sorted_array(k: Bp128, d: Delta, values: &[u32]) -> SortedArray {
    match d {
        None => SortedArray::new_plain(k, values),
        Some(_) => SortedArray::new(in_mode(k, d), values),
    }
}

/// `SortedArray::from_encoded` (or `_plain`) for `d`.
pub fn sorted_from_encoded(
    k: Bp128,
    d: Delta,
    bytes: Vec<u8>,
    n: usize,
) -> Result<SortedArray, DecodeError> {
    match d {
        None => SortedArray::from_encoded_plain(k, bytes, n),
        Some(_) => SortedArray::from_encoded(in_mode(k, d), bytes, n),
    }
}

/// Every BP128 kernel this CPU and the `INTCODEC_ISA` cap allow, scalar first.
pub fn kernels(layout: Layout) -> &'static [Bp128] {
    static SETS: [OnceLock<Vec<Bp128>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    SETS[layout as usize].get_or_init(|| crate::kernel_set(Bp128::new(layout)))
}

/// Every SIMD-FOR kernel, scalar first.
pub fn simd_for_kernels() -> &'static [SimdFor] {
    static SET: OnceLock<Vec<SimdFor>> = OnceLock::new();
    SET.get_or_init(|| crate::kernel_set(SimdFor::best()))
}
