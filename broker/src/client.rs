//! Where the broker is and how to log in ([`Endpoint`]), and a blocking core-NATS
//! [`Client`] over async-nats (docs.rs/async-nats, `Client`, `ConnectOptions`).
//!
//! An endpoint is one URL or a comma-separated list (`nats://a:4222,nats://b:4222`):
//! async-nats tries them in the order given and, once connected, fails over to the
//! others (and to servers the cluster announces) when its server goes away
//! (docs.nats.io, "Connecting to a cluster"). `tls://` demands TLS; a `nats://` server
//! that requires TLS is upgraded too. Credentials: `user:password@` in the URL, or a
//! token, an NKey seed file or a `.creds` file (JWT + NKey seed) on the endpoint
//! (docs.nats.io, "Securing NATS" › "Authentication").

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use async_nats::{ConnectErrorKind, ServerAddr};
use futures_util::StreamExt;

use crate::{chain, runtime, BrokerError, Result};

/// Where a delivered message stands (async-nats parses its `$JS.ACK` reply subject,
/// `jetstream::Message::info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Its sequence number in the stream.
    pub stream_seq: u64,
    /// How many times it has been delivered (1 the first time).
    pub delivered: u64,
}

impl Delivery {
    /// Where `m` stands, if it is a JetStream delivery.
    pub fn of(m: &Message) -> Option<Delivery> {
        m.delivery
    }
}

/// A received message.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Its subject.
    pub subject: String,
    /// The subscription it came through (0 for JetStream pulls).
    pub sid: u64,
    /// Where to reply (JetStream deliveries: the `$JS.ACK` subject).
    pub reply: Option<String>,
    /// The status of a status message (e.g. 404, 408), if any.
    pub status: Option<u16>,
    /// The status's description.
    pub description: String,
    /// Headers in the order received.
    pub headers: Vec<(String, String)>,
    /// The payload.
    pub payload: Vec<u8>,
    /// Where a JetStream delivery stands (async-nats parses its ack subject).
    pub(crate) delivery: Option<Delivery>,
}

impl Message {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn from_nats(m: async_nats::Message, sid: u64) -> Message {
        let headers = m
            .headers
            .as_ref()
            .map(|h| {
                h.iter()
                    .flat_map(|(k, vs)| vs.iter().map(move |v| (k.to_string(), v.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        Message {
            subject: m.subject.to_string(),
            sid,
            reply: m.reply.map(|r| r.to_string()),
            status: m.status.map(|s| s.as_u16()),
            description: m.description.unwrap_or_default(),
            headers,
            payload: m.payload.to_vec(),
            delivery: None,
        }
    }
}

/// A random 64-bit number (std's per-process random hash keys, the clock and the
/// process id): epochs and names, not cryptography.
pub fn random_u64() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// Where the broker is and how to authenticate: what every connection is made from.
/// `From<&str>` reads a URL (list) without further credentials.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Endpoint {
    /// One URL, or several separated by commas.
    pub urls: String,
    /// A `.creds` file (user JWT and NKey seed, as `nsc` writes them).
    pub creds_file: Option<PathBuf>,
    /// A file holding an NKey seed (`SU…`).
    pub nkey_file: Option<PathBuf>,
    /// A user name, with [`password`](Self::password) (instead of `user:password@`
    /// in the URL, which process listings show).
    pub user: Option<String>,
    /// The user's password.
    pub password: Option<String>,
    /// A token (`authorization { token: … }` on the server).
    pub token: Option<String>,
    /// PEM certificates of a private CA to trust (besides the system's roots).
    pub ca_file: Option<PathBuf>,
}

impl From<&str> for Endpoint {
    fn from(urls: &str) -> Endpoint {
        Endpoint {
            urls: urls.to_string(),
            ..Endpoint::default()
        }
    }
}

impl From<&String> for Endpoint {
    fn from(urls: &String) -> Endpoint {
        Endpoint::from(urls.as_str())
    }
}

impl From<&Endpoint> for Endpoint {
    fn from(e: &Endpoint) -> Endpoint {
        e.clone()
    }
}

impl Endpoint {
    /// The server addresses; only `nats://` and `tls://` (or none: `HOST:PORT`).
    pub fn addrs(&self) -> Result<Vec<ServerAddr>> {
        let bad = || BrokerError::BadUrl(self.urls.clone());
        let addrs = self
            .urls
            .split(',')
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .map(|u| {
                let a = ServerAddr::from_str(u).map_err(|_| bad())?;
                match a.scheme() {
                    "nats" | "tls" if !a.host().is_empty() => Ok(a),
                    _ => Err(bad()),
                }
            })
            .collect::<Result<Vec<_>>>()?;
        if addrs.is_empty() {
            return Err(bad());
        }
        Ok(addrs)
    }

    /// async-nats' options for this endpoint (`timeout`: per connection attempt and
    /// per request).
    pub fn options(&self, timeout: Duration) -> Result<async_nats::ConnectOptions> {
        let addrs = self.addrs()?;
        let read = |p: &PathBuf| {
            std::fs::read_to_string(p)
                .map_err(|e| BrokerError::Credentials(format!("reading {}: {e}", p.display())))
        };
        let mut o = async_nats::ConnectOptions::new()
            .connection_timeout(timeout)
            .request_timeout(Some(timeout))
            // The order given is the order of preference (first the primary).
            .retain_servers_order()
            .name("mahjong-broker");
        // async-nats takes no credentials from the URL; the first URL that has some
        // gives them (docs.nats.io: `nats://user:pass@host`).
        if let Some(u) = &self.user {
            o = o.user_and_password(u.clone(), self.password.clone().unwrap_or_default());
        } else if let Some(a) = addrs.iter().find(|a| a.username().is_some()) {
            o = o.user_and_password(
                a.username().unwrap_or_default().to_string(),
                a.password().unwrap_or_default().to_string(),
            );
        }
        if let Some(t) = &self.token {
            o = o.token(t.clone());
        }
        if let Some(p) = &self.nkey_file {
            let seed = read(p)?.trim().to_string();
            // Checked here so that a bad seed is a clear error, not a failed handshake.
            nkeys_check(&seed, p)?;
            o = o.nkey(seed);
        }
        if let Some(p) = &self.creds_file {
            o = o
                .credentials(&read(p)?)
                .map_err(|e| BrokerError::Credentials(format!("{}: {e}", p.display())))?;
        }
        if let Some(p) = &self.ca_file {
            if !p.is_file() {
                return Err(BrokerError::Credentials(format!(
                    "the CA file {} does not exist",
                    p.display()
                )));
            }
            o = o.add_root_certificates(p.clone());
        }
        Ok(o)
    }
}

/// Refuses a seed that is not one (`S` then the key type, base32).
fn nkeys_check(seed: &str, p: &std::path::Path) -> Result<()> {
    let ok =
        seed.len() > 50 && seed.starts_with('S') && seed.bytes().all(|b| b.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(BrokerError::Credentials(format!(
            "{} does not hold an NKey seed (a line starting with S)",
            p.display()
        )))
    }
}

/// What a failed connect means, with the URLs it tried.
pub(crate) fn connect_error(urls: &str, e: async_nats::ConnectError) -> BrokerError {
    let what = chain(&e);
    match e.kind() {
        ConnectErrorKind::AuthorizationViolation | ConnectErrorKind::Authentication => {
            BrokerError::Auth(format!("{urls} refused the credentials ({what})"))
        }
        ConnectErrorKind::Tls => BrokerError::Tls(format!("{urls}: {what}")),
        // A refused certificate reaches async-nats as the handshake's I/O error.
        ConnectErrorKind::Io if is_tls(&e) => BrokerError::Tls(format!("{urls}: {what}")),
        ConnectErrorKind::TimedOut => BrokerError::Timeout,
        ConnectErrorKind::ServerParse => BrokerError::BadUrl(urls.to_string()),
        _ => BrokerError::Io(std::io::Error::other(format!("{urls}: {what}"))),
    }
}

/// Whether a rustls error is in `e`'s chain (inside an I/O error: tokio-rustls wraps
/// handshake failures so).
fn is_tls(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(x) = cur {
        let inner = x
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .map(|i| i as &(dyn std::error::Error + 'static));
        if x.is::<async_nats::rustls::Error>()
            || inner.is_some_and(|i| i.is::<async_nats::rustls::Error>())
        {
            return true;
        }
        cur = x.source();
    }
    false
}

/// A blocking core-NATS connection.
pub struct Client {
    pub(crate) inner: async_nats::Client,
    subs: HashMap<u64, async_nats::Subscriber>,
    next_sid: u64,
    /// The server's `INFO`, as JSON (`server_id`, `version`, `jetstream`,
    /// `max_payload`, `headers`, `tls_required`, `auth_required`, `connect_urls`).
    pub server_info: serde_json::Value,
}

impl Client {
    /// Connects to `endpoint` (a URL, or an [`Endpoint`] with credentials), waiting at
    /// most `timeout` per server tried.
    pub fn connect(endpoint: impl Into<Endpoint>, timeout: Duration) -> Result<Client> {
        let ep = endpoint.into();
        let addrs = ep.addrs()?;
        let opts = ep.options(timeout)?;
        // Each server gets `timeout`; the whole attempt a little more than all of them.
        let total = timeout * (addrs.len() as u32) + Duration::from_secs(1);
        let rt = runtime()?;
        let inner = rt
            .block_on(async { tokio::time::timeout(total, opts.connect(addrs)).await })
            .map_err(|_| BrokerError::Timeout)?
            .map_err(|e| connect_error(&ep.urls, e))?;
        let i = inner.server_info();
        let server_info = serde_json::json!({
            "server_id": i.server_id, "version": i.version, "jetstream": i.jetstream,
            "max_payload": i.max_payload, "headers": i.headers,
            "tls_required": i.tls_required, "auth_required": i.auth_required,
            "connect_urls": i.connect_urls,
        });
        Ok(Client {
            inner,
            subs: HashMap::new(),
            next_sid: 1,
            server_info,
        })
    }

    /// The largest payload the server accepts.
    pub fn max_payload(&self) -> usize {
        self.inner.server_info().max_payload
    }

    /// Publishes `payload` on `subject` (with `reply` and headers, if given). Checks
    /// the subject, the headers and the size first: nothing invalid is sent.
    pub fn publish(
        &mut self,
        subject: &str,
        reply: Option<&str>,
        headers: &[(&str, &str)],
        payload: &[u8],
    ) -> Result<()> {
        check_subject(subject)?;
        if let Some(r) = reply {
            check_subject(r)?;
        }
        if payload.len() > self.max_payload() {
            return Err(BrokerError::Protocol(format!(
                "a message of {} bytes exceeds the server's max_payload of {}",
                payload.len(),
                self.max_payload()
            )));
        }
        let h = header_map(headers)?;
        let body = bytes::Bytes::copy_from_slice(payload);
        let (c, s) = (&self.inner, subject.to_string());
        let r = runtime()?.block_on(async move {
            match (reply, h) {
                (Some(r), Some(h)) => {
                    c.publish_with_reply_and_headers(s, r.to_string(), h, body)
                        .await
                }
                (Some(r), None) => c.publish_with_reply(s, r.to_string(), body).await,
                (None, Some(h)) => c.publish_with_headers(s, h, body).await,
                (None, None) => c.publish(s, body).await,
            }
        });
        r.map_err(|e| BrokerError::Protocol(chain(&e)))
    }

    /// Subscribes to `subject` (wildcards allowed); returns the subscription's id.
    pub fn subscribe(&mut self, subject: &str) -> Result<u64> {
        check_subject(subject)?;
        let c = &self.inner;
        let sub = runtime()?
            .block_on(c.subscribe(subject.to_string()))
            .map_err(|e| BrokerError::Protocol(chain(&e)))?;
        let sid = self.next_sid;
        self.next_sid += 1;
        self.subs.insert(sid, sub);
        Ok(sid)
    }

    /// Ends subscription `sid`.
    pub fn unsubscribe(&mut self, sid: u64) -> Result<()> {
        if let Some(mut s) = self.subs.remove(&sid) {
            runtime()?
                .block_on(s.unsubscribe())
                .map_err(|e| BrokerError::Protocol(chain(&e)))?;
        }
        Ok(())
    }

    /// Waits until the server has seen everything sent so far (e.g. a subscription
    /// is in place before another connection publishes to it).
    pub fn flush(&mut self, timeout: Duration) -> Result<()> {
        let c = &self.inner;
        runtime()?
            .block_on(async { tokio::time::timeout(timeout, c.flush()).await })
            .map_err(|_| BrokerError::Timeout)?
            .map_err(|e| BrokerError::Io(std::io::Error::other(chain(&e))))?;
        // async-nats' `flush` only empties the socket buffer; the server's answer to
        // a request nobody listens to (503 no responders, docs.nats.io "Request-Reply
        // Semantics") proves it has processed everything sent before, in order.
        let probe = c.new_inbox();
        match self.request(&probe, &[], b"", timeout) {
            Err(BrokerError::NoResponders) => Ok(()),
            Err(e) => Err(e),
            Ok(_) => Ok(()),
        }
    }

    /// The next message of subscription `sid`, waiting at most `timeout` (`None`:
    /// nothing came).
    pub fn next_message(&mut self, sid: u64, timeout: Duration) -> Result<Option<Message>> {
        let sub = self
            .subs
            .get_mut(&sid)
            .ok_or_else(|| BrokerError::Protocol(format!("no subscription {sid}")))?;
        match runtime()?.block_on(async { tokio::time::timeout(timeout, sub.next()).await }) {
            Err(_) => Ok(None),
            Ok(Some(m)) => Ok(Some(Message::from_nats(m, sid))),
            Ok(None) => Err(BrokerError::Io(std::io::Error::other(
                "the subscription was closed",
            ))),
        }
    }

    /// Sends a request and waits at most `timeout` for the reply.
    pub fn request(
        &mut self,
        subject: &str,
        headers: &[(&str, &str)],
        payload: &[u8],
        timeout: Duration,
    ) -> Result<Message> {
        check_subject(subject)?;
        let mut req = async_nats::Request::new()
            .payload(bytes::Bytes::copy_from_slice(payload))
            .timeout(Some(timeout));
        if let Some(h) = header_map(headers)? {
            req = req.headers(h);
        }
        let c = &self.inner;
        let r = runtime()?.block_on(c.send_request(subject.to_string(), req));
        match r {
            Ok(m) => Ok(Message::from_nats(m, 0)),
            Err(e) => Err(request_error(e)),
        }
    }
}

pub(crate) fn request_error(e: async_nats::RequestError) -> BrokerError {
    use async_nats::RequestErrorKind as K;
    match e.kind() {
        K::NoResponders => BrokerError::NoResponders,
        K::TimedOut => BrokerError::Timeout,
        _ => BrokerError::Io(std::io::Error::other(chain(&e))),
    }
}

/// A subject: dot-separated tokens, no whitespace (docs.nats.io, "Subject-Based
/// Messaging").
pub(crate) fn check_subject(s: &str) -> Result<()> {
    if s.is_empty() || s.split('.').any(str::is_empty) || s.bytes().any(|b| b <= b' ' || b == 0x7f)
    {
        return Err(BrokerError::Protocol(format!("invalid subject {s:?}")));
    }
    Ok(())
}

/// Headers as async-nats wants them; names and values are checked here because
/// async-nats' `HeaderMap::insert` panics on a bad name and rewrites CR/LF in values.
pub(crate) fn header_map(headers: &[(&str, &str)]) -> Result<Option<async_nats::HeaderMap>> {
    if headers.is_empty() {
        return Ok(None);
    }
    let mut h = async_nats::HeaderMap::new();
    for (k, v) in headers {
        let name_ok = !k.is_empty() && k.bytes().all(|b| b.is_ascii_graphic() && b != b':');
        if !name_ok || v.contains(['\r', '\n']) {
            return Err(BrokerError::Protocol(format!(
                "invalid header {k:?}: {v:?}"
            )));
        }
        h.append(*k, *v);
    }
    Ok(Some(h))
}
