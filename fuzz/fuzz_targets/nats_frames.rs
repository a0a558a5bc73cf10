//! Whatever a NATS server (or anything posing as one) sends, the broker client's frame
//! parser returns a frame, "not yet" or an error: it never panics, never claims more
//! bytes than it was given, and a stream of frames is consumed front to back.
#![no_main]

use broker::client::frame_length;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    while let Ok(Some(used)) = frame_length(rest, 1 << 20) {
        assert!(used > 0 && used <= rest.len());
        rest = &rest[used..];
    }
});
