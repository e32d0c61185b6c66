//! Progress bars on stderr for long work (embedding, reindexing). Hidden when stderr is
//! not a terminal or `-q` is given, so scripts and hooks see clean output.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar that callers feed `(done, total)`.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar with a label; `quiet` hides it.
    pub fn new(label: &str, quiet: bool) -> Self {
        let bar = ProgressBar::hidden();
        if !quiet {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
        Progress { bar }
    }

    /// Updates the bar.
    pub fn update(&self, done: usize, total: usize) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
