//! The connection: the NATS client protocol over one blocking TCP stream.
//!
//! Frames are parsed from an owned buffer only once complete, so a read that times
//! out in the middle of a frame loses nothing: the next call goes on from the bytes
//! already read. Messages for other subscriptions than the one waited for are queued
//! (bounded) in arrival order. The server's `PING`s are answered while waiting.

use std::collections::VecDeque;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::{BrokerError, Result};

/// Longest control line accepted (an `INFO` line is about 1 KiB).
const MAX_LINE: usize = 64 * 1024;
/// Most messages queued for subscriptions nobody is waiting on.
const MAX_QUEUED: usize = 65_536;
/// Largest payload accepted whatever the server announces (its own limit is 64 MiB).
const MAX_PAYLOAD: usize = 64 * 1024 * 1024;

/// One message received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The subject it was published to.
    pub subject: String,
    /// The subscription it arrived on.
    pub sid: u64,
    /// Where an answer (or a JetStream ack) goes.
    pub reply: Option<String>,
    /// The status of a status message (`NATS/1.0 404 No Messages`), if any.
    pub status: Option<u16>,
    /// The status description, if any.
    pub description: String,
    /// Header fields in order.
    pub headers: Vec<(String, String)>,
    /// The payload.
    pub payload: Vec<u8>,
}

impl Message {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A frame from the server.
#[derive(Debug)]
enum Frame {
    Info(serde_json::Value),
    Msg(Message),
    Ping,
    Pong,
    Ok,
    Err(String),
}

/// A connection to a NATS server.
pub struct Client {
    sock: TcpStream,
    buf: Vec<u8>,
    next_sid: u64,
    inbox: String,
    inbox_sid: Option<u64>,
    next_token: u64,
    queued: VecDeque<Message>,
    max_payload: usize,
    /// The server's `INFO` (version, `jetstream`, `max_payload`, ...).
    pub server_info: serde_json::Value,
}

/// A random 64-bit value from the standard library's per-process random keys.
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

/// `HOST:PORT` from `nats://HOST:PORT` or `HOST:PORT`.
fn host_port(url: &str) -> Result<&str> {
    let rest = url.strip_prefix("nats://").unwrap_or(url);
    let rest = rest.trim_end_matches('/');
    let valid = rest
        .rsplit_once(':')
        .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok_and(|p| p > 0));
    if !valid || rest.contains('/') || rest.contains('@') {
        return Err(BrokerError::BadUrl(url.to_string()));
    }
    Ok(rest)
}

/// Checks a subject (or reply subject): non-empty, no whitespace.
fn check_subject(s: &str) -> Result<()> {
    if s.is_empty()
        || s.bytes()
            .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
    {
        return Err(BrokerError::Protocol(format!("invalid subject {s:?}")));
    }
    Ok(())
}

impl Client {
    /// Connects to `url` (`nats://HOST:PORT`), waits for the server's `INFO`, sends
    /// `CONNECT` (headers on, no echo of our own messages) and checks the answer with
    /// a `PING`, all within `timeout`.
    pub fn connect(url: &str, timeout: Duration) -> Result<Client> {
        let hp = host_port(url)?;
        let addr = hp
            .to_socket_addrs()
            .map_err(|_| BrokerError::BadUrl(url.to_string()))?
            .next()
            .ok_or_else(|| BrokerError::BadUrl(url.to_string()))?;
        let sock = TcpStream::connect_timeout(&addr, timeout)?;
        sock.set_nodelay(true)?;
        let mut c = Client {
            sock,
            buf: Vec::new(),
            next_sid: 1,
            inbox: format!("_INBOX.{:016x}", random_u64()),
            inbox_sid: None,
            next_token: 0,
            queued: VecDeque::new(),
            max_payload: 1024 * 1024,
            server_info: serde_json::Value::Null,
        };
        let deadline = Instant::now() + timeout;
        match c.read_frame(deadline)? {
            Some(Frame::Info(info)) => {
                if let Some(m) = info.get("max_payload").and_then(|v| v.as_u64()) {
                    c.max_payload = (m as usize).min(MAX_PAYLOAD);
                }
                c.server_info = info;
            }
            Some(other) => {
                return Err(BrokerError::Protocol(format!(
                    "expected INFO first, got {other:?}"
                )))
            }
            None => return Err(BrokerError::Timeout),
        }
        let connect = serde_json::json!({
            "verbose": false, "pedantic": false, "headers": true, "no_responders": true,
            "echo": false, "protocol": 1, "lang": "rust-mahjong-broker",
            "version": env!("CARGO_PKG_VERSION"),
        });
        c.write(format!("CONNECT {connect}\r\nPING\r\n").as_bytes())?;
        c.wait_pong(deadline)?;
        Ok(c)
    }

    /// The largest payload (headers included) the server accepts.
    pub fn max_payload(&self) -> usize {
        self.max_payload
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.sock.write_all(bytes)?;
        Ok(())
    }

    /// Publishes `payload` to `subject` with optional `reply` subject and headers.
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
        let mut head = Vec::new();
        if !headers.is_empty() {
            head.extend_from_slice(b"NATS/1.0\r\n");
            for (k, v) in headers {
                let bad = |s: &str| s.contains(['\r', '\n']);
                if k.is_empty() || bad(k) || k.contains(':') || bad(v) {
                    return Err(BrokerError::Protocol(format!(
                        "invalid header {k:?}: {v:?}"
                    )));
                }
                head.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
            }
            head.extend_from_slice(b"\r\n");
        }
        let total = head.len() + payload.len();
        if total > self.max_payload {
            return Err(BrokerError::Protocol(format!(
                "message of {total} bytes exceeds the server's max_payload {}",
                self.max_payload
            )));
        }
        let reply = reply.map(|r| format!(" {r}")).unwrap_or_default();
        let mut frame = if head.is_empty() {
            format!("PUB {subject}{reply} {total}\r\n").into_bytes()
        } else {
            format!("HPUB {subject}{reply} {} {total}\r\n", head.len()).into_bytes()
        };
        frame.reserve(total + 2);
        frame.extend_from_slice(&head);
        frame.extend_from_slice(payload);
        frame.extend_from_slice(b"\r\n");
        self.write(&frame)
    }

    /// Subscribes to `subject` (wildcards `*` and `>` allowed); returns the id that
    /// [`Client::next_message`] waits on.
    pub fn subscribe(&mut self, subject: &str) -> Result<u64> {
        check_subject(subject)?;
        let sid = self.next_sid;
        self.next_sid += 1;
        self.write(format!("SUB {subject} {sid}\r\n").as_bytes())?;
        Ok(sid)
    }

    /// Ends subscription `sid` and drops its queued messages.
    pub fn unsubscribe(&mut self, sid: u64) -> Result<()> {
        self.queued.retain(|m| m.sid != sid);
        self.write(format!("UNSUB {sid}\r\n").as_bytes())
    }

    /// Round trip to the server: everything written before has been processed.
    pub fn flush(&mut self, timeout: Duration) -> Result<()> {
        self.write(b"PING\r\n")?;
        self.wait_pong(Instant::now() + timeout)
    }

    fn wait_pong(&mut self, deadline: Instant) -> Result<()> {
        loop {
            match self.read_frame(deadline)? {
                Some(Frame::Pong) => return Ok(()),
                Some(Frame::Err(e)) => return Err(BrokerError::Server(e)),
                Some(Frame::Msg(m)) => self.queue(m)?,
                Some(Frame::Ping) => self.write(b"PONG\r\n")?,
                Some(Frame::Info(_) | Frame::Ok) => {}
                None => return Err(BrokerError::Timeout),
            }
        }
    }

    fn queue(&mut self, m: Message) -> Result<()> {
        if self.queued.len() >= MAX_QUEUED {
            return Err(BrokerError::Protocol(format!(
                "more than {MAX_QUEUED} messages queued for subscriptions nobody reads"
            )));
        }
        self.queued.push_back(m);
        Ok(())
    }

    /// The next message of subscription `sid`, or `None` when `timeout` passes first.
    pub fn next_message(&mut self, sid: u64, timeout: Duration) -> Result<Option<Message>> {
        if let Some(i) = self.queued.iter().position(|m| m.sid == sid) {
            return Ok(self.queued.remove(i));
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.read_frame(deadline)? {
                Some(Frame::Msg(m)) if m.sid == sid => return Ok(Some(m)),
                Some(Frame::Msg(m)) => self.queue(m)?,
                Some(Frame::Ping) => self.write(b"PONG\r\n")?,
                Some(Frame::Err(e)) => return Err(BrokerError::Server(e)),
                Some(Frame::Info(_) | Frame::Ok | Frame::Pong) => {}
                None => return Ok(None),
            }
        }
    }

    /// A fresh reply subject under this connection's inbox (subscribed once).
    pub fn new_inbox(&mut self) -> Result<(u64, String)> {
        let sid = match self.inbox_sid {
            Some(s) => s,
            None => {
                let s = self.subscribe(&format!("{}.*", self.inbox))?;
                self.inbox_sid = Some(s);
                s
            }
        };
        self.next_token += 1;
        Ok((sid, format!("{}.{}", self.inbox, self.next_token)))
    }

    /// Publishes a request and waits for its answer (replies to earlier requests
    /// that timed out are discarded). A `503` status answer is
    /// [`BrokerError::NoResponders`].
    pub fn request(
        &mut self,
        subject: &str,
        headers: &[(&str, &str)],
        payload: &[u8],
        timeout: Duration,
    ) -> Result<Message> {
        let (sid, reply) = self.new_inbox()?;
        self.publish(subject, Some(&reply), headers, payload)?;
        self.wait_reply(sid, &reply, Instant::now() + timeout)
    }

    /// Waits on inbox subscription `sid` for the message sent to `reply`.
    pub(crate) fn wait_reply(
        &mut self,
        sid: u64,
        reply: &str,
        deadline: Instant,
    ) -> Result<Message> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self.next_message(sid, left)?.ok_or(BrokerError::Timeout)?;
            if m.subject != reply {
                continue;
            }
            if m.status == Some(503) {
                return Err(BrokerError::NoResponders);
            }
            return Ok(m);
        }
    }

    /// Reads until one complete frame is buffered (or the deadline passes: `None`).
    fn read_frame(&mut self, deadline: Instant) -> Result<Option<Frame>> {
        loop {
            if let Some((frame, used)) = parse_frame(&self.buf, self.max_payload)? {
                self.buf.drain(..used);
                return Ok(Some(frame));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            self.sock.set_read_timeout(Some(left))?;
            let mut chunk = [0u8; 64 * 1024];
            match self.sock.read(&mut chunk) {
                Ok(0) => {
                    return Err(BrokerError::Io(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "the server closed the connection",
                    )))
                }
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(None)
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// How many bytes the complete frame at the start of `buf` takes (`None`: not complete
/// yet), or why it is malformed: the parser a connection runs on what it reads, for
/// the fuzz target (`scripts/fuzz 60 nats_frames`).
pub fn frame_length(buf: &[u8], max_payload: usize) -> Result<Option<usize>> {
    Ok(parse_frame(buf, max_payload)?.map(|(_, used)| used))
}

fn protocol(msg: impl Into<String>) -> BrokerError {
    BrokerError::Protocol(msg.into())
}

fn number(s: &str) -> Result<usize> {
    s.parse::<usize>()
        .map_err(|_| protocol(format!("bad number {s:?}")))
}

/// Parses one frame from the start of `buf`: `Ok(None)` if it is not complete yet,
/// with the number of bytes it used.
fn parse_frame(buf: &[u8], max_payload: usize) -> Result<Option<(Frame, usize)>> {
    let Some(end) = buf.windows(2).position(|w| w == b"\r\n") else {
        if buf.len() > MAX_LINE {
            return Err(protocol("control line too long"));
        }
        return Ok(None);
    };
    if end > MAX_LINE {
        return Err(protocol("control line too long"));
    }
    let line =
        std::str::from_utf8(&buf[..end]).map_err(|_| protocol("control line is not UTF-8"))?;
    let after = end + 2;
    let (op, rest) = line.split_once([' ', '\t']).unwrap_or((line, ""));
    let rest = rest.trim();
    let frame = match op.to_ascii_uppercase().as_str() {
        "PING" => Frame::Ping,
        "PONG" => Frame::Pong,
        "+OK" => Frame::Ok,
        "-ERR" => Frame::Err(rest.trim_matches('\'').to_string()),
        "INFO" => {
            Frame::Info(serde_json::from_str(rest).map_err(|e| protocol(format!("bad INFO: {e}")))?)
        }
        "MSG" | "HMSG" => {
            let args: Vec<&str> = rest.split_ascii_whitespace().collect();
            let with_headers = op.eq_ignore_ascii_case("HMSG");
            let sizes = if with_headers { 2 } else { 1 };
            if args.len() != 2 + sizes && args.len() != 3 + sizes {
                return Err(protocol(format!("bad {op} line {line:?}")));
            }
            let reply = (args.len() == 3 + sizes).then(|| args[2].to_string());
            let total = number(args[args.len() - 1])?;
            let head_len = if with_headers {
                number(args[args.len() - 2])?
            } else {
                0
            };
            if total > max_payload.max(MAX_PAYLOAD) || head_len > total {
                return Err(protocol(format!("bad sizes in {line:?}")));
            }
            if buf.len() < after + total + 2 {
                return Ok(None);
            }
            if &buf[after + total..after + total + 2] != b"\r\n" {
                return Err(protocol("payload not followed by CRLF"));
            }
            let (status, description, headers) = if with_headers {
                parse_headers(&buf[after..after + head_len])?
            } else {
                (None, String::new(), Vec::new())
            };
            let m = Message {
                subject: args[0].to_string(),
                sid: args[1]
                    .parse()
                    .map_err(|_| protocol(format!("bad sid in {line:?}")))?,
                reply,
                status,
                description,
                headers,
                payload: buf[after + head_len..after + total].to_vec(),
            };
            return Ok(Some((Frame::Msg(m), after + total + 2)));
        }
        _ => return Err(protocol(format!("unknown operation {op:?}"))),
    };
    Ok(Some((frame, after)))
}

type Headers = (Option<u16>, String, Vec<(String, String)>);

/// `NATS/1.0[ CODE[ DESCRIPTION]]` then `Key: Value` lines.
fn parse_headers(block: &[u8]) -> Result<Headers> {
    let text = std::str::from_utf8(block).map_err(|_| protocol("headers are not UTF-8"))?;
    let mut lines = text.split("\r\n");
    let first = lines.next().unwrap_or("");
    let rest = first
        .strip_prefix("NATS/1.0")
        .ok_or_else(|| protocol(format!("bad header version line {first:?}")))?
        .trim();
    let (status, description) = if rest.is_empty() {
        (None, String::new())
    } else {
        let (code, desc) = rest.split_once(' ').unwrap_or((rest, ""));
        let code = code
            .parse::<u16>()
            .map_err(|_| protocol(format!("bad status {code:?}")))?;
        (Some(code), desc.trim().to_string())
    };
    let mut headers = Vec::new();
    for l in lines.filter(|l| !l.is_empty()) {
        let (k, v) = l
            .split_once(':')
            .ok_or_else(|| protocol(format!("bad header line {l:?}")))?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok((status, description, headers))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            host_port("nats://127.0.0.1:4222").unwrap(),
            "127.0.0.1:4222"
        );
        assert_eq!(host_port("localhost:1").unwrap(), "localhost:1");
        for bad in [
            "",
            "nats://",
            "nats://host",
            "host:0",
            "host:99999",
            "nats://a:1/x",
            "nats://u@h:1",
            ":1",
        ] {
            assert!(
                matches!(host_port(bad), Err(BrokerError::BadUrl(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn frames_parse_whole_or_wait() {
        let msg = b"HMSG a.b 7 _INBOX.x.1 28 33\r\nNATS/1.0 404 No Messages\r\n\r\nhello\r\n";
        for cut in 0..msg.len() {
            assert!(
                parse_frame(&msg[..cut], 1 << 20).unwrap().is_none(),
                "{cut}"
            );
        }
        let (f, used) = parse_frame(msg, 1 << 20).unwrap().unwrap();
        assert_eq!(used, msg.len());
        let Frame::Msg(m) = f else { panic!("{f:?}") };
        assert_eq!((m.subject.as_str(), m.sid, m.status), ("a.b", 7, Some(404)));
        assert_eq!(m.reply.as_deref(), Some("_INBOX.x.1"));
        assert_eq!(m.description, "No Messages");
        assert_eq!(m.payload, b"hello");
        let (f, _) = parse_frame(b"MSG s 1 3\r\nabc\r\n", 10).unwrap().unwrap();
        assert!(matches!(f, Frame::Msg(Message { ref payload, .. }) if payload == b"abc"));
        assert!(matches!(
            parse_frame(b"PING\r\n", 1).unwrap(),
            Some((Frame::Ping, 6))
        ));
    }

    #[test]
    fn malformed_frames_are_errors() {
        for bad in [
            &b"BOGUS\r\n"[..],
            b"MSG s 1\r\n",
            b"MSG s x 3\r\nabc\r\n",
            b"MSG s 1 3\r\nabcXY",
            b"HMSG s 1 9 3\r\nabc\r\n",
            b"HMSG s 1 3 3\r\nabc\r\n",
            b"INFO {nope\r\n",
            b"MSG s 1 99999999999999999999\r\n",
        ] {
            assert!(
                parse_frame(bad, 1 << 20).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert!(parse_frame(&vec![b'x'; MAX_LINE + 10], 1).is_err());
    }

    proptest::proptest! {
        /// Whatever the network sends, parsing returns (a frame, "not yet" or an
        /// error) and never claims more bytes than it was given.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            if let Ok(Some((_, used))) = parse_frame(&bytes, 1 << 20) {
                proptest::prop_assert!(used <= bytes.len());
            }
        }

        /// Frames built from arbitrary parts parse back to those parts.
        #[test]
        fn messages_round_trip(subject in "[a-z]{1,8}(\\.[a-z0-9]{1,8}){0,3}", sid in 1u64..1000,
                               payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let mut frame = format!("MSG {subject} {sid} {}\r\n", payload.len()).into_bytes();
            frame.extend_from_slice(&payload);
            frame.extend_from_slice(b"\r\n");
            let (f, used) = parse_frame(&frame, 1 << 20).unwrap().unwrap();
            proptest::prop_assert_eq!(used, frame.len());
            let Frame::Msg(m) = f else { return Err(proptest::test_runner::TestCaseError::fail("not a MSG")) };
            proptest::prop_assert_eq!((m.subject, m.sid, m.payload), (subject, sid, payload));
        }
    }
}
