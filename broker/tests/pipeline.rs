//! The learner–worker pipeline against a real `nats-server`: exactly-once batches
//! through a SIGKILLed server, backpressure, epochs, corrupt batches, the bucket.

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use broker::pipeline::{self, Board, Capacity, Consumer, Publisher};
use broker::server::LocalServer;
use broker::JetStream;
use common::TempDir;

const CAP: Capacity = Capacity {
    max_batches: 64,
    max_batch_bytes: 256 * 1024,
    max_params_bytes: 4 * 1024 * 1024,
};

fn started(tag: &str, cap: Capacity) -> (TempDir, LocalServer) {
    let dir = TempDir::new(tag);
    let s = LocalServer::start(&dir.0, None)
        .expect("nats-server must start (scripts/setup installs it)");
    let mut js = JetStream::connect(&s.url(), Duration::from_secs(5)).unwrap();
    pipeline::setup(&mut js, cap).unwrap();
    pipeline::setup(&mut js, cap).unwrap(); // idempotent
    (dir, s)
}

/// Batch `n` of worker `w`: 20 KB that compress well and name their origin.
fn batch(w: usize, n: usize) -> Vec<u8> {
    let mut b = format!("worker {w} batch {n};").into_bytes();
    b.extend((0..20_000).map(|i| ((i * 7 + n * 13 + w) % 23) as u8));
    b
}

#[test]
fn every_batch_arrives_exactly_once_through_a_killed_server() {
    let (_d, mut server) = started("once", CAP);
    let url = server.url();
    let workers: Vec<_> = (0..2)
        .map(|w| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut p = Publisher::new(&url, &format!("w{w}"), 7, CAP).unwrap();
                for n in 0..40 {
                    p.publish(&batch(w, n)).unwrap();
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        })
        .collect();
    let mut c = Consumer::new(&url, 7, CAP);
    let mut got: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut restarted = false;
    let deadline = Instant::now() + Duration::from_secs(90);
    while got.len() < 80 && Instant::now() < deadline {
        if !restarted && got.len() >= 25 {
            server.restart().unwrap();
            restarted = true;
        }
        if let Some(r) = c.next(Duration::from_millis(500)).unwrap() {
            assert!(
                got.insert(r.id.clone(), r.batch.clone()).is_none(),
                "{} taken twice",
                r.id
            );
            c.ack(&r).unwrap();
        }
    }
    for w in workers {
        w.join().unwrap();
    }
    // Nothing more comes: no batch is delivered twice after the restart either.
    if let Some(r) = c.next(Duration::from_millis(500)).unwrap() {
        panic!("{} came again", r.id);
    }
    assert!(restarted);
    assert_eq!(got.len(), 80, "{:?}", got.keys().collect::<Vec<_>>());
    for w in 0..2 {
        for n in 0..40 {
            assert_eq!(got[&format!("w{w}-7-{n}")], batch(w, n));
        }
    }
    assert_eq!((c.stale, c.corrupt), (0, 0));
}

#[test]
fn a_full_stream_holds_publishers_back_until_the_learner_takes() {
    let cap = Capacity {
        max_batches: 4,
        ..CAP
    };
    let (_d, server) = started("full", cap);
    let url = server.url();
    let t = std::thread::spawn(move || {
        let mut p = Publisher::new(&url, "w0", 1, cap).unwrap();
        for n in 0..12 {
            p.publish(&batch(0, n)).unwrap();
        }
        p.waited_full
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut c = Consumer::new(&server.url(), 1, cap);
    let mut order = Vec::new();
    while order.len() < 12 {
        let r = c.next(Duration::from_secs(10)).unwrap().expect("a batch");
        order.push(r.id.clone());
        c.ack(&r).unwrap();
        std::thread::sleep(Duration::from_millis(30));
    }
    let waited = t.join().unwrap();
    assert!(waited > 0, "the publisher never found the stream full");
    let want: Vec<String> = (0..12).map(|n| format!("w0-1-{n}")).collect();
    assert_eq!(order, want);
}

#[test]
fn other_epochs_and_corrupt_batches_are_dropped_and_counted() {
    let (_d, server) = started("epoch", CAP);
    let url = server.url();
    let mut old = Publisher::new(&url, "w0", 1, CAP).unwrap();
    for n in 0..3 {
        old.publish(&batch(0, n)).unwrap();
    }
    // Not zstd, right epoch.
    let mut js = JetStream::connect(&url, Duration::from_secs(5)).unwrap();
    js.publish_with_headers(
        "mj.traj.x",
        "x-2-0",
        &[("Mj-Epoch", "2")],
        b"not compressed",
    )
    .unwrap();
    let mut new = Publisher::new(&url, "w0", 2, CAP).unwrap();
    new.publish(&batch(0, 99)).unwrap();
    let mut c = Consumer::new(&url, 2, CAP);
    let r = c.next(Duration::from_secs(5)).unwrap().unwrap();
    assert_eq!((r.id.as_str(), r.batch.clone()), ("w0-2-0", batch(0, 99)));
    c.ack(&r).unwrap();
    assert!(c.next(Duration::from_millis(300)).unwrap().is_none());
    assert_eq!((c.stale, c.corrupt), (3, 1));
    let info = js.stream_info(pipeline::STREAM).unwrap();
    assert_eq!(info["state"]["messages"].as_u64(), Some(0), "{info}");
    // Oversized batches and bad worker names are refused before sending.
    assert!(Publisher::new(&url, "a.b", 1, CAP).is_err());
    // Incompressible: xorshift64 bytes.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<u8> = (0..400_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    assert!(new.publish(&noise).is_err());
}

#[test]
fn the_board_carries_parameters_settings_and_the_stop_flag() {
    let (_d, server) = started("board", CAP);
    let mut b = Board::new(&server.url());
    assert!(b.params().unwrap().is_none());
    assert!(b.params_stamp().unwrap().is_none());
    assert!(b.config().unwrap().is_none());
    b.put_params(3, b"weights v3").unwrap();
    let before = pipeline::unix_nanos();
    let r = b.put_params(4, &vec![1u8; 3 << 20]).unwrap();
    let (rev, version, bytes) = b.params().unwrap().unwrap();
    assert_eq!((rev, version, bytes.len()), (r, 4, 3 << 20));
    // The stamp names the version just written, and when.
    let stamp = b.params_stamp().unwrap().unwrap();
    assert_eq!(stamp.version, 4);
    assert!((before..=pipeline::unix_nanos()).contains(&stamp.written_unix_ns));
    b.put_config(&serde_json::json!({"protocol": pipeline::PROTOCOL_VERSION, "epoch": 9}))
        .unwrap();
    assert_eq!(b.config().unwrap().unwrap()["epoch"], 9);
    b.put_config(&serde_json::json!({"protocol": 999, "epoch": 9}))
        .unwrap();
    assert!(b.config().is_err(), "another protocol must be refused");
    assert!(!b.stop().unwrap());
    b.set_stop(true).unwrap();
    assert!(b.stop().unwrap());
}
