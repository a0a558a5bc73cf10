//! Arbitrary text as the JSON position that `advise --stdin-json` reads (a position, or
//! `{"record": …, "seat": …}`): parsing never panics, and an accepted position gives a
//! decision the engine can encode and the efficiency advisor can rank.
#![no_main]

use engine::encode::{encode, ENCODED_LEN};
use inference::position::from_json;
use inference::Advisor;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok((obs, legal)) = from_json(text) else {
        return;
    };
    let mut features = [0f32; ENCODED_LEN];
    encode(&obs, &mut features);
    assert!(features.iter().all(|x| x.is_finite()), "finite features");
    if legal.is_empty() {
        return;
    }
    let advice = Advisor::efficiency_only()
        .advise_with_legal(&obs, &legal)
        .expect("the efficiency advisor ranks any accepted position");
    let best = advice.best().expect("a ranked action");
    assert!(legal.contains(&best), "the advice is legal");
});
