//! BP128, FOR and SIMD-FOR specifics for the `bp128_*` and `for_*` targets.

use intcodec::bp128::{kernel_isas, Bp128, Delta, Layout};
use intcodec::frame_of_reference::SimdFor;
use intcodec::Isa;
use std::sync::OnceLock;

/// The most values a BP128 array holds per byte: a width-0 block of the 8x
/// layout is one byte for 256 values.
pub const DENSITY: usize = 256;

/// FOR / SIMD-FOR hold any count in 5 bytes at width 0; this only bounds the
/// capacities `DecodeCase` draws.
pub const FOR_DENSITY: usize = 64;

/// The layout bit 0 of a [`crate::DecodeCase`] selects.
pub fn layout(bit: bool) -> Layout {
    if bit {
        Layout::Lanes8
    } else {
        Layout::Lanes4
    }
}

/// The delta mode from the delta bit and the extra bits.
pub fn delta(delta: bool, extra: u8) -> Delta {
    match (delta, extra & 1) {
        (false, _) => Delta::None,
        (true, 0) => Delta::D1,
        (true, _) => Delta::Lane,
    }
}

/// Every BP128 kernel this CPU and the `INTCODEC_ISA` cap allow, scalar first.
pub fn kernels(layout: Layout) -> &'static [Bp128] {
    static SETS: [OnceLock<Vec<Bp128>>; 2] = [OnceLock::new(), OnceLock::new()];
    SETS[layout as usize].get_or_init(|| {
        let ks: Vec<Bp128> = Isa::ALL
            .into_iter()
            .filter_map(|isa| Bp128::with_isa(isa, layout))
            .collect();
        let expected = kernel_isas().filter(|isa| isa.is_enabled()).count();
        assert_eq!(ks.len(), expected, "kernels built vs enabled");
        assert_eq!(ks[0].isa(), Isa::Scalar);
        ks
    })
}

/// Every SIMD-FOR kernel, scalar first.
pub fn simd_for_kernels() -> &'static [SimdFor] {
    static SET: OnceLock<Vec<SimdFor>> = OnceLock::new();
    SET.get_or_init(|| {
        let ks: Vec<SimdFor> = Isa::ALL.into_iter().filter_map(SimdFor::with_isa).collect();
        let expected = kernel_isas().filter(|isa| isa.is_enabled()).count();
        assert_eq!(ks.len(), expected, "kernels built vs enabled");
        assert_eq!(ks[0].isa(), Isa::Scalar);
        ks
    })
}
