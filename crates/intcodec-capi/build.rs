//! Gives the shared library the SONAME it is installed under, so programs
//! linked with `-lintcodec` record `libintcodec.so.0`.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libintcodec.so.0");
    }
}
