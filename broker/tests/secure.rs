//! TLS, credentials and several servers, against real `nats-server`s started with a
//! `tls { … }` or `authorization { … }` block (docs.nats.io, "Configuring NATS Server"
//! › "TLS", "Authentication"): the right credential works, a wrong one is refused
//! with an error that says so, and a client that does not trust the server's CA
//! refuses it.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use broker::pipeline::{self, Board, Capacity, Consumer, Publisher};
use broker::server::LocalServer;
use broker::{BrokerError, Endpoint, JetStream};
use common::TempDir;

const T: Duration = Duration::from_secs(5);

const CAP: Capacity = Capacity {
    max_batches: 16,
    max_batch_bytes: 64 * 1024,
    max_params_bytes: 1024 * 1024,
};

/// A CA, and a server certificate for 127.0.0.1 and localhost it signed, as PEM
/// files in `dir`: (CA, server certificate, server key).
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "mahjong test CA");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let server = rcgen::CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    let paths = (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server-key.pem"),
    );
    std::fs::write(&paths.0, ca_cert.pem()).unwrap();
    std::fs::write(&paths.1, server.pem()).unwrap();
    std::fs::write(&paths.2, key.serialize_pem()).unwrap();
    paths
}

fn tls_server(dir: &TempDir) -> (LocalServer, PathBuf) {
    let (ca, cert, key) = certificates(&dir.0);
    let conf = format!("tls {{\n  cert_file: {cert:?}\n  key_file: {key:?}\n}}\n");
    let s = LocalServer::start_with_config(&dir.0.join("nats"), None, &conf)
        .expect("nats-server must start (scripts/setup installs it)");
    (s, ca)
}

#[test]
fn tls_with_a_private_ca_carries_the_pipeline() {
    let dir = TempDir::new("tls");
    let (server, ca) = tls_server(&dir);
    let ep = Endpoint {
        urls: format!("tls://127.0.0.1:{}", server.port()),
        ca_file: Some(ca.clone()),
        ..Endpoint::default()
    };
    let mut js = JetStream::connect(&ep, T).unwrap();
    assert_eq!(js.client().server_info["tls_required"], true);
    pipeline::setup(&mut js, CAP).unwrap();
    let mut p = Publisher::new(&ep, "w0", 3, CAP).unwrap();
    let id = p.publish(b"a batch over TLS").unwrap();
    let mut c = Consumer::new(&ep, 3, CAP);
    let r = c.next(T).unwrap().expect("the batch");
    assert_eq!(
        (r.id.as_str(), r.batch.as_slice()),
        (id.as_str(), &b"a batch over TLS"[..])
    );
    c.ack(&r).unwrap();
    let mut b = Board::new(&ep);
    b.put_params(1, b"weights").unwrap();
    assert_eq!(b.params().unwrap().unwrap().1, 1);
    // A nats:// URL to the same server is upgraded to TLS (the server requires it).
    let plain_scheme = Endpoint {
        urls: server.url(),
        ca_file: Some(ca),
        ..Endpoint::default()
    };
    assert!(JetStream::connect(&plain_scheme, T).is_ok());
}

#[test]
fn a_server_whose_ca_is_not_trusted_is_refused() {
    let dir = TempDir::new("untrusted");
    let (server, _ca) = tls_server(&dir);
    let e = JetStream::connect(&format!("tls://127.0.0.1:{}", server.port()), T)
        .err()
        .expect("an untrusted certificate must be refused");
    assert!(matches!(e, BrokerError::Tls(_)), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("TLS handshake failed"), "{text}");
    assert!(text.contains("certificate"), "{text}");
    // The pipeline gives up at once too (it retries only lost connections).
    let mut b = Board::new(&format!("tls://127.0.0.1:{}", server.port()));
    assert!(matches!(b.stop(), Err(BrokerError::Tls(_))));
    // A CA file that is not there is named.
    let missing = Endpoint {
        urls: server.url(),
        ca_file: Some(dir.0.join("nope.pem")),
        ..Endpoint::default()
    };
    let e = JetStream::connect(&missing, T).err().unwrap();
    assert!(
        matches!(&e, BrokerError::Credentials(m) if m.contains("nope.pem")),
        "{e:?}"
    );
}

/// A server with two users: `alice` with a password, and an NKey user; returns the
/// server and the NKey user's seed file.
fn users_server(dir: &TempDir) -> (LocalServer, PathBuf) {
    let user = nkeys::KeyPair::new_user();
    let seed_file = dir.0.join("user.nk");
    std::fs::write(&seed_file, format!("{}\n", user.seed().unwrap())).unwrap();
    let conf = format!(
        "authorization {{\n  users = [\n    {{user: alice, password: \"s3cret\"}}\n    \
         {{nkey: {}}}\n  ]\n}}\n",
        user.public_key()
    );
    let s = LocalServer::start_with_config(&dir.0.join("nats"), None, &conf)
        .expect("nats-server must start");
    (s, seed_file)
}

fn assert_refused(r: broker::Result<JetStream>) {
    let e = r.err().expect("a wrong credential must be refused");
    assert!(matches!(e, BrokerError::Auth(_)), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("authorization failed"), "{text}");
    assert!(text.contains("authorization violation"), "{text}");
}

#[test]
fn users_with_a_password_or_an_nkey_are_let_in_and_wrong_ones_refused() {
    let dir = TempDir::new("users");
    let (server, seed_file) = users_server(&dir);
    let port = server.port();
    // The right password, in the URL.
    let mut js = JetStream::connect(&format!("nats://alice:s3cret@127.0.0.1:{port}"), T).unwrap();
    js.kv_create("run", 1024).unwrap();
    js.kv_put("run", "k", b"v").unwrap();
    // The NKey user, by its seed file.
    let nkey = Endpoint {
        urls: server.url(),
        nkey_file: Some(seed_file),
        ..Endpoint::default()
    };
    let mut js = JetStream::connect(&nkey, T).unwrap();
    assert_eq!(js.kv_get("run", "k").unwrap().unwrap().1, b"v");
    // Wrong password, no credentials, another NKey: refused, with a clear error.
    assert_refused(JetStream::connect(
        &format!("nats://alice:wrong@127.0.0.1:{port}"),
        T,
    ));
    assert_refused(JetStream::connect(&server.url(), T));
    let other = dir.0.join("other.nk");
    std::fs::write(&other, nkeys::KeyPair::new_user().seed().unwrap()).unwrap();
    assert_refused(JetStream::connect(
        &Endpoint {
            nkey_file: Some(other),
            ..nkey.clone()
        },
        T,
    ));
    // The pipeline does not wait out its patience on refused credentials.
    let mut b = Board::new(&format!("nats://alice:wrong@127.0.0.1:{port}"));
    assert!(matches!(b.config(), Err(BrokerError::Auth(_))));
    // A seed file that holds no seed, a .creds file that holds no JWT: named errors.
    let junk = dir.0.join("junk");
    std::fs::write(&junk, "not a key\n").unwrap();
    for ep in [
        Endpoint {
            nkey_file: Some(junk.clone()),
            ..nkey.clone()
        },
        Endpoint {
            nkey_file: None,
            creds_file: Some(junk.clone()),
            ..nkey.clone()
        },
    ] {
        let e = JetStream::connect(&ep, T).err().unwrap();
        assert!(
            matches!(&e, BrokerError::Credentials(m) if m.contains("junk")),
            "{e:?}"
        );
    }
}

#[test]
fn a_token_is_let_in_and_a_wrong_one_refused() {
    let dir = TempDir::new("token");
    let conf = "authorization {\n  token: \"t0ken-abc\"\n}\n";
    let server = LocalServer::start_with_config(&dir.0.join("nats"), None, conf)
        .expect("nats-server must start");
    let with = |t: &str| Endpoint {
        urls: server.url(),
        token: Some(t.to_string()),
        ..Endpoint::default()
    };
    let mut js = JetStream::connect(with("t0ken-abc"), T).unwrap();
    pipeline::setup(&mut js, CAP).unwrap();
    let mut b = Board::new(with("t0ken-abc"));
    b.set_stop(true).unwrap();
    assert!(b.stop().unwrap());
    assert_refused(JetStream::connect(with("wrong"), T));
}

#[test]
fn several_urls_the_first_dead_connect_to_the_next() {
    let dir = TempDir::new("several");
    let server = LocalServer::start(&dir.0.join("nats"), None).expect("nats-server must start");
    // A port nobody listens on.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = l.local_addr().unwrap().port();
    drop(l);
    let urls = format!("nats://127.0.0.1:{dead}, {}", server.url());
    let mut js = JetStream::connect(&urls, T).unwrap();
    pipeline::setup(&mut js, CAP).unwrap();
    let mut p = Publisher::new(&urls, "w0", 1, CAP).unwrap();
    p.publish(b"through the second server").unwrap();
    let mut c = Consumer::new(&urls, 1, CAP);
    let r = c.next(T).unwrap().expect("the batch");
    assert_eq!(r.batch, b"through the second server");
    c.ack(&r).unwrap();
    // Only dead ones: a socket error, not a hang or a panic.
    let e = JetStream::connect(&format!("nats://127.0.0.1:{dead}"), T)
        .err()
        .unwrap();
    assert!(matches!(e, BrokerError::Io(_)), "{e:?}");
    // Lists with an empty or foreign entry are bad URLs.
    for bad in [
        "",
        " , ",
        "http://127.0.0.1:4222",
        "nats://127.0.0.1:1,ws://x:2",
    ] {
        let e = JetStream::connect(bad, T).err().unwrap();
        assert!(matches!(e, BrokerError::BadUrl(_)), "{bad:?}: {e:?}");
    }
}
