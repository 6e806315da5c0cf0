//! Helpers shared by the integration tests (`mod common;`).

/// `bytes` in a buffer of exactly that length plus `pad` bytes of 0xEE: the
/// allocation ends where the input ends, so Miri and the sanitizers see a
/// read one byte past it.
pub(crate) fn exact(bytes: &[u8], pad: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(bytes.len() + pad);
    v.extend_from_slice(bytes);
    v.resize(bytes.len() + pad, 0xEE);
    v
}
