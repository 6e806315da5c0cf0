//! Single-value varint (`intcodec::varint`) specifics for `varint_decode`:
//! the kernels, and an independent byte-at-a-time reference decoder.

use intcodec::varint::{enabled_kernels, Kernel, Varint, Word};
use intcodec::DecodeErrorKind;
use std::sync::OnceLock;

/// Every varint kernel this CPU and the `INTCODEC_ISA` cap allow, scalar
/// first.
pub fn kernels() -> &'static [Varint] {
    static SET: OnceLock<Vec<Varint>> = OnceLock::new();
    SET.get_or_init(|| {
        let ks: Vec<Varint> = enabled_kernels().collect();
        let expected = Kernel::ALL.iter().filter(|k| k.is_enabled()).count();
        assert_eq!(ks.len(), expected, "kernels built vs enabled");
        assert_eq!(ks[0].kernel(), Kernel::Scalar);
        ks
    })
}

/// The decoding rules, one byte at a time (written apart from the crate's
/// own reference): value and length, or the error kind.
pub fn reference<T: Word>(input: &[u8]) -> Result<(u64, usize), DecodeErrorKind> {
    let mut v = 0u64;
    for (k, &b) in input.iter().enumerate().take(T::MAX_BYTES) {
        let last = k == T::MAX_BYTES - 1;
        if last && b & 0x80 != 0 {
            return Err(DecodeErrorKind::Overlong);
        }
        if last && b > T::LAST {
            return Err(DecodeErrorKind::Overflow);
        }
        v |= u64::from(b & 0x7F) << (7 * k);
        if b & 0x80 == 0 {
            return Ok((v, k + 1));
        }
    }
    Err(DecodeErrorKind::Truncated)
}
