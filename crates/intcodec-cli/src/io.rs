//! Reading inputs and writing outputs without ever leaving a partial file.
//!
//! An output file is written to a new temporary file in the same directory
//! (so the final rename stays on one file system), flushed to disk, then
//! renamed over the destination. On any error the temporary is deleted and
//! the destination is left as it was. Standard output gets the whole result
//! in one write, after all the work has succeeded.

use crate::error::CliError;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Where to read from or write to: `-` on the command line means stdin or
/// stdout (write `./-` for a file called `-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Standard input or output.
    Std,
    /// A file.
    Path(PathBuf),
}

impl Target {
    /// The target a command-line argument names.
    pub(crate) fn from_arg(arg: &OsStr) -> Self {
        if arg == "-" {
            Target::Std
        } else {
            Target::Path(PathBuf::from(arg))
        }
    }
}

/// Reads all of the input.
pub(crate) fn read_input(from: &Target) -> Result<Vec<u8>, CliError> {
    match from {
        Target::Std => {
            let mut buf = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| CliError::new(format!("cannot read standard input: {e}")))?;
            Ok(buf)
        }
        Target::Path(path) => fs::read(path)
            .map_err(|e| CliError::new(format!("cannot read input '{}': {e}", path.display()))),
    }
}

/// Writes `bytes` as the whole output.
pub(crate) fn write_output(to: &Target, bytes: &[u8]) -> Result<(), CliError> {
    match to {
        Target::Std => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| CliError::new(format!("cannot write standard output: {e}")))
        }
        Target::Path(path) => write_atomically(path, bytes),
    }
}

/// Writes `bytes` to a temporary file next to `path`, then renames it over
/// `path`; deletes the temporary if anything fails.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let fail = |what: &str, e: io::Error| {
        CliError::new(format!(
            "cannot write output '{}': {what}{e}",
            path.display()
        ))
    };
    let name = path
        .file_name()
        .ok_or_else(|| CliError::new(format!("output '{}' is not a file name", path.display())))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (tmp, file) = create_temp(dir, name).map_err(|e| fail("creating a temporary file: ", e))?;
    let result = fill_and_rename(file, bytes, &tmp, path).map_err(|e| fail("", e));
    if result.is_err() {
        // Best effort: the first error is the one worth reporting.
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn fill_and_rename(mut file: File, bytes: &[u8], tmp: &Path, path: &Path) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(tmp, path)
}

/// Creates a new file `.<name>.<pid>-<n>.intcodec-tmp` in `dir`, with a name
/// no other file has (`create_new` fails rather than open an existing one).
fn create_temp(dir: &Path, name: &OsStr) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    let mut last_err = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mut tmp_name = OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{pid}-{n}-{nanos:08x}.intcodec-tmp"));
        let tmp = dir.join(tmp_name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no free temporary file name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory, removed on drop (also when a test panics).
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "intcodec-cli-unit-{tag}-{}-{:x}",
            std::process::id(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        fs::create_dir(&dir).unwrap();
        Scratch(dir)
    }

    fn listing(dir: &Path) -> Vec<OsString> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn target_from_arg() {
        assert_eq!(Target::from_arg(OsStr::new("-")), Target::Std);
        assert_eq!(
            Target::from_arg(OsStr::new("./-")),
            Target::Path(PathBuf::from("./-"))
        );
    }

    #[test]
    fn atomic_write_replaces_and_cleans_up() {
        let guard = scratch("atomic");
        let dir = &guard.0;
        let out = dir.join("out.bin");
        write_atomically(&out, b"first").unwrap();
        write_atomically(&out, b"second").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"second");
        assert_eq!(listing(dir), [OsString::from("out.bin")]);

        // Renaming over a directory fails: the temporary must go away.
        let sub = dir.join("sub");
        fs::create_dir(&sub).unwrap();
        fs::write(sub.join("x"), b"").unwrap();
        let e = write_atomically(&sub, b"data").unwrap_err().to_string();
        assert!(
            e.contains("cannot write output") && e.contains("sub"),
            "{e}"
        );
        assert_eq!(
            listing(dir),
            [OsString::from("out.bin"), OsString::from("sub")]
        );

        // A missing directory: nothing created, the path named.
        let e = write_atomically(&dir.join("nope/out"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("nope/out"), "{e}");
    }

    #[test]
    fn temp_names_are_unique() {
        let guard = scratch("temps");
        let dir = &guard.0;
        let (a, _fa) = create_temp(dir, OsStr::new("o")).unwrap();
        let (b, _fb) = create_temp(dir, OsStr::new("o")).unwrap();
        assert_ne!(a, b);
        assert!(a.file_name().unwrap().to_string_lossy().starts_with(".o."));
    }

    #[test]
    fn read_missing_input_names_path() {
        let e = read_input(&Target::Path(PathBuf::from("/definitely/not/here.bin")))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("cannot read input '/definitely/not/here.bin': "),
            "{e}"
        );
    }
}
