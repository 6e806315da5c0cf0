//! What a report says about the machine and the build.

use intcodec::isa;

/// The CPU model from `/proc/cpuinfo` (`unknown` elsewhere).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Model"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// Logical CPUs.
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// ISAs detected, and the `INTCODEC_ISA` cap.
pub fn isas() -> String {
    let detected: Vec<&str> = isa::detected_isas().map(|i| i.name()).collect();
    let cap = match isa::isa_override() {
        Some(c) => format!("INTCODEC_ISA cap {c}"),
        None => "no INTCODEC_ISA cap".to_string(),
    };
    format!("{} ({cap})", detected.join(" "))
}

/// How our code and the peers were built.
pub fn build_flags() -> String {
    let mut features = Vec::new();
    for (on, name) in [
        (cfg!(target_feature = "sse4.1"), "sse4.1"),
        (cfg!(target_feature = "avx2"), "avx2"),
        (cfg!(target_feature = "avx512f"), "avx512f"),
    ] {
        if on {
            features.push(name);
        }
    }
    let baseline = if features.is_empty() {
        "baseline target, no target-cpu=native".to_string()
    } else {
        format!(
            "compiled with target features {} enabled",
            features.join(",")
        )
    };
    let profile = if cfg!(debug_assertions) {
        "DEBUG ASSERTIONS ON (numbers not representative)"
    } else {
        "release"
    };
    #[allow(unused_mut)] // pushed to only when a C/C++ peer is compiled in
    let mut s = format!("intcodec: run-time kernel dispatch, {baseline}, {profile}");
    #[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
    {
        s.push_str("; ");
        s.push_str(crate::peers::c_note());
    }
    s
}
