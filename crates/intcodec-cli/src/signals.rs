//! Removing the temporary output file when the tool is interrupted.
//!
//! [`install`] starts a thread that waits for SIGINT, SIGTERM and SIGHUP
//! (`signal-hook`'s safe iterator: the handler only writes to a pipe). On
//! the first one it deletes every registered temporary file and exits with
//! status 128 + the signal number (130, 143, 129), as a shell reports a
//! command the signal killed.
//!
//! Temporary files are created, renamed and removed under the registry's
//! lock, so the cleanup never races with the final rename: either the
//! output was complete and renamed into place, or the temporary is removed.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary files that exist now.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temps() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the lock leaves a usable list.
    TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the signal thread. If the handlers cannot be installed the tool
/// still works, with the default behaviour (a temporary may be left).
pub(crate) fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let mut list = temps();
            for tmp in list.drain(..) {
                let _ = fs::remove_file(tmp);
            }
            // Exit while still holding the lock: no rename can follow.
            std::process::exit(128 + signal);
        }
    });
}

/// Creates the new file `tmp` (never an existing one) and registers it.
pub(crate) fn create_temp(tmp: &Path) -> io::Result<File> {
    let mut list = temps();
    let file = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    list.push(tmp.to_path_buf());
    Ok(file)
}

/// Renames the registered `tmp` to `dest` and forgets it.
pub(crate) fn rename_temp(tmp: &Path, dest: &Path) -> io::Result<()> {
    let mut list = temps();
    fs::rename(tmp, dest)?;
    list.retain(|t| t != tmp);
    Ok(())
}

/// Removes the registered `tmp` (if it is still there) and forgets it.
pub(crate) fn remove_temp(tmp: &Path) {
    let mut list = temps();
    if let Some(i) = list.iter().position(|t| t == tmp) {
        list.swap_remove(i);
        // Best effort: an error has already been reported, or is about to be.
        let _ = fs::remove_file(tmp);
    }
}
