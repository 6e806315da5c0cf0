//! Files a run leaves behind: the figures (`--plot FILE.svg` or `.png`) and
//! the CSV record (`--record DIR` writes `DIR/<cpu>/<date>.csv`). Each is
//! written to a temporary file beside its destination and renamed into
//! place, so a failed run leaves no half-written file.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `bytes` to `path` through a temporary file and a rename.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = temp_beside(path);
    std::fs::write(&tmp, bytes).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    rename_into(&tmp, path)
}

/// Renames the finished temporary file `tmp` to `path` (removing `tmp` if
/// that fails).
fn rename_into(tmp: &Path, path: &Path) -> Result<(), String> {
    std::fs::rename(tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(tmp);
        format!("writing {}: {e}", path.display())
    })
}

fn temp_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes the figures `svg` to `path`: as SVG, or, for a `.png` name,
/// rendered by `rsvg-convert` (Debian: `librsvg2-bin`).
pub fn write_figure(path: &Path, svg: &str) -> Result<(), String> {
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !png {
        return write_atomically(path, svg.as_bytes());
    }
    let svg_tmp = temp_beside(&path.with_extension("svg"));
    let png_tmp = temp_beside(path);
    std::fs::write(&svg_tmp, svg).map_err(|e| format!("writing {}: {e}", svg_tmp.display()))?;
    let status = Command::new("rsvg-convert")
        .args(["--format", "png", "--zoom", "1.5", "--output"])
        .arg(&png_tmp)
        .arg(&svg_tmp)
        .status();
    let _ = std::fs::remove_file(&svg_tmp);
    match status {
        Ok(s) if s.success() => rename_into(&png_tmp, path),
        Ok(s) => {
            let _ = std::fs::remove_file(&png_tmp);
            Err(format!(
                "--plot {}: rsvg-convert failed ({s})",
                path.display()
            ))
        }
        Err(e) => Err(format!(
            "--plot {}: PNG output needs rsvg-convert (Debian/Ubuntu: apt-get install \
             librsvg2-bin; scripts/deps.sh --plots installs it); SVG output needs nothing ({e})",
            path.display()
        )),
    }
}

/// A file-name-safe form of a CPU model name (`amd-epyc`).
pub fn cpu_slug(model: &str) -> String {
    let mut s = String::new();
    for c in model.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "unknown-cpu".to_string()
    } else {
        s
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of day `days` since 1970-01-01.
fn civil_date(days: i64) -> String {
    // Shift the epoch to 0000-03-01 so leap days end each 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Writes `csv` to `dir/<cpu slug>/<date>.csv` (`<date>-2.csv`, ... when
/// that exists) and returns the path.
pub fn write_record(dir: &Path, cpu: &str, csv: &[u8]) -> Result<PathBuf, String> {
    let sub = dir.join(cpu_slug(cpu));
    std::fs::create_dir_all(&sub).map_err(|e| format!("--record: {}: {e}", sub.display()))?;
    let day = today();
    let mut path = sub.join(format!("{day}.csv"));
    let mut k = 2;
    while path.exists() {
        path = sub.join(format!("{day}-{k}.csv"));
        k += 1;
    }
    write_atomically(&path, csv)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_slugs() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_781), "2026-11-24");
        assert_eq!(civil_date(-1), "1969-12-31");
        assert_eq!(
            cpu_slug("AMD EPYC 7763 64-Core Processor"),
            "amd-epyc-7763-64-core-processor"
        );
        assert_eq!(cpu_slug("  "), "unknown-cpu");
    }

    #[test]
    fn records_never_overwrite() {
        let dir = std::env::temp_dir().join(format!("intcodec-record-{}", std::process::id()));
        let a = write_record(&dir, "Test CPU", b"x\n").unwrap();
        let b = write_record(&dir, "Test CPU", b"y\n").unwrap();
        assert_ne!(a, b);
        assert_eq!(std::fs::read(&a).unwrap(), b"x\n");
        assert_eq!(std::fs::read(&b).unwrap(), b"y\n");
        assert!(a.starts_with(dir.join("test-cpu")));
        let svg = dir.join("f.svg");
        write_figure(&svg, "<svg/>").unwrap();
        assert_eq!(std::fs::read_to_string(&svg).unwrap(), "<svg/>");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
