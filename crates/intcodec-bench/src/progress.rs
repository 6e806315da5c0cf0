//! The progress bar `intcodec bench` draws on stderr while it runs.
//!
//! Every suite reports its progress as `(fraction done, status)` through a
//! `&mut dyn FnMut(f64, &str)`; [`Bar`] turns that into one line, redrawn in
//! place on a terminal:
//!
//! ```text
//! [2/5 postings] [##########--------------]  42%  bucket 2^10 (6/12): repetition 3/5  0:37, ~0:51 left
//! ```
//!
//! When stderr is not a terminal (CI logs, pipes) it writes a plain line
//! only when the suite starts a new step (a status ending in `preparing`)
//! and at most once per 10 %, so logs stay short.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Width of the bar, in characters between the brackets.
const WIDTH: usize = 24;

/// A progress bar for one suite of a run.
#[derive(Debug)]
pub struct Bar {
    label: String,
    quiet: bool,
    tty: bool,
    started: Instant,
    /// Last time the terminal line was redrawn.
    drawn: Option<Instant>,
    /// Last 10 % step written to a non-terminal.
    logged_step: Option<u32>,
}

impl Bar {
    /// A bar labelled `label` (`[2/5 postings]`), silent when `quiet`.
    pub fn new(label: &str, quiet: bool) -> Bar {
        Bar {
            label: label.to_string(),
            quiet,
            tty: std::io::stderr().is_terminal(),
            started: Instant::now(),
            drawn: None,
            logged_step: None,
        }
    }

    /// Reports `fraction` (clamped to 0..=1) of the suite done, now at `status`.
    pub fn update(&mut self, fraction: f64, status: &str) {
        if self.quiet {
            return;
        }
        let fraction = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let elapsed = self.started.elapsed();
        if self.tty {
            // Redraw at most 20 times a second: the suites call often.
            let now = Instant::now();
            if self
                .drawn
                .is_some_and(|t| now.duration_since(t) < Duration::from_millis(50))
                && !status.ends_with("preparing")
            {
                return;
            }
            self.drawn = Some(now);
            let line = render(&self.label, fraction, status, elapsed);
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K{line}");
            let _ = e.flush();
        } else {
            let step = (fraction * 10.0).floor() as u32;
            if status.ends_with("preparing") || self.logged_step.is_none_or(|s| step > s) {
                self.logged_step = Some(step);
                eprintln!("{}", render(&self.label, fraction, status, elapsed));
            }
        }
    }

    /// Clears the bar's line (terminal) at the end of the suite.
    pub fn finish(&mut self) {
        if !self.quiet && self.tty {
            eprint!("\r\x1b[2K");
        }
    }

    /// Runs `suite` with this bar as its progress callback, then finishes
    /// the bar; returns what `suite` returns.
    pub fn run<T>(&mut self, suite: impl FnOnce(&mut dyn FnMut(f64, &str)) -> T) -> T {
        let result = suite(&mut |f, m| self.update(f, m));
        self.finish();
        result
    }
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// One line of the bar: label, bar, percentage, status, elapsed time and
/// (once 3 % is done) the estimated time left.
pub fn render(label: &str, fraction: f64, status: &str, elapsed: Duration) -> String {
    let fraction = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let filled = ((fraction * WIDTH as f64).round() as usize).min(WIDTH);
    let bar: String = "#".repeat(filled) + &"-".repeat(WIDTH - filled);
    let left = if (0.03..1.0).contains(&fraction) {
        let total = elapsed.as_secs_f64() / fraction;
        format!(
            ", ~{} left",
            clock(Duration::from_secs_f64(total - elapsed.as_secs_f64()))
        )
    } else {
        String::new()
    };
    format!(
        "{label} [{bar}] {:>3}%  {status}  {}{left}",
        (fraction * 100.0).floor() as u32,
        clock(elapsed)
    )
}

/// Maps a sub-step's own fraction into its share `[index, index + 1) / count`
/// of the whole: `(index + f) / count`.
pub fn share(index: usize, count: usize, f: f64) -> f64 {
    if count == 0 {
        return 1.0;
    }
    (index as f64 + f.clamp(0.0, 1.0)) / count as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_fill_percentage_and_time_left() {
        let l = render(
            "[1/4 keys]",
            0.5,
            "b=3: repetition 1/5",
            Duration::from_secs(30),
        );
        assert!(
            l.starts_with("[1/4 keys] [############------------]  50%  b=3: repetition 1/5  0:30"),
            "{l}"
        );
        assert!(l.ends_with(", ~0:30 left"), "{l}");
        let l = render("x", 0.0, "start", Duration::ZERO);
        assert!(
            l.contains("[------------------------]   0%") && !l.contains("left"),
            "{l}"
        );
        let l = render("x", 1.7, "done", Duration::from_secs(61));
        assert!(
            l.contains("[########################] 100%  done  1:01"),
            "{l}"
        );
        assert!(!l.contains("left"), "{l}");
        let l = render("x", f64::NAN, "nan", Duration::ZERO);
        assert!(l.contains("  0%"), "{l}");
    }

    #[test]
    fn shares_split_the_whole() {
        assert_eq!(share(0, 4, 0.0), 0.0);
        assert_eq!(share(1, 4, 0.5), 0.375);
        assert_eq!(share(3, 4, 1.0), 1.0);
        assert_eq!(share(2, 4, 7.0), 0.75);
        assert_eq!(share(0, 0, 0.3), 1.0);
    }
}
