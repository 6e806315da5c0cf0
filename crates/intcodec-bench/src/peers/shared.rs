//! What several peer adapters share: the kernel column of a pure Rust peer
//! that picks its SIMD path at run time.

/// Kernel column of a pure Rust peer whose crate picks its SIMD path at run
/// time: `rust-avx2` on a CPU with AVX2, else `rust-ssse3` when the crate
/// has an SSSE3 path (`ssse3`) and the CPU SSSE3, else `rust-scalar`.
pub(crate) fn rust_simd_kernel(ssse3: bool) -> String {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return "rust-avx2".to_string();
        }
        if ssse3 && std::arch::is_x86_feature_detected!("ssse3") {
            return "rust-ssse3".to_string();
        }
    }
    let _ = ssse3; // Unused off x86-64.
    "rust-scalar".to_string()
}
