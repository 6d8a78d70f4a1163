//! Progress on standard error for the long commands (`selfplay`, `verify`,
//! `import`): one status line rewritten in place, only when standard error is
//! a terminal, so cron mails, pipes and tests see none of it.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the line is redrawn at most: often enough to look alive, rarely
/// enough to cost nothing against the work.
const REDRAW: Duration = Duration::from_millis(200);

/// A status line: `label  done/total  rate/s  ~eta left`.
pub struct Progress {
    label: String,
    total: u64,
    started: Instant,
    drawn: Option<Instant>,
    shown: bool,
}

impl Progress {
    /// A progress line for `total` steps; silent unless stderr is a terminal.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        Progress {
            label: label.into(),
            total,
            started: Instant::now(),
            drawn: None,
            shown: std::io::stderr().is_terminal(),
        }
    }

    /// A one-off status ("verifying 10001 entries…") for work that reports no
    /// steps; cleared by [`Progress::finish`].
    pub fn status(label: impl Into<String>) -> Progress {
        let p = Progress::new(label, 0);
        if p.shown {
            eprint!("\r{}\u{2026}", p.label);
            let _ = std::io::stderr().flush();
        }
        p
    }

    /// `done` of the total steps are finished.
    pub fn set(&mut self, done: u64) {
        if !self.shown {
            return;
        }
        let now = Instant::now();
        if self.drawn.is_some_and(|t| now - t < REDRAW) && done < self.total {
            return;
        }
        self.drawn = Some(now);
        eprint!(
            "\r\x1b[K{}",
            line(&self.label, done, self.total, now - self.started)
        );
        let _ = std::io::stderr().flush();
    }

    /// Clears the line, so the command's own report starts on a clean line.
    pub fn finish(self) {
        if self.shown {
            eprint!("\r\x1b[K");
            let _ = std::io::stderr().flush();
        }
    }
}

/// The text of a status line, without terminal codes.
fn line(label: &str, done: u64, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let mut s = format!("{label}  {done}/{total}");
    if done > 0 && secs > 0.0 {
        let rate = done as f64 / secs;
        s.push_str(&format!("  {rate:.1}/s"));
        if done < total {
            let left = (total - done) as f64 / rate;
            s.push_str(&format!("  ~{} left", eta(left)));
        }
    }
    s
}

fn eta(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_count_rate_and_time_left() {
        let l = line("selfplay sarhu", 25, 100, Duration::from_secs(5));
        assert_eq!(l, "selfplay sarhu  25/100  5.0/s  ~15 s left");
        let done = line("selfplay sarhu", 100, 100, Duration::from_secs(20));
        assert_eq!(done, "selfplay sarhu  100/100  5.0/s");
        assert_eq!(eta(3725.0), "1 h 2 min");
        assert_eq!(line("x", 0, 10, Duration::ZERO), "x  0/10");
    }
}
