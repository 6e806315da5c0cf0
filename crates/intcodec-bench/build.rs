//! Builds the varint-simd peer (`peer-varint-simd/`, its own workspace) as
//! a cdylib twice, with its own compiler flags, when the feature
//! `peer-varint-simd-builds` is on:
//!
//! - `+ssse3`: `-C target-feature=+ssse3`, the least varint-simd 0.4.1
//!   needs for its SIMD paths and its multi-value decoders;
//! - `native`: `-C target-cpu=native` and its `native-optimizations`
//!   feature (what its README recommends for speed).
//!
//! Our crates keep their own flags (run-time dispatch, never
//! `target-cpu=native`). The paths reach the `varint` suite through
//! `VARINT_SIMD_PEER_SSSE3` / `_NATIVE` (empty when a build failed: the
//! suite then says so in its report). The nested cargo gets a target
//! directory under OUT_DIR and none of the outer build's flag variables.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    svb_rust_peer();
    println!("cargo:rerun-if-changed=peer-varint-simd/src/lib.rs");
    println!("cargo:rerun-if-changed=peer-varint-simd/Cargo.toml");
    println!("cargo:rerun-if-changed=peer-varint-simd/Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_PEER_VARINT_SIMD_BUILDS").is_none() {
        return;
    }
    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let same_host = env::var("TARGET").ok() == env::var("HOST").ok();
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap())
        .join("peer-varint-simd")
        .join("Cargo.toml");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    for (name, flags, features) in [
        ("SSSE3", "-Ctarget-feature=+ssse3", None),
        ("NATIVE", "-Ctarget-cpu=native", Some("native")),
    ] {
        let mut path = String::new();
        if x86_64 && same_host {
            let dir = out.join(format!("varint-simd-{}", name.to_lowercase()));
            let mut cmd = Command::new(&cargo);
            cmd.args(["build", "--release", "--locked", "--manifest-path"])
                .arg(&manifest)
                .arg("--target-dir")
                .arg(&dir);
            if let Some(f) = features {
                cmd.args(["--features", f]);
            }
            path = build_cdylib(
                cmd,
                &[NESTED_ENV_REMOVE],
                flags,
                &dir,
                "libvarint_simd_peer.so",
                &format!("varint-simd peer ({name})"),
            );
        } else {
            println!(
                "cargo:warning=varint-simd peer ({name}): only built for a native x86-64 target"
            );
        }
        println!("cargo:rustc-env=VARINT_SIMD_PEER_{name}={path}");
    }
}

/// The environment variables of this build that must not reach a nested
/// cargo (flags, wrappers, target directory, jobserver).
const NESTED_ENV_REMOVE: &[&str] = &[
    "RUSTFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET",
    "CARGO_BUILD_RUSTFLAGS",
    "CARGO_PROFILE_RELEASE_DEBUG",
    "CARGO_MAKEFLAGS",
    "MAKEFLAGS",
    "MFLAGS",
];

/// For a nested build with another toolchain, also the variables that name
/// this build's compiler and toolchain.
const OTHER_TOOLCHAIN_ENV_REMOVE: &[&str] = &[
    "RUSTC",
    "RUSTDOC",
    "RUSTC_LINKER",
    "CARGO",
    "RUSTUP_TOOLCHAIN",
];

/// Runs the nested `cmd` (a release build of a peer cdylib into `dir`)
/// without the variables in `remove` and with `rustflags`; returns the path
/// of `dir/release/<lib>`, or "" after a cargo warning naming `what`.
fn build_cdylib(
    mut cmd: Command,
    remove: &[&[&str]],
    rustflags: &str,
    dir: &Path,
    lib: &str,
    what: &str,
) -> String {
    for var in remove.iter().flat_map(|r| r.iter()) {
        cmd.env_remove(var);
    }
    cmd.env("CARGO_ENCODED_RUSTFLAGS", rustflags);
    match cmd.status() {
        Ok(s) if s.success() => {
            let so = dir.join("release").join(lib);
            if so.exists() {
                return so.display().to_string();
            }
            println!("cargo:warning={what}: {} missing", so.display());
        }
        Ok(s) => println!("cargo:warning={what}: build failed: {s}"),
        Err(e) => println!("cargo:warning={what}: cannot run the build: {e}"),
    }
    String::new()
}

/// Builds the Rust Stream VByte peers (`peer-svb-rust/`, its own workspace:
/// the `stream-vbyte` and `streamvbyte64` crates) as a cdylib with nightly
/// (`rustup run nightly cargo`; stream-vbyte's SIMD needs `portable_simd`)
/// and `-C target-feature=+ssse3,+sse4.1`, when the feature
/// `peer-stream-vbyte` or `peer-streamvbyte64` is on. Its path reaches the
/// `postings` suite through `SVB_RUST_PEER` (empty when the build failed or
/// nightly is missing: the suite then says so in its report).
fn svb_rust_peer() {
    println!("cargo:rerun-if-changed=peer-svb-rust/src/lib.rs");
    println!("cargo:rerun-if-changed=peer-svb-rust/Cargo.toml");
    println!("cargo:rerun-if-changed=peer-svb-rust/Cargo.lock");
    if env::var_os("CARGO_FEATURE_PEER_STREAM_VBYTE").is_none()
        && env::var_os("CARGO_FEATURE_PEER_STREAMVBYTE64").is_none()
    {
        return;
    }
    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let same_host = env::var("TARGET").ok() == env::var("HOST").ok();
    let mut path = String::new();
    if !(x86_64 && same_host) {
        println!(
            "cargo:warning=stream-vbyte/streamvbyte64 peers: only built for a native x86-64 target"
        );
    } else if !Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        println!(
            "cargo:warning=stream-vbyte/streamvbyte64 peers not built: no nightly toolchain \
             (scripts/deps.sh installs it: rustup toolchain install nightly --profile minimal)"
        );
    } else {
        let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap())
            .join("peer-svb-rust")
            .join("Cargo.toml");
        let dir = PathBuf::from(env::var("OUT_DIR").unwrap()).join("svb-rust-peer");
        let mut cmd = Command::new("rustup");
        cmd.args(["run", "nightly", "cargo", "build", "--release", "--locked"])
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&dir);
        path = build_cdylib(
            cmd,
            &[NESTED_ENV_REMOVE, OTHER_TOOLCHAIN_ENV_REMOVE],
            "-Ctarget-feature=+ssse3,+sse4.1",
            &dir,
            "libsvb_rust_peer.so",
            "stream-vbyte/streamvbyte64 peers",
        );
    }
    println!("cargo:rustc-env=SVB_RUST_PEER={path}");
}
