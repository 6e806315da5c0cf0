//! FastPFor (lemire/FastPFor, C++) through PyPI's `pyfastpfor`, driven in a
//! Python subprocess: arrays go in and out through files
//! (`py/fastpfor_oracle.py`), many per call.
//!
//! The Python interpreter is the first of: `$INTCODEC_PYTHON`, the venv
//! `scripts/deps.sh --tests` makes at `target/oracle-venv`, `python3`, that
//! can `import pyfastpfor`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/py/fastpfor_oracle.py");
const VENV_PYTHON: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../target/oracle-venv/bin/python"
);

/// A Python interpreter with `pyfastpfor`.
pub struct PyFastPFor {
    python: PathBuf,
}

/// What [`PyFastPFor::run`] does to each array.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// Values to FastPFor's compressed words.
    Encode,
    /// `delta1` (differences from 0), then encode.
    EncodeDelta,
    /// Compressed words to values.
    Decode,
    /// Decode, then `prefixSum1`.
    DecodeDelta,
}

impl Mode {
    fn arg(self) -> &'static str {
        match self {
            Mode::Encode => "encode",
            Mode::EncodeDelta => "encode-delta",
            Mode::Decode => "decode",
            Mode::DecodeDelta => "decode-delta",
        }
    }
}

fn has_pyfastpfor(python: &Path) -> Result<(), String> {
    let out = Command::new(python)
        .args(["-c", "import pyfastpfor"])
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}",
            python.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

impl PyFastPFor {
    /// Finds a Python that can import `pyfastpfor`.
    pub fn load() -> Result<Self, String> {
        let mut tried = Vec::new();
        let candidates: Vec<PathBuf> = std::env::var_os("INTCODEC_PYTHON")
            .map(PathBuf::from)
            .into_iter()
            .chain([PathBuf::from(VENV_PYTHON), PathBuf::from("python3")])
            .collect();
        for python in candidates {
            match has_pyfastpfor(&python) {
                Ok(()) => return Ok(PyFastPFor { python }),
                Err(e) => tried.push(e),
            }
        }
        Err(format!(
            "no Python with pyfastpfor (run `bash scripts/deps.sh --tests`); tried: {}",
            tried.join("; ")
        ))
    }

    /// Runs `mode` with FastPFor codec `codec` (e.g. `varintgb`) on every
    /// array of `arrays`, returning one result per array.
    pub fn run(&self, mode: Mode, codec: &str, arrays: &[Vec<u32>]) -> Vec<Vec<u32>> {
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        let tag = format!(
            "intcodec-fastpfor-{}-{}",
            std::process::id(),
            CALLS.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir();
        let (src, dst) = (
            dir.join(format!("{tag}.in")),
            dir.join(format!("{tag}.out")),
        );
        let mut bytes = Vec::new();
        for a in arrays {
            let n = u32::try_from(a.len()).expect("array fits a u32 length");
            bytes.extend_from_slice(&n.to_le_bytes());
            for &v in a {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
        std::fs::write(&src, &bytes).expect("write oracle input");
        let out = Command::new(&self.python)
            // numpy's OpenBLAS would start a thread per core at import, a
            // tenth of the driver's time for nothing (no linear algebra).
            .env("OPENBLAS_NUM_THREADS", "1")
            .arg(SCRIPT)
            .args([mode.arg(), codec])
            .arg(&src)
            .arg(&dst)
            .output()
            .expect("run the pyfastpfor driver");
        let _ = std::fs::remove_file(&src);
        assert!(
            out.status.success(),
            "pyfastpfor driver failed ({mode:?} {codec}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let raw = std::fs::read(&dst).expect("read oracle output");
        let _ = std::fs::remove_file(&dst);
        let words: Vec<u32> = raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut res = Vec::with_capacity(arrays.len());
        let mut pos = 0;
        while pos < words.len() {
            let n = words[pos] as usize;
            res.push(words[pos + 1..pos + 1 + n].to_vec());
            pos += 1 + n;
        }
        assert_eq!(res.len(), arrays.len(), "one result per array");
        res
    }
}

/// u32 words as their little-endian bytes (FastPFor's byte view on x86).
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Bytes as little-endian u32 words, zero-padded to a whole word.
pub fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

/// Finds pyfastpfor, or explains why not: a failure under
/// `INTCODEC_REQUIRE_ORACLES=1` (the project's test command), a loud skip
/// otherwise.
pub fn require_pyfastpfor(test: &str) -> Option<PyFastPFor> {
    intcodec_testkit::require(test, PyFastPFor::load())
}
