//! JetStream over [`Client`]: streams, durable pull consumers with explicit acks,
//! de-duplicated publishes, and key-value buckets.
//!
//! Every call is a request to the server's `$JS.API.*` subjects with a JSON body
//! (ADR-1 of the NATS architecture decisions); an answer with an `error` object is
//! [`BrokerError::Api`]. Key-value buckets follow the convention every NATS client
//! uses (ADR-8): bucket `B` is the stream `KV_B` on subjects `$KV.B.>`, one message
//! kept per subject; a value is read with `DIRECT.GET` (ADR-31).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::client::{Client, Message};
use crate::{BrokerError, Result};

/// What a stream keeps and refuses.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamConfig {
    /// Stream name (letters, digits, `-`, `_`).
    pub name: String,
    /// Subjects it captures.
    pub subjects: Vec<String>,
    /// Work queue (a message is deleted once acked) rather than limits retention.
    pub work_queue: bool,
    /// Refuse new messages when full (the publisher backs off) rather than drop old.
    pub discard_new: bool,
    /// Most messages kept (-1: no limit).
    pub max_msgs: i64,
    /// Most bytes kept (-1: no limit).
    pub max_bytes: i64,
    /// Largest message accepted (-1: the server's limit).
    pub max_msg_size: i32,
    /// Messages kept per subject (-1: no limit; 1 for a key-value bucket).
    pub max_msgs_per_subject: i64,
    /// How long a message id is remembered to drop duplicates.
    pub duplicate_window: Duration,
    /// Serve `DIRECT.GET` reads.
    pub allow_direct: bool,
}

impl StreamConfig {
    /// A file-stored work-queue stream on `subjects`, no limits set.
    pub fn work_queue(name: &str, subjects: &[&str]) -> StreamConfig {
        StreamConfig {
            name: name.to_string(),
            subjects: subjects.iter().map(|s| s.to_string()).collect(),
            work_queue: true,
            discard_new: true,
            max_msgs: -1,
            max_bytes: -1,
            max_msg_size: -1,
            max_msgs_per_subject: -1,
            duplicate_window: Duration::from_secs(120),
            allow_direct: false,
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "subjects": self.subjects,
            "retention": if self.work_queue { "workqueue" } else { "limits" },
            "discard": if self.discard_new { "new" } else { "old" },
            "storage": "file",
            "num_replicas": 1,
            "max_msgs": self.max_msgs,
            "max_bytes": self.max_bytes,
            "max_msg_size": self.max_msg_size,
            "max_msgs_per_subject": self.max_msgs_per_subject,
            "max_age": 0,
            "duplicate_window": self.duplicate_window.as_nanos() as u64,
            "allow_direct": self.allow_direct,
        })
    }
}

/// A durable pull consumer with explicit acks.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerConfig {
    /// Its durable name (survives restarts of the server and of its readers).
    pub durable: String,
    /// How long a delivered message may go unacked before it is delivered again.
    pub ack_wait: Duration,
    /// Most messages delivered and not yet acked.
    pub max_ack_pending: i64,
}

/// The server's acknowledgement of a published message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PubAck {
    /// The stream that stored it.
    pub stream: String,
    /// Its sequence number in the stream.
    pub seq: u64,
    /// The message id was seen within the duplicate window: nothing new was stored.
    pub duplicate: bool,
}

/// Where a delivered message stands (parsed from its `$JS.ACK` reply subject).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Its sequence number in the stream.
    pub stream_seq: u64,
    /// How many times it has been delivered (1 the first time).
    pub delivered: u64,
}

impl Delivery {
    /// Reads `$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<ts>.<pending>`
    /// (and the longer form with domain and account hash in front).
    pub fn of(m: &Message) -> Option<Delivery> {
        let reply = m.reply.as_deref()?;
        let tokens: Vec<&str> = reply.split('.').collect();
        if tokens.first() != Some(&"$JS") || tokens.get(1) != Some(&"ACK") {
            return None;
        }
        // v1: 9 tokens, counters from index 4; v2: ≥ 11 tokens, from index 6.
        let at = match tokens.len() {
            9 => 4,
            n if n >= 11 => 6,
            _ => return None,
        };
        Some(Delivery {
            delivered: tokens.get(at)?.parse().ok()?,
            stream_seq: tokens.get(at + 1)?.parse().ok()?,
        })
    }
}

/// Checks a stream, consumer or bucket name.
fn check_name(kind: &str, s: &str) -> Result<()> {
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(BrokerError::Protocol(format!("invalid {kind} name {s:?}")));
    }
    Ok(())
}

/// Checks a key-value key (tokens of letters, digits, `-`, `_`, `=`, `/`).
fn check_key(s: &str) -> Result<()> {
    let token_ok = |t: &str| {
        !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'=' | b'/'))
    };
    if !s.split('.').all(token_ok) {
        return Err(BrokerError::Protocol(format!("invalid key {s:?}")));
    }
    Ok(())
}

/// JetStream through one connection.
pub struct JetStream {
    client: Client,
    timeout: Duration,
}

impl JetStream {
    /// Wraps `client`; `timeout` bounds each API request.
    pub fn new(client: Client, timeout: Duration) -> JetStream {
        JetStream { client, timeout }
    }

    /// Connects to `url` and wraps the connection.
    pub fn connect(url: &str, timeout: Duration) -> Result<JetStream> {
        Ok(JetStream::new(Client::connect(url, timeout)?, timeout))
    }

    /// The connection underneath.
    pub fn client(&mut self) -> &mut Client {
        &mut self.client
    }

    fn api(&mut self, subject: &str, body: &Value) -> Result<Value> {
        let body = serde_json::to_vec(body).map_err(|e| BrokerError::Protocol(e.to_string()))?;
        let m = self.client.request(subject, &[], &body, self.timeout)?;
        parse_api(&m.payload)
    }

    /// Creates the stream, or checks that an identical one exists.
    pub fn create_stream(&mut self, cfg: &StreamConfig) -> Result<Value> {
        check_name("stream", &cfg.name)?;
        self.api(
            &format!("$JS.API.STREAM.CREATE.{}", cfg.name),
            &cfg.to_json(),
        )
    }

    /// The stream's info (`config` and `state`: `messages`, `bytes`, `first_seq`, ...).
    pub fn stream_info(&mut self, name: &str) -> Result<Value> {
        check_name("stream", name)?;
        self.api(&format!("$JS.API.STREAM.INFO.{name}"), &json!({}))
    }

    /// Publishes to a stream's subject and waits for the server's ack; `msg_id`
    /// (header `Nats-Msg-Id`) makes a re-publish within the duplicate window a no-op.
    /// A full stream with `discard: new` answers [`BrokerError::Api`] with
    /// [`BrokerError::is_full`].
    pub fn publish(
        &mut self,
        subject: &str,
        msg_id: Option<&str>,
        payload: &[u8],
    ) -> Result<PubAck> {
        let headers: Vec<(&str, &str)> = msg_id.map(|id| ("Nats-Msg-Id", id)).into_iter().collect();
        self.publish_headers(subject, &headers, payload)
    }

    /// [`JetStream::publish`] with message id `msg_id` and more header fields.
    pub fn publish_with_headers(
        &mut self,
        subject: &str,
        msg_id: &str,
        extra: &[(&str, &str)],
        payload: &[u8],
    ) -> Result<PubAck> {
        let mut headers = vec![("Nats-Msg-Id", msg_id)];
        headers.extend_from_slice(extra);
        self.publish_headers(subject, &headers, payload)
    }

    fn publish_headers(
        &mut self,
        subject: &str,
        headers: &[(&str, &str)],
        payload: &[u8],
    ) -> Result<PubAck> {
        let m = self
            .client
            .request(subject, headers, payload, self.timeout)?;
        let v = parse_api(&m.payload)?;
        Ok(PubAck {
            stream: v["stream"].as_str().unwrap_or_default().to_string(),
            seq: v["seq"]
                .as_u64()
                .ok_or_else(|| BrokerError::Protocol(format!("publish ack without seq: {v}")))?,
            duplicate: v["duplicate"].as_bool().unwrap_or(false),
        })
    }

    /// Creates the durable pull consumer (or finds the identical one).
    pub fn create_consumer(&mut self, stream: &str, cfg: &ConsumerConfig) -> Result<Value> {
        check_name("stream", stream)?;
        check_name("consumer", &cfg.durable)?;
        let body = json!({
            "stream_name": stream,
            "config": {
                "durable_name": cfg.durable,
                "ack_policy": "explicit",
                "deliver_policy": "all",
                "ack_wait": cfg.ack_wait.as_nanos() as u64,
                "max_ack_pending": cfg.max_ack_pending,
                "max_deliver": -1,
            }
        });
        self.api(
            &format!("$JS.API.CONSUMER.CREATE.{stream}.{}", cfg.durable),
            &body,
        )
    }

    /// Deletes the durable consumer `durable` of `stream` (its unacked messages stay in
    /// a work-queue stream, for the next consumer).
    pub fn delete_consumer(&mut self, stream: &str, durable: &str) -> Result<Value> {
        check_name("stream", stream)?;
        check_name("consumer", durable)?;
        self.api(
            &format!("$JS.API.CONSUMER.DELETE.{stream}.{durable}"),
            &json!({}),
        )
    }

    /// The next message for durable consumer `durable` of `stream`, waiting at most
    /// `max_wait` (`None` when nothing came). Ack it with [`JetStream::ack`].
    pub fn fetch(
        &mut self,
        stream: &str,
        durable: &str,
        max_wait: Duration,
    ) -> Result<Option<Message>> {
        check_name("stream", stream)?;
        check_name("consumer", durable)?;
        let (sid, reply) = self.client.new_inbox()?;
        // The server ends the pull after `expires`; wait a little longer for its 408.
        let body = json!({"batch": 1, "expires": max_wait.as_nanos() as u64});
        let subject = format!("$JS.API.CONSUMER.MSG.NEXT.{stream}.{durable}");
        self.client
            .publish(&subject, Some(&reply), &[], body.to_string().as_bytes())?;
        let deadline = Instant::now() + max_wait + Duration::from_millis(500).max(self.timeout / 4);
        // A delivery arrives on the inbox under its own subject, with a `$JS.ACK`
        // reply; a status (404, 408) under the reply subject. A delivery answering an
        // earlier pull that timed out here is just as good (it is this consumer's).
        let m = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(m) = self.client.next_message(sid, left)? else {
                return Ok(None);
            };
            let delivery = m
                .reply
                .as_deref()
                .is_some_and(|r| r.starts_with("$JS.ACK."));
            if delivery || m.subject == reply {
                break m;
            }
        };
        match m.status {
            None => Ok(Some(m)),
            Some(404 | 408) => Ok(None),
            Some(code) => Err(BrokerError::Api {
                code,
                err_code: 0,
                description: m.description,
            }),
        }
    }

    /// Acknowledges a delivered message and waits for the server to confirm, so that
    /// an ack that returns was recorded.
    pub fn ack(&mut self, m: &Message) -> Result<()> {
        let reply = m
            .reply
            .as_deref()
            .filter(|r| r.starts_with("$JS.ACK."))
            .ok_or_else(|| BrokerError::Protocol("the message has no ack subject".into()))?;
        let timeout = self.timeout;
        self.client.request(reply, &[], b"+ACK", timeout)?;
        Ok(())
    }

    /// Creates key-value bucket `bucket` (one value kept per key, values up to
    /// `max_value_size` bytes), or finds the identical one.
    pub fn kv_create(&mut self, bucket: &str, max_value_size: i32) -> Result<Value> {
        check_name("bucket", bucket)?;
        let cfg = StreamConfig {
            work_queue: false,
            discard_new: true,
            max_msg_size: max_value_size,
            max_msgs_per_subject: 1,
            allow_direct: true,
            ..StreamConfig::work_queue(&format!("KV_{bucket}"), &[&format!("$KV.{bucket}.>")])
        };
        let mut body = cfg.to_json();
        body["allow_rollup_hdrs"] = json!(true);
        body["deny_delete"] = json!(true);
        body["discard_new_per_subject"] = json!(false);
        self.api(&format!("$JS.API.STREAM.CREATE.{}", cfg.name), &body)
    }

    /// Writes `value` under `key`; returns its revision (the stream sequence).
    pub fn kv_put(&mut self, bucket: &str, key: &str, value: &[u8]) -> Result<u64> {
        check_name("bucket", bucket)?;
        check_key(key)?;
        Ok(self
            .publish(&format!("$KV.{bucket}.{key}"), None, value)?
            .seq)
    }

    /// The latest value of `key` with its revision, `None` if never written (or the
    /// bucket does not exist yet).
    pub fn kv_get(&mut self, bucket: &str, key: &str) -> Result<Option<(u64, Vec<u8>)>> {
        check_name("bucket", bucket)?;
        check_key(key)?;
        let body = json!({"last_by_subj": format!("$KV.{bucket}.{key}")}).to_string();
        let timeout = self.timeout;
        // A bucket nobody has created has no responders: no value yet.
        let m = match self.client.request(
            &format!("$JS.API.DIRECT.GET.KV_{bucket}"),
            &[],
            body.as_bytes(),
            timeout,
        ) {
            Err(BrokerError::NoResponders) => return Ok(None),
            other => other?,
        };
        match m.status {
            Some(404) => Ok(None),
            Some(code) => Err(BrokerError::Api {
                code,
                err_code: 0,
                description: m.description,
            }),
            None => {
                let seq = m
                    .header("Nats-Sequence")
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| {
                        BrokerError::Protocol("direct get without Nats-Sequence".into())
                    })?;
                Ok(Some((seq, m.payload)))
            }
        }
    }
}

/// A JetStream API answer: the JSON, or its `error` as [`BrokerError::Api`].
fn parse_api(payload: &[u8]) -> Result<Value> {
    let v: Value = serde_json::from_slice(payload).map_err(|e| {
        BrokerError::Protocol(format!(
            "JetStream answer is not JSON ({e}): {:?}",
            String::from_utf8_lossy(&payload[..payload.len().min(200)])
        ))
    })?;
    if let Some(err) = v.get("error") {
        return Err(BrokerError::Api {
            code: err["code"].as_u64().unwrap_or(0) as u16,
            err_code: err["err_code"].as_u64().unwrap_or(0) as u32,
            description: err["description"].as_str().unwrap_or("").to_string(),
        });
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ack_subjects_give_the_delivery() {
        let mut m = Message {
            subject: "t".into(),
            sid: 1,
            reply: Some("$JS.ACK.TRAJ.learner.3.17.9.1700000000.4".into()),
            status: None,
            description: String::new(),
            headers: vec![],
            payload: vec![],
        };
        assert_eq!(
            Delivery::of(&m),
            Some(Delivery {
                stream_seq: 17,
                delivered: 3
            })
        );
        m.reply = Some("$JS.ACK.dom.acchash.TRAJ.learner.2.5.4.1700000000.0.tok".into());
        assert_eq!(
            Delivery::of(&m),
            Some(Delivery {
                stream_seq: 5,
                delivered: 2
            })
        );
        for bad in ["_INBOX.x", "$JS.ACK.a.b", "$JS.ACK.S.c.x.y.1.2.3"] {
            m.reply = Some(bad.into());
            assert_eq!(Delivery::of(&m), None, "{bad}");
        }
    }

    #[test]
    fn api_errors_are_typed() {
        let e = parse_api(
            br#"{"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"}}"#,
        )
        .unwrap_err();
        assert!(e.is_full(), "{e}");
        assert!(matches!(
            parse_api(b"not json"),
            Err(BrokerError::Protocol(_))
        ));
        assert!(parse_api(br#"{"stream":"S","seq":1}"#).is_ok());
    }

    #[test]
    fn names_and_keys_are_checked() {
        assert!(check_name("stream", "TRAJ_1-a").is_ok());
        for bad in ["", "a.b", "a b", "a*", "a>"] {
            assert!(check_name("stream", bad).is_err(), "{bad}");
        }
        assert!(check_key("params.latest").is_ok());
        for bad in ["", ".a", "a..b", "a b", "a*"] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
    }
}
