//! Golden hashes of seeded random-bot self-play: every hand summary, every action and the
//! final state of each hand, hashed through the public API. Optimisations of the engine
//! must leave these unchanged (same events, same legal action order, same RNG streams).
//! Only the random bot plays, so the shanten and efficiency internals do not matter.
//!
//! If a deliberate rule change alters play, print the new values with
//! `cargo test -p mahjong-engine --test golden_play -- --nocapture` and update them.

use engine::bots::{play_hand, HandSummary, RandomBot};
use engine::game::{Action, Game, HandEndKind, MeldKind};
use engine::rng::Rng;
use engine::Rules;

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }

    fn int(&mut self, x: i64) {
        for b in x.to_le_bytes() {
            self.byte(b);
        }
    }

    fn tile(&mut self, t: Option<engine::tile::Tile>) {
        self.byte(t.map_or(255, |t| t.as_u8()));
    }
}

fn meld_kind(k: MeldKind) -> u8 {
    match k {
        MeldKind::Chi => 0,
        MeldKind::Pon => 1,
        MeldKind::ClosedKan => 2,
        MeldKind::OpenKan => 3,
        MeldKind::AddedKan => 4,
    }
}

fn hash_hand(h: &mut Fnv, s: &HandSummary, g: &Game) {
    let r = &s.result;
    h.byte(match r.kind {
        HandEndKind::Win => 0,
        HandEndKind::ExhaustiveDraw => 1,
    });
    for w in r.winners {
        h.byte(w as u8);
    }
    h.byte(r.discarder.unwrap_or(255));
    h.tile(r.tile);
    for (&v, &d) in r.values.iter().zip(&r.deltas) {
        h.int(v as i64);
        h.int(d as i64);
    }
    for o in &s.seats {
        h.byte(o.won as u8);
        h.byte(o.self_draw as u8);
        h.byte(o.dealt_in as u8);
        h.int(o.delta as i64);
        h.int(o.win_turn as i64);
    }
    h.int(s.steps as i64);
    for &(seat, a) in g.actions() {
        h.byte(seat);
        h.int(Action::index(a) as i64);
    }
    for score in g.scores() {
        h.int(score as i64);
    }
    for seat in 0..g.rules().players {
        for &c in g.hand(seat).expect("seat") {
            h.byte(c);
        }
        for m in g.melds(seat) {
            h.byte(meld_kind(m.kind));
            h.tile(Some(m.tile));
            h.byte(m.from.unwrap_or(255));
            h.tile(m.claimed);
        }
        h.byte(200);
        for d in g.discards(seat) {
            h.tile(Some(d.tile));
            h.byte(d.claimed as u8);
        }
        h.byte(201);
    }
    h.tile(g.drawn());
    h.byte(g.live_wall_remaining());
    h.byte(g.kans());
}

fn golden(rules: Rules, hands: u64, call_probability: f32) -> u64 {
    let mut rules = rules;
    rules.hands_per_game = 1;
    let n = rules.players as usize;
    let mut h = Fnv::new();
    for i in 0..hands {
        let seed = Rng::derive_seed(777, i);
        let mut game = Game::new(rules, seed).expect("valid rules");
        let mut agents: Vec<RandomBot> = (0..n)
            .map(|s| {
                let mut b = RandomBot::new(Rng::derive_seed(seed, s as u64));
                b.call_probability = call_probability;
                b
            })
            .collect();
        let s = play_hand(&mut game, &mut agents).expect("bots play legal actions");
        hash_hand(&mut h, &s, &game);
    }
    h.0
}

#[test]
fn random_self_play_is_unchanged() {
    let sanma = golden(Rules::sanma(), 2_000, 0.1);
    let four = golden(Rules::four_player(), 2_000, 0.1);
    eprintln!("sanma {sanma:#018x} four-player {four:#018x}");
    assert_eq!(sanma, 0x568f_dd82_aff5_2201);
    assert_eq!(four, 0x3b46_c48f_c7ad_ea12);
}

/// Bots that take every call they are offered (kans, pons and chis in most hands).
#[test]
fn calling_self_play_is_unchanged() {
    let sanma = golden(Rules::sanma(), 1_000, 1.0);
    let four = golden(Rules::four_player(), 1_000, 1.0);
    eprintln!("sanma {sanma:#018x} four-player {four:#018x}");
    assert_eq!(sanma, 0xf6f2_386b_7b43_a119);
    assert_eq!(four, 0xe0da_5237_8eac_cd58);
}
