//! What several peer adapters share: the kernel column of a pure Rust peer
//! that picks its SIMD path at run time, and their argument checks.

/// Kernel column of a pure Rust peer whose crate picks its SIMD path at run
/// time: `rust-avx2` on a CPU with AVX2, else `rust-ssse3` when the crate
/// has an SSSE3 path (`ssse3`) and the CPU SSSE3, else `rust-scalar`.
pub(crate) fn rust_simd_kernel(ssse3: bool) -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return "rust-avx2";
        }
        if ssse3 && std::arch::is_x86_feature_detected!("ssse3") {
            return "rust-ssse3";
        }
    }
    let _ = ssse3; // Unused off x86-64.
    "rust-scalar"
}

/// A peer's refusal of a delta call (`delta` is `Some`) when its crate has
/// no delta coding (its [`crate::measure::Codec::supports`] says so).
#[inline]
pub(crate) fn plain_only(who: &str, delta: Option<u32>) -> Result<(), String> {
    match delta {
        None => Ok(()),
        Some(_) => Err(format!(
            "{who}: unsupported (the crate has no delta coding)"
        )),
    }
}

/// The first `n` elements of a peer's output buffer `out` (the values a
/// decoder writes, or the bytes an encoder writes), or `who`'s error when
/// it holds fewer.
#[inline]
pub(crate) fn room<'a, T>(who: &str, out: &'a mut [T], n: usize) -> Result<&'a mut [T], String> {
    let len = out.len();
    out.get_mut(..n)
        .ok_or_else(|| format!("{who}: output holds {len}, needs {n}"))
}
