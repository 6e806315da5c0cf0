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
    c_peers();
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

/// Builds the C/C++ peers with the `cc` crate, no CMake: lemire/streamvbyte
/// (the C sources `streamvbyte-sys` vendors; feature `peer-streamvbyte`) and
/// FastPFor's C++ (vendored by the `fastpfor` crate: MaskedVByte's decoder
/// `varintdecode.c`, `simdbitpacking.cpp`, and through `peer-c/shim.cpp` the
/// header-only VarIntGB, VarIntG8IU (feature `g8iu`), SIMDBinaryPacking and
/// VariableByte; feature `peer-fastpfor-cpp`), with the shim, into one
/// static library, at -O3 -march=native (what their CMake builds use on a
/// native build: the best kernels for this CPU, as a native user gets).
///
/// The sources are the registry copies of those crates, found by `cargo
/// metadata` on `peer-c/Cargo.toml` (which also fetches them when missing;
/// never built), else under `$CARGO_HOME/registry/src`. On x86-64 FastPFor
/// needs no SIMDe (only its ARM path does). Whatever is missing or fails is
/// left out with a cargo warning; the report then names it
/// (`INTCODEC_PEER_C_NOTE`). Sets the cfgs `intcodec_lemire_svb` and
/// `intcodec_fastpfor_cpp` for what was built.
fn c_peers() {
    println!("cargo::rustc-check-cfg=cfg(intcodec_lemire_svb)");
    println!("cargo::rustc-check-cfg=cfg(intcodec_fastpfor_cpp)");
    println!("cargo:rerun-if-changed=peer-c/shim.cpp");
    println!("cargo:rerun-if-changed=peer-c/Cargo.toml");
    println!("cargo:rerun-if-changed=peer-c/Cargo.lock");
    let want_svb = env::var_os("CARGO_FEATURE_PEER_STREAMVBYTE").is_some();
    let want_fp = env::var_os("CARGO_FEATURE_PEER_FASTPFOR_CPP").is_some();
    if !want_svb && !want_fp {
        return;
    }
    let note = c_peers_build(want_svb, want_fp);
    println!("cargo:rustc-env=INTCODEC_PEER_C_NOTE={note}");
}

/// Versions of the crates whose vendored sources are compiled (as pinned in
/// `peer-c/Cargo.toml`).
#[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
const FASTPFOR_CRATE: &str = "fastpfor-0.9.1";
#[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
const SVB_SYS_CRATE: &str = "streamvbyte-sys-0.1.0";

#[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
fn c_peers_build(want_svb: bool, want_fp: bool) -> String {
    let mut notes: Vec<String> = Vec::new();
    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let same_host = env::var("TARGET").ok() == env::var("HOST").ok();
    if !(x86_64 && same_host) {
        println!("cargo:warning=C/C++ peers: only built for a native x86-64 target");
        return "C/C++ peers not built: only for a native x86-64 target".into();
    }
    let dirs = crate_dirs();
    let find = |name: &str| -> Option<PathBuf> {
        let d = dirs.iter().find(|d| d.ends_with(name)).cloned();
        if d.is_none() {
            println!("cargo:warning=C/C++ peers: no registry copy of {name} found");
        }
        d
    };
    let svb = if want_svb { find(SVB_SYS_CRATE) } else { None };
    let fp = if want_fp { find(FASTPFOR_CRATE) } else { None };
    if want_svb && svb.is_none() {
        notes.push(format!(
            "lemire/streamvbyte not built: no copy of {SVB_SYS_CRATE}"
        ));
    }
    if want_fp && fp.is_none() {
        notes.push(format!(
            "FastPFor C++ not built: no copy of {FASTPFOR_CRATE}"
        ));
    }
    if svb.is_none() && fp.is_none() {
        return notes.join("; ");
    }
    let g8iu = env::var_os("CARGO_FEATURE_G8IU").is_some();
    let flags = ["-O3", "-march=native"];
    let base = |b: &mut cc::Build| {
        b.opt_level(3)
            .debug(false)
            .warnings(false)
            .cargo_warnings(false);
        for f in flags {
            b.flag(f);
        }
    };
    // The C sources.
    let mut c = cc::Build::new();
    base(&mut c);
    c.std("c99");
    if let Some(d) = &svb {
        let root = d.join("external").join("streamvbyte");
        c.include(root.join("include"));
        for f in [
            "streamvbyte_encode.c",
            "streamvbyte_decode.c",
            "streamvbytedelta_encode.c",
            "streamvbytedelta_decode.c",
        ] {
            c.file(root.join("src").join(f));
        }
    }
    if let Some(d) = &fp {
        c.file(d.join("cpp").join("src").join("varintdecode.c"));
    }
    let objects = match c.try_compile_intermediates() {
        Ok(o) => o,
        Err(e) => {
            println!("cargo:warning=C/C++ peers: C build failed: {e}");
            return format!("C/C++ peers not built: the C build failed: {e}");
        }
    };
    // The shim (and FastPFor's C++), into one library with the C objects.
    let mut cpp = cc::Build::new();
    base(&mut cpp);
    cpp.cpp(true).std("c++17");
    cpp.file("peer-c/shim.cpp");
    if svb.is_some() {
        cpp.define("IC_HAVE_LEMIRE_SVB", None);
    }
    if let Some(d) = &fp {
        cpp.define("IC_HAVE_FASTPFOR", None);
        if g8iu {
            cpp.define("IC_WITH_G8IU", None);
        }
        cpp.include(d.join("cpp").join("headers"));
        cpp.file(d.join("cpp").join("src").join("simdbitpacking.cpp"));
    }
    for o in &objects {
        cpp.object(o);
    }
    if let Err(e) = cpp.try_compile("intcodec_peer_c") {
        println!("cargo:warning=C/C++ peers: C++ build failed: {e}");
        return format!("C/C++ peers not built: the C++ build failed: {e}");
    }
    let mut built = Vec::new();
    if let Some(d) = &svb {
        println!("cargo:rustc-cfg=intcodec_lemire_svb");
        built.push(format!("lemire/streamvbyte from {}", d.display()));
    }
    if let Some(d) = &fp {
        println!("cargo:rustc-cfg=intcodec_fastpfor_cpp");
        built.push(format!("FastPFor C++ from {}", d.display()));
    }
    let cc_name = cc::Build::new().get_compiler().path().display().to_string();
    notes.insert(
        0,
        format!(
            "C/C++ peers compiled by build.rs with {cc_name} {} ({})",
            flags.join(" "),
            built.join(", ")
        ),
    );
    notes.join("; ")
}

#[cfg(not(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp")))]
fn c_peers_build(_: bool, _: bool) -> String {
    String::new()
}

/// The root directories of the packages `peer-c/Cargo.toml` depends on:
/// from `cargo metadata` (fetching them when missing), else every package
/// directory under `$CARGO_HOME/registry/src/*/`.
#[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
fn crate_dirs() -> Vec<PathBuf> {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap())
        .join("peer-c")
        .join("Cargo.toml");
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.args(["metadata", "--format-version", "1", "--locked"])
        .arg("--manifest-path")
        .arg(&manifest);
    for var in NESTED_ENV_REMOVE {
        cmd.env_remove(var);
    }
    let mut dirs = Vec::new();
    match cmd.output() {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let key = "\"manifest_path\":\"";
            let mut rest = &text[..];
            while let Some(i) = rest.find(key) {
                rest = &rest[i + key.len()..];
                let end = rest.find('"').unwrap_or(rest.len());
                if let Some(dir) = Path::new(&rest[..end]).parent() {
                    dirs.push(dir.to_path_buf());
                }
            }
        }
        Ok(o) => println!(
            "cargo:warning=C/C++ peers: cargo metadata on peer-c failed ({}); \
             looking in CARGO_HOME",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ),
        Err(e) => println!("cargo:warning=C/C++ peers: cannot run cargo metadata: {e}"),
    }
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(src) = home.map(|h| h.join("registry").join("src")) {
        for index in std::fs::read_dir(src).into_iter().flatten().flatten() {
            for pkg in std::fs::read_dir(index.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                dirs.push(pkg.path());
            }
        }
    }
    dirs
}
