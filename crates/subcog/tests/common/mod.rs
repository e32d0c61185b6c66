//! The one test environment: a temp HOME, config dir, data dir and a project that is a real
//! git repository, and a runner for the real `subcog` binary inside it.

pub mod llm_server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Path of the binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_subcog")
}

/// An isolated environment; everything lives in one temp dir removed on drop.
pub struct TestEnv {
    pub root: tempfile::TempDir,
    pub home: PathBuf,
    pub data: PathBuf,
    pub project: PathBuf,
    model: bool,
    database_url: Option<String>,
    warm: bool,
}

/// The embedding model the tests share; tests that need it fail without it.
pub fn test_model_dir() -> PathBuf {
    let dir = std::env::var_os("SUBCOG_TEST_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-model/all-MiniLM-L6-v2"));
    assert!(
        dir.join("model.safetensors").is_file(),
        "test model missing at {}: run scripts/fetch-test-model",
        dir.display()
    );
    dir
}

/// What one run produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Parses stdout as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr))
    }

    /// Asserts success and returns self.
    #[track_caller]
    pub fn ok(self) -> Self {
        assert_eq!(
            self.code, 0,
            "expected success\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    /// Asserts failure with this exit code and a one-line error on stderr.
    #[track_caller]
    pub fn fails_with(self, code: i32) -> Self {
        assert_eq!(
            self.code, code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        let errors: Vec<&str> = self.stderr.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "one error line expected:\n{}", self.stderr);
        self
    }
}

impl TestEnv {
    /// An environment whose project is a fresh git repository.
    pub fn new() -> Self {
        let env = TestEnv::without_git();
        git(&env.project, &["init", "-q", "-b", "main"]).ok();
        env
    }

    /// An environment whose project is a plain directory (no git: SQLite alone).
    pub fn without_git() -> Self {
        let root = tempfile::tempdir().expect("tempdir");
        let home = root.path().join("home");
        let data = root.path().join("data");
        let project = root.path().join("project");
        std::fs::create_dir_all(home.join(".config")).expect("home");
        std::fs::create_dir_all(&project).expect("project");
        TestEnv {
            root,
            home,
            data,
            project,
            model: false,
            database_url: None,
            warm: false,
        }
    }

    /// An environment whose project is a clone of `url`.
    pub fn cloned(url: &Path) -> Self {
        let env = TestEnv::without_git();
        std::fs::remove_dir_all(&env.project).expect("rm project");
        git(env.root.path(), &["clone", "-q", &url.display().to_string(), "project"]).ok();
        env
    }

    /// Runs git in the project.
    pub fn git(&self, args: &[&str]) -> Run {
        git(&self.project, args)
    }

    /// A command for the binary with the environment set up (data dir via SUBCOG_DATA_DIR).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .current_dir(&self.project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .env("SUBCOG_DATA_DIR", &self.data)
            .stdin(Stdio::null());
        if self.model {
            cmd.env("SUBCOG_EMBEDDING_MODEL_DIR", test_model_dir());
        }
        if let Some(url) = &self.database_url {
            cmd.env("SUBCOG_DATABASE_URL", url);
        }
        if !self.warm {
            // Each test runs its commands in their own processes unless it tests the warm
            // path (test_warm.rs); the Claude Code end-to-end run uses it as users do.
            cmd.env("SUBCOG_DAEMON_ENABLED", "false");
        }
        cmd
    }

    /// Lets hooks and reads use the warm process (and hooks start it).
    pub fn with_warm_path(mut self) -> Self {
        self.warm = true;
        self
    }

    /// Points the environment at the shared test model (see scripts/fetch-test-model).
    pub fn with_model(mut self) -> Self {
        self.model = true;
        self
    }

    /// Stores memories in this PostgreSQL database (`SUBCOG_DATABASE_URL`).
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    pub fn with_database(mut self, url: &str) -> Self {
        self.database_url = Some(url.to_string());
        self
    }

    /// Runs the binary to completion.
    pub fn run(&self, args: &[&str]) -> Run {
        to_run(self.command(args).output().expect("spawn subcog"))
    }

    /// Runs the binary with `input` on stdin.
    pub fn run_stdin(&self, args: &[&str], input: &str) -> Run {
        run_with_stdin(self.command(args), input).1
    }

    /// Captures and returns the new memory's id.
    pub fn capture(&self, ns: &str, content: &str) -> String {
        let out = self.run(&["capture", "--json", "-n", ns, content]).ok().json();
        out["id"].as_str().expect("id").to_string()
    }

    /// Writes the user config file.
    /// The ids `recall QUERY --json` returns, in order.
    pub fn recalled_ids(&self, query: &str) -> Vec<String> {
        let v = self.run(&["recall", query, "--json"]).ok().json();
        v["results"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["id"].as_str().map(str::to_string))
            .collect()
    }

    pub fn write_config(&self, text: &str) -> PathBuf {
        let path = self.home.join(".config/subcog/config.toml");
        std::fs::create_dir_all(path.parent().unwrap_or(Path::new("/"))).expect("config dir");
        std::fs::write(&path, text).expect("write config");
        path
    }
}

/// Runs `cmd` to completion with `input` on stdin: its pid and what it printed.
pub fn run_with_stdin(mut cmd: Command, input: &str) -> (u32, Run) {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn subcog");
    let pid = child.id();
    // A command that refuses its arguments exits before reading stdin: a broken pipe is
    // its answer, not the test's failure (its exit code says what happened).
    match child.stdin.take().expect("stdin").write_all(input.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
        _ => {}
    }
    (pid, to_run(child.wait_with_output().expect("wait")))
}

/// Runs git in `dir` with a fixed identity and no user or system configuration.
pub fn git(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .output()
        .expect("spawn git");
    to_run(out)
}

pub fn to_run(out: Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
