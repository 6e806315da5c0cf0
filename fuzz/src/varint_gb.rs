//! VarInt-GB specifics for the `gb_*` targets.

use intcodec::varint_gb::{Layout, VarIntGb};
use std::sync::OnceLock;

/// The most values a VarInt-GB stream holds per byte, rounded up: a full
/// block is at least 5 bytes for 4 values, a Lucene tail vint or a partial
/// low-first block at least one byte per value. For
/// [`crate::DecodeCase::split`].
pub const DENSITY: usize = 1;

/// The layout flag bit 0 of a [`crate::DecodeCase`] selects.
pub fn layout(bit: bool) -> Layout {
    [Layout::LowFirst, Layout::Lucene][usize::from(bit)]
}

/// Every VarInt-GB kernel this CPU and the `INTCODEC_ISA` cap allow, for
/// `layout`, scalar (the reference) first. Panics if one that should exist
/// cannot be built.
pub fn kernels(layout: Layout) -> &'static [VarIntGb] {
    static SETS: [OnceLock<Vec<VarIntGb>>; 2] = [OnceLock::new(), OnceLock::new()];
    SETS[layout as usize].get_or_init(|| build(layout))
}

fn build(layout: Layout) -> Vec<VarIntGb> {
    let ks = crate::kernel_set(VarIntGb::new().with_layout(layout));
    assert!(ks.iter().all(|k| k.layout() == layout));
    ks
}
