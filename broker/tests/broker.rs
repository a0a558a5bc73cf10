//! Against a real `nats-server` (the PyPI wheel scripts/setup installs), started on
//! 127.0.0.1 with a port of its choosing and a temporary store.

mod common;

use std::time::Duration;

use broker::jetstream::Delivery;
use broker::server::LocalServer;
use broker::{BrokerError, Client, ConsumerConfig, JetStream, StreamConfig};
use common::TempDir;

const T: Duration = Duration::from_secs(5);

fn server(tag: &str) -> (TempDir, LocalServer) {
    let dir = TempDir::new(tag);
    let s = LocalServer::start(&dir.0, None)
        .expect("nats-server must start (scripts/setup installs it)");
    (dir, s)
}

#[test]
fn publish_subscribe_and_request() {
    let (_d, s) = server("core");
    let mut a = Client::connect(&s.url(), T).unwrap();
    let mut b = Client::connect(&s.url(), T).unwrap();
    assert!(a.server_info["jetstream"].as_bool().unwrap_or(false));
    assert!(a.max_payload() >= 8 * 1024 * 1024);
    let sid = b.subscribe("work.>").unwrap();
    b.flush(T).unwrap();
    let big = vec![7u8; 3 * 1024 * 1024];
    a.publish("work.x", None, &[("k", "v")], b"one").unwrap();
    a.publish("work.y", Some("back"), &[], &big).unwrap();
    let m = b.next_message(sid, T).unwrap().unwrap();
    assert_eq!(
        (m.subject.as_str(), m.payload.as_slice(), m.header("K")),
        ("work.x", &b"one"[..], Some("v"))
    );
    let m = b.next_message(sid, T).unwrap().unwrap();
    assert_eq!(
        (m.reply.as_deref(), m.payload.len()),
        (Some("back"), big.len())
    );
    assert!(b
        .next_message(sid, Duration::from_millis(100))
        .unwrap()
        .is_none());
    // Request/reply through a responder.
    let svc = b.subscribe("svc").unwrap();
    b.flush(T).unwrap();
    let t = std::thread::spawn(move || {
        let m = b.next_message(svc, T).unwrap().unwrap();
        b.publish(
            m.reply.as_deref().unwrap(),
            None,
            &[],
            &[m.payload, b"!".to_vec()].concat(),
        )
        .unwrap();
        b.flush(T).unwrap();
    });
    let r = a.request("svc", &[], b"hi", T).unwrap();
    assert_eq!(r.payload, b"hi!");
    t.join().unwrap();
    // Nobody listens: no responders, at once.
    assert!(matches!(
        a.request("nobody", &[], b"", T),
        Err(BrokerError::NoResponders)
    ));
    // Too large, bad subjects: errors before anything is sent.
    let huge = vec![0u8; a.max_payload() + 1];
    assert!(matches!(
        a.publish("x", None, &[], &huge),
        Err(BrokerError::Protocol(_))
    ));
    assert!(a.publish("a b", None, &[], b"").is_err());
    assert!(a.publish("x", None, &[("bad\r\n", "v")], b"").is_err());
    a.flush(T).unwrap();
}

#[test]
fn connection_errors_are_clear() {
    assert!(matches!(
        Client::connect("http://x", T),
        Err(BrokerError::BadUrl(_))
    ));
    // A port nobody listens on.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    assert!(matches!(
        Client::connect(&format!("nats://127.0.0.1:{port}"), T),
        Err(BrokerError::Io(_))
    ));
    // A server that speaks garbage, or nothing.
    for greeting in [&b"HELLO THERE\r\n"[..], b"INFO {broken\r\n", b""] {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("nats://{}", l.local_addr().unwrap());
        let g = greeting.to_vec();
        let t = std::thread::spawn(move || {
            use std::io::Write;
            let (mut c, _) = l.accept().unwrap();
            c.write_all(&g).unwrap();
            std::thread::sleep(Duration::from_millis(600));
        });
        let r = Client::connect(&url, Duration::from_millis(400));
        assert!(r.is_err(), "{greeting:?}");
        t.join().unwrap();
    }
}

fn trajectory_stream(max_msgs: i64) -> StreamConfig {
    StreamConfig {
        max_msgs,
        max_msg_size: 4 * 1024 * 1024,
        ..StreamConfig::work_queue("TRAJ", &["traj.>"])
    }
}

fn consumer(ack_wait_ms: u64) -> ConsumerConfig {
    ConsumerConfig {
        durable: "learner".into(),
        ack_wait: Duration::from_millis(ack_wait_ms),
        max_ack_pending: 64,
    }
}

#[test]
fn work_queue_dedups_backs_off_acks_and_redelivers() {
    let (_d, s) = server("wq");
    let mut js = JetStream::connect(&s.url(), T).unwrap();
    js.create_stream(&trajectory_stream(5)).unwrap();
    // Creating the identical stream again is fine.
    js.create_stream(&trajectory_stream(5)).unwrap();
    for i in 0..5 {
        let ack = js
            .publish(
                "traj.w1",
                Some(&format!("w1-{i}")),
                format!("batch {i}").as_bytes(),
            )
            .unwrap();
        assert_eq!(
            (ack.stream.as_str(), ack.seq, ack.duplicate),
            ("TRAJ", i + 1, false)
        );
    }
    // The same id again is a duplicate: acknowledged, not stored.
    let again = js.publish("traj.w1", Some("w1-2"), b"batch 2").unwrap();
    assert!(again.duplicate);
    // Full (discard new): a typed error the publisher backs off on.
    let full = js.publish("traj.w1", Some("w1-5"), b"batch 5").unwrap_err();
    assert!(full.is_full(), "{full}");
    js.create_consumer("TRAJ", &consumer(300)).unwrap();
    // Fetch two; ack the first only: the second comes back after ack_wait.
    let m1 = js.fetch("TRAJ", "learner", T).unwrap().unwrap();
    let m2 = js.fetch("TRAJ", "learner", T).unwrap().unwrap();
    assert_eq!(
        (m1.payload.as_slice(), m2.payload.as_slice()),
        (&b"batch 0"[..], &b"batch 1"[..])
    );
    assert_eq!(
        Delivery::of(&m1).unwrap(),
        Delivery {
            stream_seq: 1,
            delivered: 1
        }
    );
    js.ack(&m1).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let mut seen = Vec::new();
    while let Some(m) = js
        .fetch("TRAJ", "learner", Duration::from_millis(300))
        .unwrap()
    {
        let d = Delivery::of(&m).unwrap();
        seen.push((
            d.stream_seq,
            d.delivered,
            String::from_utf8(m.payload.clone()).unwrap(),
        ));
        js.ack(&m).unwrap();
    }
    assert_eq!(seen[0], (2, 2, "batch 1".to_string()), "{seen:?}");
    assert_eq!(
        seen.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![2, 3, 4, 5]
    );
    // Acked messages leave a work queue: room again.
    let info = js.stream_info("TRAJ").unwrap();
    assert_eq!(info["state"]["messages"].as_u64(), Some(0), "{info}");
    js.publish("traj.w1", Some("w1-5"), b"batch 5").unwrap();
    // Nothing there: None after the wait, not an error.
    let m = js.fetch("TRAJ", "learner", T).unwrap().unwrap();
    js.ack(&m).unwrap();
    assert!(js
        .fetch("TRAJ", "learner", Duration::from_millis(200))
        .unwrap()
        .is_none());
    assert!(js
        .fetch("NOPE", "learner", Duration::from_millis(200))
        .is_err());
}

#[test]
fn key_value_keeps_the_latest_value() {
    let (_d, s) = server("kv");
    let mut js = JetStream::connect(&s.url(), T).unwrap();
    js.kv_create("run", 8 * 1024 * 1024).unwrap();
    assert_eq!(js.kv_get("run", "params").unwrap(), None);
    let r1 = js.kv_put("run", "params", b"v1").unwrap();
    let r2 = js.kv_put("run", "params", &vec![9u8; 2 << 20]).unwrap();
    assert!(r2 > r1);
    let (rev, v) = js.kv_get("run", "params").unwrap().unwrap();
    assert_eq!((rev, v.len()), (r2, 2 << 20));
    js.kv_put("run", "stop", b"1").unwrap();
    assert_eq!(js.kv_get("run", "stop").unwrap().unwrap().1, b"1");
    assert!(js.kv_get("run", "bad key").is_err());
    assert_eq!(js.kv_get("no_such_bucket", "k").unwrap(), None);
}

#[test]
fn file_storage_survives_a_killed_server() {
    let (_d, mut s) = server("kill");
    let mut js = JetStream::connect(&s.url(), T).unwrap();
    js.create_stream(&trajectory_stream(100)).unwrap();
    js.create_consumer("TRAJ", &consumer(30_000)).unwrap();
    js.kv_create("run", 1 << 20).unwrap();
    for i in 0..10 {
        js.publish("traj.w1", Some(&format!("id-{i}")), &[i as u8; 1000])
            .unwrap();
    }
    let m = js.fetch("TRAJ", "learner", T).unwrap().unwrap();
    js.ack(&m).unwrap();
    js.kv_put("run", "params", b"snapshot 7").unwrap();
    s.restart().unwrap();
    // The old connection is dead; a new one sees everything acknowledged before.
    let mut js = JetStream::connect(&s.url(), T).unwrap();
    let info = js.stream_info("TRAJ").unwrap();
    assert_eq!(info["state"]["messages"].as_u64(), Some(9), "{info}");
    assert_eq!(
        js.kv_get("run", "params").unwrap().unwrap().1,
        b"snapshot 7"
    );
    // The de-duplication window survived too.
    assert!(
        js.publish("traj.w1", Some("id-3"), &[3; 1000])
            .unwrap()
            .duplicate
    );
    let mut seqs = Vec::new();
    while let Some(m) = js
        .fetch("TRAJ", "learner", Duration::from_millis(300))
        .unwrap()
    {
        seqs.push(Delivery::of(&m).unwrap().stream_seq);
        js.ack(&m).unwrap();
    }
    assert_eq!(seqs, (2..=10).collect::<Vec<u64>>());
}
