//! JetStream through async-nats' JetStream API (docs.rs/async-nats, module
//! `jetstream`), blocking: work-queue streams with `discard: new`, de-duplication by
//! message id (`Nats-Msg-Id`), durable pull consumers with explicit acks and
//! redelivery, and key-value buckets (docs.nats.io, "JetStream" › "Streams",
//! "Consumers", "Key/Value Store").

use std::collections::HashMap;
use std::time::Duration;

use async_nats::jetstream::{self, consumer, kv, stream};
use futures_util::StreamExt;
use serde_json::{json, Value};

use crate::client::{check_subject, header_map, Client, Endpoint, Message};
use crate::{chain, runtime, BrokerError, Result};

// Where a delivery stands lives beside the message that carries it.
pub use crate::client::Delivery;

/// A stream's settings (the ones the pipeline sets).
#[derive(Clone, Debug, PartialEq)]
pub struct StreamConfig {
    /// Its name.
    pub name: String,
    /// The subjects it stores.
    pub subjects: Vec<String>,
    /// Work-queue retention: a message leaves once acked.
    pub work_queue: bool,
    /// Refuse new messages when full (instead of dropping old ones).
    pub discard_new: bool,
    /// At most this many messages (-1: no limit).
    pub max_msgs: i64,
    /// At most this many bytes (-1: no limit).
    pub max_bytes: i64,
    /// Largest message (-1: the server's max_payload).
    pub max_msg_size: i32,
    /// At most this many messages per subject (-1: no limit).
    pub max_msgs_per_subject: i64,
    /// How long message ids are remembered for de-duplication.
    pub duplicate_window: Duration,
    /// Whether direct gets are allowed.
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

    fn to_nats(&self) -> stream::Config {
        stream::Config {
            name: self.name.clone(),
            subjects: self.subjects.clone(),
            retention: if self.work_queue {
                stream::RetentionPolicy::WorkQueue
            } else {
                stream::RetentionPolicy::Limits
            },
            discard: if self.discard_new {
                stream::DiscardPolicy::New
            } else {
                stream::DiscardPolicy::Old
            },
            storage: stream::StorageType::File,
            num_replicas: 1,
            max_messages: self.max_msgs,
            max_bytes: self.max_bytes,
            max_message_size: self.max_msg_size,
            max_messages_per_subject: self.max_msgs_per_subject,
            duplicate_window: self.duplicate_window,
            allow_direct: self.allow_direct,
            ..stream::Config::default()
        }
    }
}

/// A durable pull consumer with explicit acks.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerConfig {
    /// Its durable name.
    pub durable: String,
    /// A delivered message not acked within this is delivered again.
    pub ack_wait: Duration,
    /// At most this many delivered, unacked messages.
    pub max_ack_pending: i64,
}

/// The server's acknowledgement of a stored message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PubAck {
    /// The stream that stored it.
    pub stream: String,
    /// Its sequence number there.
    pub seq: u64,
    /// Whether its id had been stored before (nothing new was stored).
    pub duplicate: bool,
}

/// What an async-nats JetStream error means: the API's own error (code and JetStream
/// code) where the chain carries one, a timeout, no responders, else the socket.
pub(crate) fn js_error(e: &(dyn std::error::Error + 'static)) -> BrokerError {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(x) = cur {
        if let Some(api) = x.downcast_ref::<jetstream::Error>() {
            return BrokerError::Api {
                code: u16::try_from(api.code()).unwrap_or(u16::MAX),
                err_code: u32::try_from(api.error_code().0).unwrap_or(u32::MAX),
                description: api.to_string(),
            };
        }
        cur = x.source();
    }
    // Some kinds carry the API error inside the kind, not as a source (e.g.
    // `GetStreamErrorKind::JetStream(Error)`); its display is still
    // "<description> (code <code>, error code <err_code>)".
    let text = chain(e);
    if let Some(api) = api_in_text(&text) {
        return api;
    }
    // async-nats' error kinds display as these words (e.g. `PublishErrorKind::TimedOut`
    // "timed out: didn't receive ack in time", `RequestErrorKind::NoResponders`).
    if text.contains("timed out") {
        BrokerError::Timeout
    } else if text.contains("no responders") {
        BrokerError::NoResponders
    } else {
        BrokerError::Io(std::io::Error::other(text))
    }
}

/// An API error named in a message: "<description> (code <code>, error code <n>)".
fn api_in_text(text: &str) -> Option<BrokerError> {
    let (head, rest) = text.rsplit_once(" (code ")?;
    let (code, rest) = rest.split_once(", error code ")?;
    let err_code = rest.split(')').next()?;
    Some(BrokerError::Api {
        code: code.trim().parse().ok()?,
        err_code: err_code.trim().parse().ok()?,
        description: head.to_string(),
    })
}

/// JetStream through one connection.
pub struct JetStream {
    client: Client,
    ctx: jetstream::Context,
    timeout: Duration,
    consumers: HashMap<(String, String), consumer::PullConsumer>,
    buckets: HashMap<String, kv::Store>,
}

impl JetStream {
    /// JetStream over `client`, each request waiting at most `timeout`.
    pub fn new(client: Client, timeout: Duration) -> Result<JetStream> {
        // The context spawns its ack task on the runtime it is created in.
        let _in_runtime = runtime()?.enter();
        let ctx = jetstream::ContextBuilder::new()
            .timeout(timeout)
            .build(client.inner.clone());
        Ok(JetStream {
            client,
            ctx,
            timeout,
            consumers: HashMap::new(),
            buckets: HashMap::new(),
        })
    }

    /// Connects to `endpoint` (see [`Client::connect`]).
    pub fn connect(endpoint: impl Into<Endpoint>, timeout: Duration) -> Result<JetStream> {
        JetStream::new(Client::connect(endpoint, timeout)?, timeout)
    }

    /// The connection underneath.
    pub fn client(&mut self) -> &mut Client {
        &mut self.client
    }

    fn block<F: std::future::Future>(&self, f: F) -> Result<F::Output> {
        Ok(runtime()?.block_on(f))
    }

    /// Creates stream `cfg.name`, or finds the identical one; returns its
    /// [`stream_info`](Self::stream_info).
    pub fn create_stream(&mut self, cfg: &StreamConfig) -> Result<Value> {
        let config = cfg.to_nats();
        let s = self
            .block(self.ctx.create_stream(config))?
            .map_err(|e| js_error(&e))?;
        Ok(info_json(s.cached_info()))
    }

    /// The stream's configuration and state as JSON (`state.messages`, `.bytes`,
    /// `.first_seq`, `.last_seq`, `.consumer_count`; `config.name`, `.max_msgs`).
    pub fn stream_info(&mut self, name: &str) -> Result<Value> {
        let ctx = self.ctx.clone();
        let name = name.to_string();
        let info = self.block(async move {
            let mut s = ctx.get_stream(name).await.map_err(|e| js_error(&e))?;
            s.info().await.cloned().map_err(|e| js_error(&e))
        })??;
        Ok(info_json(&info))
    }

    /// Publishes `payload` on `subject`, de-duplicated by `id` if given; returns once
    /// the stream has stored it.
    pub fn publish(&mut self, subject: &str, id: Option<&str>, payload: &[u8]) -> Result<PubAck> {
        let headers: Vec<(&str, &str)> = id.map(|i| ("Nats-Msg-Id", i)).into_iter().collect();
        self.publish_headers(subject, &headers, payload)
    }

    /// [`publish`](Self::publish) with more headers.
    pub fn publish_with_headers(
        &mut self,
        subject: &str,
        id: &str,
        headers: &[(&str, &str)],
        payload: &[u8],
    ) -> Result<PubAck> {
        let mut all = vec![("Nats-Msg-Id", id)];
        all.extend_from_slice(headers);
        self.publish_headers(subject, &all, payload)
    }

    fn publish_headers(
        &mut self,
        subject: &str,
        headers: &[(&str, &str)],
        payload: &[u8],
    ) -> Result<PubAck> {
        check_subject(subject)?;
        if payload.len() > self.client.max_payload() {
            return Err(BrokerError::Protocol(format!(
                "a message of {} bytes exceeds the server's max_payload of {}",
                payload.len(),
                self.client.max_payload()
            )));
        }
        let h = header_map(headers)?.unwrap_or_default();
        let body = bytes::Bytes::copy_from_slice(payload);
        let ctx = self.ctx.clone();
        let subject = subject.to_string();
        let ack = self.block(async move {
            let fut = ctx
                .publish_with_headers(subject, h, body)
                .await
                .map_err(|e| js_error(&e))?;
            fut.await.map_err(|e| js_error(&e))
        })??;
        Ok(PubAck {
            stream: ack.stream,
            seq: ack.sequence,
            duplicate: ack.duplicate,
        })
    }

    /// Creates durable pull consumer `cfg.durable` on `stream` (explicit acks), or
    /// finds the identical one.
    pub fn create_consumer(&mut self, stream: &str, cfg: &ConsumerConfig) -> Result<Value> {
        let config = consumer::pull::Config {
            durable_name: Some(cfg.durable.clone()),
            ack_policy: consumer::AckPolicy::Explicit,
            ack_wait: cfg.ack_wait,
            max_ack_pending: cfg.max_ack_pending,
            ..Default::default()
        };
        let c = self
            .block(self.ctx.create_consumer_on_stream(config, stream))?
            .map_err(|e| js_error(&e))?;
        let name = c.cached_info().name.clone();
        self.consumers
            .insert((stream.to_string(), cfg.durable.clone()), c);
        Ok(json!({ "stream_name": stream, "name": name }))
    }

    /// Deletes consumer `durable` of `stream` (its unacked deliveries return to the
    /// stream).
    pub fn delete_consumer(&mut self, stream: &str, durable: &str) -> Result<Value> {
        self.consumers
            .remove(&(stream.to_string(), durable.to_string()));
        let r = self
            .block(self.ctx.delete_consumer_from_stream(durable, stream))?
            .map_err(|e| js_error(&e))?;
        Ok(json!({ "success": r.success }))
    }

    fn pull_consumer(&mut self, stream: &str, durable: &str) -> Result<consumer::PullConsumer> {
        let key = (stream.to_string(), durable.to_string());
        if let Some(c) = self.consumers.get(&key) {
            return Ok(c.clone());
        }
        let c: consumer::PullConsumer = self
            .block(self.ctx.get_consumer_from_stream(durable, stream))?
            .map_err(|e| js_error(&e))?;
        self.consumers.insert(key, c.clone());
        Ok(c)
    }

    /// The next message for consumer `durable` of `stream`, waiting at most `wait`
    /// (`None`: nothing came). Ack it with [`ack`](Self::ack).
    pub fn fetch(
        &mut self,
        stream: &str,
        durable: &str,
        wait: Duration,
    ) -> Result<Option<Message>> {
        let c = self.pull_consumer(stream, durable)?;
        // The server ends a pull after `expires` (a 408 status, which async-nats turns
        // into the end of the batch); one that never answers is a timeout.
        let expires = wait.max(Duration::from_millis(10));
        let limit = expires + self.timeout;
        let got = self.block(async move {
            let mut batch = c
                .batch()
                .max_messages(1)
                .expires(expires)
                .messages()
                .await
                .map_err(|e| js_error(&e))?;
            match tokio::time::timeout(limit, batch.next()).await {
                Err(_) => Err(BrokerError::Timeout),
                Ok(None) => Ok(None),
                Ok(Some(Err(e))) => Err(js_error(&*e)),
                Ok(Some(Ok(m))) => Ok(Some(m)),
            }
        })??;
        Ok(got.map(|m| {
            let delivery = m.info().ok().map(|i| Delivery {
                stream_seq: i.stream_sequence,
                delivered: u64::try_from(i.delivered).unwrap_or(0),
            });
            let mut out = Message::from_nats(m.message, 0);
            out.delivery = delivery;
            out
        }))
    }

    /// Acknowledges a delivered message and waits for the server to confirm (a double
    /// ack, docs.nats.io "Consumer Acknowledgements"), so that an ack that returns was
    /// recorded.
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
    /// `max_value_size` bytes, file storage), or updates the existing one to these
    /// settings.
    pub fn kv_create(&mut self, bucket: &str, max_value_size: i32) -> Result<Value> {
        let cfg = kv::Config {
            bucket: bucket.to_string(),
            history: 1,
            max_value_size,
            storage: stream::StorageType::File,
            num_replicas: 1,
            ..Default::default()
        };
        let store = self
            .block(self.ctx.create_or_update_key_value(cfg))?
            .map_err(|e| js_error(&e))?;
        self.buckets.insert(bucket.to_string(), store);
        Ok(json!({ "bucket": bucket }))
    }

    /// The bucket (`None`: it does not exist).
    fn store(&mut self, bucket: &str) -> Result<Option<kv::Store>> {
        if let Some(s) = self.buckets.get(bucket) {
            return Ok(Some(s.clone()));
        }
        match self.block(self.ctx.get_key_value(bucket))? {
            Ok(s) => {
                self.buckets.insert(bucket.to_string(), s.clone());
                Ok(Some(s))
            }
            Err(e) => match js_error(&e) {
                // 404: stream (bucket) not found.
                BrokerError::Api { code: 404, .. } => Ok(None),
                other => Err(other),
            },
        }
    }

    /// Writes `value` under `key`; returns its revision.
    pub fn kv_put(&mut self, bucket: &str, key: &str, value: &[u8]) -> Result<u64> {
        let store = self.store(bucket)?.ok_or_else(|| BrokerError::Api {
            code: 404,
            err_code: 10059,
            description: format!("no bucket {bucket:?}"),
        })?;
        let v = bytes::Bytes::copy_from_slice(value);
        let key = key.to_string();
        self.block(async move { store.put(key, v).await })?
            .map_err(|e| match e.kind() {
                kv::PutErrorKind::InvalidKey => BrokerError::Protocol(chain(&e)),
                _ => js_error(&e),
            })
    }

    /// The latest value of `key` and its revision (`None`: no such key or bucket, or
    /// the key was deleted).
    pub fn kv_get(&mut self, bucket: &str, key: &str) -> Result<Option<(u64, Vec<u8>)>> {
        let Some(store) = self.store(bucket)? else {
            return Ok(None);
        };
        let key = key.to_string();
        let entry = self
            .block(async move { store.entry(key).await })?
            .map_err(|e| match e.kind() {
                kv::EntryErrorKind::InvalidKey => BrokerError::Protocol(chain(&e)),
                kv::EntryErrorKind::TimedOut => BrokerError::Timeout,
                _ => js_error(&e),
            })?;
        Ok(entry
            .filter(|e| e.operation == kv::Operation::Put)
            .map(|e| (e.revision, e.value.to_vec())))
    }
}

/// The parts of a stream's info the callers read, as JSON.
fn info_json(i: &stream::Info) -> Value {
    json!({
        "config": {
            "name": i.config.name, "subjects": i.config.subjects,
            "max_msgs": i.config.max_messages, "max_msg_size": i.config.max_message_size,
        },
        "state": {
            "messages": i.state.messages, "bytes": i.state.bytes,
            "first_seq": i.state.first_sequence, "last_seq": i.state.last_sequence,
            "consumer_count": i.state.consumer_count,
        },
    })
}
