//! VarInt-G8IU specifics for the `g8iu_*` targets (the intcodec dependency
//! enables the `g8iu` feature, see `Cargo.toml`).

use intcodec::varint_g8iu::VarIntG8iu;
use intcodec::{IntCodec, Isa, KernelChoice};
use std::sync::OnceLock;

/// The most values a VarInt-G8IU stream holds per byte, rounded up (8 per
/// 9-byte block), for [`crate::DecodeCase::split`].
pub const DENSITY: usize = 1;

/// Every VarInt-G8IU kernel this CPU and the `INTCODEC_ISA` cap allow,
/// scalar (the reference) first. Panics if one that should exist cannot be
/// built.
pub fn kernels() -> &'static [VarIntG8iu] {
    static SET: OnceLock<Vec<VarIntG8iu>> = OnceLock::new();
    SET.get_or_init(|| {
        let ks: Vec<VarIntG8iu> = Isa::ALL
            .into_iter()
            .filter_map(|isa| VarIntG8iu::new().with_isa(isa))
            .collect();
        let expected = VarIntG8iu::new().kernel_isas().len();
        assert_eq!(ks.len(), expected, "kernels built vs enabled");
        assert_eq!(ks[0].isa(), Isa::Scalar);
        ks
    })
}
