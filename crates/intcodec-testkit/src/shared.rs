//! Optional resources of the tests: the real data beside the repository and
//! reference libraries. A test that needs one and does not find it skips
//! with a loud `SKIPPED` notice on stderr, or fails when
//! `INTCODEC_REQUIRE_ORACLES=1` (the project's test command sets it).

use std::path::PathBuf;

/// Whether absent resources are failures (`INTCODEC_REQUIRE_ORACLES=1`).
pub fn required() -> bool {
    std::env::var("INTCODEC_REQUIRE_ORACLES").as_deref() == Ok("1")
}

/// `found`'s value, or, when it is an error: a panic naming `test` when
/// resources are [`required`], else a loud skip notice and `None`.
pub fn require<T>(test: &str, found: Result<T, String>) -> Option<T> {
    match found {
        Ok(v) => Some(v),
        Err(e) if required() => {
            panic!("{test}: oracle required (INTCODEC_REQUIRE_ORACLES=1) but {e}")
        }
        Err(e) => {
            eprintln!("\n*** SKIPPED {test}: {e} ***\n");
            None
        }
    }
}

/// Where the shared data is looked for: `INTCODEC_SHARED_DATA`, else
/// `shared/data` beside the repository.
pub fn shared_data_dir() -> PathBuf {
    std::env::var_os("INTCODEC_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
        })
}

/// The shared data directory (holding `postings/`), through [`require`]:
/// `None` with a loud notice naming `test` when it is absent, a panic under
/// `INTCODEC_REQUIRE_ORACLES=1`.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let dir = shared_data_dir();
    let found = if dir.join("postings").is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "shared data not found at {} (set INTCODEC_SHARED_DATA)",
            dir.display()
        ))
    };
    require(test, found)
}

/// The ds2i files of the shared data's `postings/` directory.
pub const POSTINGS: [&str; 3] = ["clueweb1k.docs", "europarl.docs", "europarl.pos"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn require_passes_values_through() {
        assert_eq!(require("t", Ok::<u8, String>(3)), Some(3));
        if !required() {
            assert_eq!(require::<u8>("t", Err("absent".into())), None);
        }
    }
}
