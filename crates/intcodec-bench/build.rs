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
use std::path::PathBuf;
use std::process::Command;

fn main() {
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
            for var in [
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
            ] {
                cmd.env_remove(var);
            }
            cmd.env("CARGO_ENCODED_RUSTFLAGS", flags);
            match cmd.status() {
                Ok(s) if s.success() => {
                    let so = dir.join("release").join("libvarint_simd_peer.so");
                    if so.exists() {
                        path = so.display().to_string();
                    } else {
                        println!(
                            "cargo:warning=varint-simd peer ({name}): {} missing",
                            so.display()
                        );
                    }
                }
                Ok(s) => println!("cargo:warning=varint-simd peer ({name}) build failed: {s}"),
                Err(e) => {
                    println!("cargo:warning=varint-simd peer ({name}): cannot run cargo: {e}")
                }
            }
        } else {
            println!(
                "cargo:warning=varint-simd peer ({name}): only built for a native x86-64 target"
            );
        }
        println!("cargo:rustc-env=VARINT_SIMD_PEER_{name}={path}");
    }
}
