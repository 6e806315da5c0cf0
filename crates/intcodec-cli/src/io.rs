//! Reading inputs and writing outputs without ever leaving a partial file.
//!
//! What happens to OUTPUT depends on what is there (symbolic links are
//! followed first, hop by hop; the link itself is never replaced):
//!
//! - **Nothing, or a regular file**: the result goes to a new temporary file
//!   in the same directory (so the final rename stays on one file system),
//!   is flushed to disk, then renamed over the destination: readers see the
//!   old file or the new one, never a mix. The new file gets the old one's
//!   permission bits (and, where allowed, its owner and group). On any error
//!   or on SIGINT/SIGTERM/SIGHUP (see [`crate::signals`]) the temporary is
//!   deleted and the destination is left as it was.
//! - **A regular file with other hard links** (link count above 1) is
//!   rewritten in place, as a shell's `>` does, so that every name still
//!   shows the new contents: a rename would silently detach this name from
//!   the others. The result is written only after all the work succeeded, but
//!   an I/O error in the middle (disk full) can leave it partly written.
//! - **A read-only regular file** (no write permission bit, or one this user
//!   cannot open for writing) is refused: renaming over it would replace a
//!   file its owner marked as not to be changed.
//! - **The input file itself** (same device and inode, whatever the path:
//!   symbolic links, hard links, `/dev/stdin`) is refused.
//! - **Anything else**: a character or block device, a FIFO, a `/dev/fd/N`
//!   or `/proc/self/fd/N` descriptor link (process substitution): opened and
//!   written directly, no temporary, no rename. A Unix socket is connected
//!   to and written.
//!
//! OUTPUT is opened (the temporary created) before the input is read, so an
//! unwritable destination fails before any work. Standard output gets the
//! whole result in one write, after all the work has succeeded. A reader
//! that goes away (`EPIPE`, e.g. `| head`) ends the tool quietly: see
//! [`CliError::broken_pipe`].

use crate::error::CliError;
use crate::signals;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::net::UnixStream;
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

/// An opened input: read it with [`Input::read_all`].
pub(crate) enum Input {
    /// Standard input.
    Std,
    /// An opened file and its path (for messages).
    File(File, PathBuf),
}

/// Opens the input (so that a missing input is reported before anything
/// happens to OUTPUT).
pub(crate) fn open_input(from: &Target) -> Result<Input, CliError> {
    match from {
        Target::Std => Ok(Input::Std),
        Target::Path(path) => File::open(path)
            .map(|f| Input::File(f, path.clone()))
            .map_err(|e| CliError::new(format!("cannot read input '{}': {e}", path.display()))),
    }
}

impl Input {
    /// Reads all of the input.
    pub(crate) fn read_all(self) -> Result<Vec<u8>, CliError> {
        let mut buf = Vec::new();
        match self {
            Input::Std => io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| CliError::new(format!("cannot read standard input: {e}")))?,
            Input::File(mut f, path) => f.read_to_end(&mut buf).map_err(|e| {
                CliError::new(format!("cannot read input '{}': {e}", path.display()))
            })?,
        };
        Ok(buf)
    }

    /// Device and inode of the input, if it is a regular file.
    fn identity(&self) -> Option<(u64, u64)> {
        let meta = match self {
            // Linux and most Unixes: the file behind descriptor 0.
            Input::Std => fs::metadata("/dev/stdin").ok()?,
            Input::File(f, _) => f.metadata().ok()?,
        };
        meta.is_file().then(|| (meta.dev(), meta.ino()))
    }
}

/// Reads all of `from` (tests and callers with no OUTPUT).
#[cfg(test)]
pub(crate) fn read_input(from: &Target) -> Result<Vec<u8>, CliError> {
    open_input(from)?.read_all()
}

/// Writes `bytes` to standard output; a closed pipe is
/// [`CliError::broken_pipe`].
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| stdout_error(&e))
}

/// The error for a failed write to standard output.
pub(crate) fn stdout_error(e: &io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::broken_pipe()
    } else {
        CliError::new(format!("cannot write standard output: {e}"))
    }
}

/// An OUTPUT ready to receive the result: [`Output::commit`] writes it;
/// dropping it uncommitted removes any temporary file.
pub(crate) struct Output {
    kind: OutKind,
    /// The path as given, for messages.
    shown: PathBuf,
}

enum OutKind {
    /// Standard output.
    Std,
    /// Atomic replacement: the temporary (registered for signal cleanup),
    /// its open file, and the final path.
    Atomic {
        tmp: PathBuf,
        file: File,
        dest: PathBuf,
    },
    /// A regular file with other hard links, rewritten in place.
    InPlace(File),
    /// A device, FIFO or descriptor link, written directly.
    Direct(File),
    /// A Unix socket.
    Socket(UnixStream),
}

/// What a path leads to once symbolic links are followed.
enum Resolved {
    /// No file there (a new file, or a dangling link's target).
    New(PathBuf),
    /// A regular file.
    Regular(PathBuf, Metadata),
    /// A descriptor link under `/proc` (`/dev/fd/N`, `/dev/stdout`, ...).
    FdLink(PathBuf),
    /// A device, FIFO or socket.
    Special(PathBuf),
}

/// Symbolic link hops followed before giving up (Linux's limit).
const MAX_HOPS: usize = 40;

/// Whether `path` is in a `/proc` directory, where the entries of `fd/` are
/// "magic" links to open descriptors that must be opened, not read.
fn in_proc(path: &Path) -> bool {
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::canonicalize(parent).is_ok_and(|d| d.starts_with("/proc"))
}

/// Follows `path` through symbolic links to what it names.
fn resolve(path: &Path) -> io::Result<Resolved> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_HOPS {
        if in_proc(&p) {
            return Ok(Resolved::FdLink(p));
        }
        let meta = match fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Resolved::New(p)),
            Err(e) => return Err(e),
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = fs::read_link(&p)?;
            p = match p.parent() {
                Some(dir) if target.is_relative() => dir.join(target),
                _ => target,
            };
        } else if ft.is_file() {
            return Ok(Resolved::Regular(p, meta));
        } else if ft.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a directory",
            ));
        } else {
            return Ok(Resolved::Special(p));
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Opens OUTPUT for the result of a command that reads `input`: checks
/// what is there, and creates the temporary file of an atomic write.
pub(crate) fn open_output(to: &Target, input: &Input) -> Result<Output, CliError> {
    let path = match to {
        Target::Std => {
            return Ok(Output {
                kind: OutKind::Std,
                shown: PathBuf::from("-"),
            })
        }
        Target::Path(p) => p,
    };
    let fail =
        |e: io::Error| CliError::new(format!("cannot write output '{}': {e}", path.display()));
    let refuse = |why: String| {
        CliError::new(format!(
            "refusing to write output '{}': {why}",
            path.display()
        ))
    };
    let same_as_input = |meta: &Metadata| input.identity() == Some((meta.dev(), meta.ino()));
    let kind = match resolve(path).map_err(fail)? {
        Resolved::New(dest) => {
            let (tmp, file) = create_temp(&dest).map_err(fail)?;
            OutKind::Atomic { tmp, file, dest }
        }
        Resolved::Regular(dest, meta) => {
            if same_as_input(&meta) {
                return Err(refuse("it is the input file".into()));
            }
            let mode = meta.permissions().mode();
            if mode & 0o222 == 0 {
                return Err(refuse(format!(
                    "it is read-only (mode {:04o}); make it writable or remove it first",
                    mode & 0o7777
                )));
            }
            // Not truncated: only a check that this user may change it (and
            // the handle for an in-place rewrite).
            let file = OpenOptions::new()
                .write(true)
                .open(&dest)
                .map_err(|e| match e.kind() {
                    io::ErrorKind::PermissionDenied => {
                        refuse(format!("it is not writable by this user ({e})"))
                    }
                    _ => fail(e),
                })?;
            if meta.nlink() > 1 {
                OutKind::InPlace(file)
            } else {
                drop(file);
                let (tmp, file) = create_temp(&dest).map_err(fail)?;
                // The old file's permission bits (not set-id bits) and, when
                // this user may set them, its owner and group.
                let same_owner = file
                    .metadata()
                    .is_ok_and(|m| (m.uid(), m.gid()) == (meta.uid(), meta.gid()));
                if !same_owner {
                    let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
                }
                let perms = fs::Permissions::from_mode(mode & 0o777);
                if let Err(e) = file.set_permissions(perms) {
                    signals::remove_temp(&tmp);
                    return Err(fail(e));
                }
                OutKind::Atomic { tmp, file, dest }
            }
        }
        Resolved::FdLink(p) | Resolved::Special(p) => {
            let meta = fs::metadata(&p).map_err(fail)?;
            if meta.file_type().is_socket() {
                OutKind::Socket(UnixStream::connect(&p).map_err(fail)?)
            } else if meta.is_dir() {
                return Err(fail(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "it is a directory",
                )));
            } else {
                if meta.is_file() && same_as_input(&meta) {
                    return Err(refuse("it is the input file".into()));
                }
                // A descriptor link to a regular file is truncated, as `>`
                // would; devices and FIFOs are not files to truncate.
                let file = OpenOptions::new()
                    .write(true)
                    .truncate(meta.is_file())
                    .open(&p)
                    .map_err(fail)?;
                OutKind::Direct(file)
            }
        }
    };
    Ok(Output {
        kind,
        shown: path.clone(),
    })
}

impl Output {
    /// Writes `bytes` as the whole output.
    pub(crate) fn commit(mut self, bytes: &[u8]) -> Result<(), CliError> {
        let kind = std::mem::replace(&mut self.kind, OutKind::Std);
        let shown = self.shown.display().to_string();
        let fail = |e: io::Error| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                CliError::broken_pipe()
            } else {
                CliError::new(format!("cannot write output '{shown}': {e}"))
            }
        };
        match kind {
            OutKind::Std => write_stdout(bytes),
            OutKind::Atomic { tmp, file, dest } => {
                let result = fill(file, bytes).and_then(|()| signals::rename_temp(&tmp, &dest));
                if result.is_err() {
                    signals::remove_temp(&tmp);
                }
                result.map_err(fail)
            }
            OutKind::InPlace(mut file) => file
                .write_all(bytes)
                .and_then(|()| file.set_len(bytes.len() as u64))
                .and_then(|()| file.sync_all())
                .map_err(fail),
            OutKind::Direct(mut file) => file
                .write_all(bytes)
                .and_then(|()| file.flush())
                .map_err(fail),
            OutKind::Socket(mut s) => s
                .write_all(bytes)
                .and_then(|()| s.shutdown(std::net::Shutdown::Write))
                .map_err(fail),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let OutKind::Atomic { tmp, .. } = &self.kind {
            signals::remove_temp(tmp);
        }
    }
}

fn fill(mut file: File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()
}

/// Creates a new file `.<name>.<pid>-<n>.intcodec-tmp` next to `dest`, with
/// a name no other file has (`create_new` fails rather than open an
/// existing one), registered for removal on a signal.
fn create_temp(dest: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let name = dest
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
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
        match signals::create_temp(&tmp) {
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

    /// Writes `bytes` to `out` as a command reading stdin would.
    fn write_to(out: &Path, bytes: &[u8]) -> Result<(), CliError> {
        open_output(&Target::Path(out.to_path_buf()), &Input::Std)?.commit(bytes)
    }

    #[test]
    fn atomic_write_replaces_and_cleans_up() {
        let guard = scratch("atomic");
        let dir = &guard.0;
        let out = dir.join("out.bin");
        write_to(&out, b"first").unwrap();
        write_to(&out, b"second").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"second");
        assert_eq!(listing(dir), [OsString::from("out.bin")]);

        // A directory is refused before any temporary is made.
        let sub = dir.join("sub");
        fs::create_dir(&sub).unwrap();
        fs::write(sub.join("x"), b"").unwrap();
        let e = write_to(&sub, b"data").unwrap_err().to_string();
        assert!(
            e.contains("cannot write output") && e.contains("sub") && e.contains("directory"),
            "{e}"
        );
        assert_eq!(
            listing(dir),
            [OsString::from("out.bin"), OsString::from("sub")]
        );

        // A missing directory: nothing created, the path named.
        let e = write_to(&dir.join("nope/out"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("nope/out"), "{e}");
    }

    #[test]
    fn dropped_output_leaves_nothing() {
        let guard = scratch("drop");
        let dir = &guard.0;
        fs::write(dir.join("old"), b"old").unwrap();
        for name in ["new", "old"] {
            let o = open_output(&Target::Path(dir.join(name)), &Input::Std).unwrap();
            assert_eq!(listing(dir).len(), 2, "a temporary exists while open");
            drop(o);
            assert_eq!(listing(dir), [OsString::from("old")]);
        }
        assert_eq!(fs::read(dir.join("old")).unwrap(), b"old");
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
