//! The fixed-size, versioned encoding of one seat's [`Observation`], shared by the
//! trainer and every inference front-end.
//!
//! # Shape
//!
//! The encoding is a matrix of [`NUM_TOKENS`] tokens × [`TOKEN_FEATURES`] features,
//! stored row-major in a flat `[f32; ENCODED_LEN]`:
//!
//! ```text
//! NUM_TOKENS     = NUM_TILE_TOKENS (34, one per tile type, row = Tile::index())
//!                + NUM_GLOBAL_TOKENS (1, row 34)                          = 35
//! TOKEN_FEATURES = 36   (tile tokens use all 36; the global token uses 0..GLOBAL_USED,
//!                        the rest of its row is 0)
//! ENCODED_LEN    = NUM_TOKENS * TOKEN_FEATURES                            = 1260
//! value at (token k, feature f) = out[k * TOKEN_FEATURES + f]
//! ```
//!
//! A transformer sees `T = 35` tokens of `F = 36` floats. The encoding carries tile
//! identity explicitly (suit and number one-hots), and the model additionally adds a
//! learned per-token-position embedding, so the global token needs no marker feature.
//!
//! # Seats
//! "Relative seat" `r` is `(observer + r) % players`: `r = 0` is the observer, `1` the
//! next player in turn order (the one who discards after the observer), and so on.
//! Per-seat features have four slots; slots `r >= players` (the fourth seat in sanma)
//! are always 0.
//!
//! # Tile-token features (token `t` = tile type `t`)
//!
//! | feature | name | value and scale |
//! |---|---|---|
//! | 0 | [`tf::HAND`] | copies in the own closed hand (drawn tile included) / 4, in `[0, 1]` |
//! | 1 | [`tf::DRAWN`] | 1 if `t` is the tile the observer just drew |
//! | 2..6 | [`tf::MELDED`] | copies of `t` in relative seat `r`'s melds (closed kans included) / 4 |
//! | 6..10 | [`tf::DISCARDED`] | copies of `t` in relative seat `r`'s discard row (claimed ones included) / 4, clamped to 1 |
//! | 10..14 | [`tf::LAST_DISCARD`] | 1 if relative seat `r`'s most recent discard is `t` |
//! | 14 | [`tf::UNSEEN`] | copies the observer cannot see / 4 |
//! | 15 | [`tf::IN_SET`] | 1 if the type exists in the rules' tile set |
//! | 16 | [`tf::HELD`] | 1 if the value-score matrix is present and `t` is a possible discard |
//! | 17 | [`tf::SHANTEN_AFTER`] | `(shanten after discarding t + 1) / 8`, clamped to `[0, 1]`; 0 if not held |
//! | 18 | [`tf::UKEIRE`] | ukeire tiles after discarding `t`, `min(n, 128) / 128` |
//! | 19 | [`tf::SECOND_STEP`] | second-step measure after discarding `t`, `min(x, 128) / 128` |
//! | 20 | [`tf::SCORE`] | value score of discarding `t`, in `[0, 1]` (1 = the best discards) |
//! | 21 | [`tf::PENDING`] | 1 if `t` is the claimable tile of an open claim window |
//! | 22..26 | [`tf::SUIT`] | suit one-hot: man, pin, sou, honour |
//! | 26..35 | [`tf::NUMBER`] | number one-hot (1..=9; honours 1..=7: E S W N white green red) |
//! | 35 | [`tf::TERMINAL_OR_HONOR`] | 1 for terminals and honours |
//!
//! Features 16..=20 (the value-score matrix of [`crate::efficiency::value_scores`],
//! computed with the observer's `unseen` counts) are filled only when the observer's
//! closed hand holds `14 − 3k` tiles, i.e. when it must discard; otherwise they are 0.
//!
//! # Global-token features (token 34)
//!
//! | feature | name | value and scale |
//! |---|---|---|
//! | 0..4 | [`gf::SEAT_FROM_DEALER`] | one-hot of `(observer − dealer) mod players` (0 = observer deals) |
//! | 4 | [`gf::LIVE_WALL`] | live-wall tiles left / (set tiles − 13·players − dead wall), clamped to `[0, 1]` |
//! | 5..9 | [`gf::SCORES`] | relative seat `r`'s score minus starting points, / 32, clamped to `[-1, 1]` |
//! | 9 | [`gf::HAND_PROGRESS`] | hand number / hands per game, clamped to `[0, 1]` |
//! | 10 | [`gf::PHASE_TURN`] | 1 in a turn phase |
//! | 11 | [`gf::PHASE_CLAIM`] | 1 in a claim window |
//! | 12 | [`gf::ROBBING`] | 1 if the claim window is on an added-kan tile (only ron) |
//! | 13 | [`gf::MY_TURN`] | 1 if the observer is on turn in a turn phase |
//! | 14..18 | [`gf::PENDING_FROM`] | one-hot relative seat of the claimable tile's discarder |
//! | 18 | [`gf::OWN_MELDS`] | own melds / 4 |
//! | 19 | [`gf::MIN_SHANTEN`] | `(min shanten of the own closed hand + 1) / 8`, clamped to `[0, 1]` |
//! | 20 | [`gf::PLAYERS`] | players / 4 (0.75 sanma, 1 four-player) |
//! | 21 | [`gf::KANS`] | kans declared this hand (all players) / 4 |
//! | 22 | [`gf::CHI_ALLOWED`] | 1 if the rules allow chi |
//! | 23 | [`gf::OWN_DISCARDS`] | own discards this hand / 24, clamped to 1 |
//! | 24 | [`gf::AFTER_CALL`] | 1 if the observer is on turn without a drawn tile (after pon/chi) |
//!
//! Every value is finite and lies in `[0, 1]`, except [`gf::SCORES`] in `[-1, 1]`.
//!
//! # Hidden information
//! [`encode`] reads nothing but the [`Observation`], which holds only what its seat may
//! see; the encoding is a deterministic function of it.
//!
//! # Versioning
//! [`ENCODING_VERSION`] changes whenever any layout, scale or meaning above changes.
//! Models and checkpoints record it and refuse a mismatch.

use crate::bots::own_melds;
use crate::efficiency::value_scores;
use crate::game::{LegalActions, Observation, Phase, NUM_ACTIONS};
use crate::shanten::{min_shanten, Forms};
use crate::tile::{Tile, NUM_TILE_TYPES};

/// Version of the layout documented in the module docs.
pub const ENCODING_VERSION: u32 = 1;
/// One token per tile type.
pub const NUM_TILE_TOKENS: usize = NUM_TILE_TYPES;
/// Global tokens after the tile tokens.
pub const NUM_GLOBAL_TOKENS: usize = 1;
/// Tokens in the encoding (34 + 1).
pub const NUM_TOKENS: usize = NUM_TILE_TOKENS + NUM_GLOBAL_TOKENS;
/// Features per token (same width for every token).
pub const TOKEN_FEATURES: usize = 36;
/// Length of the flat encoding.
pub const ENCODED_LEN: usize = NUM_TOKENS * TOKEN_FEATURES;
/// Row of the global token.
pub const GLOBAL_TOKEN: usize = NUM_TILE_TOKENS;
/// Features of the global token that are used (the rest are 0).
pub const GLOBAL_USED: usize = 25;

/// Tile-token feature offsets (see the module table).
pub mod tf {
    /// Copies in hand / 4.
    pub const HAND: usize = 0;
    /// The tile just drawn.
    pub const DRAWN: usize = 1;
    /// Melded copies per relative seat (4 slots).
    pub const MELDED: usize = 2;
    /// Discarded copies per relative seat (4 slots).
    pub const DISCARDED: usize = 6;
    /// Most recent discard per relative seat (4 slots).
    pub const LAST_DISCARD: usize = 10;
    /// Unseen copies / 4.
    pub const UNSEEN: usize = 14;
    /// The type exists in the tile set.
    pub const IN_SET: usize = 15;
    /// Possible discard with a value-score entry.
    pub const HELD: usize = 16;
    /// Shanten after discarding, normalised.
    pub const SHANTEN_AFTER: usize = 17;
    /// Ukeire tiles after discarding, normalised.
    pub const UKEIRE: usize = 18;
    /// Second step after discarding, normalised.
    pub const SECOND_STEP: usize = 19;
    /// Value score of the discard.
    pub const SCORE: usize = 20;
    /// The claimable tile.
    pub const PENDING: usize = 21;
    /// Suit one-hot (4 slots).
    pub const SUIT: usize = 22;
    /// Number one-hot (9 slots).
    pub const NUMBER: usize = 26;
    /// Terminal or honour.
    pub const TERMINAL_OR_HONOR: usize = 35;
}

/// Global-token feature offsets (see the module table).
pub mod gf {
    /// Seat relative to the dealer, one-hot (4 slots).
    pub const SEAT_FROM_DEALER: usize = 0;
    /// Live wall left, normalised.
    pub const LIVE_WALL: usize = 4;
    /// Score change per relative seat (4 slots), in `[-1, 1]`.
    pub const SCORES: usize = 5;
    /// Hand number / hands per game.
    pub const HAND_PROGRESS: usize = 9;
    /// Turn phase.
    pub const PHASE_TURN: usize = 10;
    /// Claim window.
    pub const PHASE_CLAIM: usize = 11;
    /// Claim window on an added-kan tile.
    pub const ROBBING: usize = 12;
    /// The observer is on turn.
    pub const MY_TURN: usize = 13;
    /// Relative seat of the claimable tile's discarder, one-hot (4 slots).
    pub const PENDING_FROM: usize = 14;
    /// Own melds / 4.
    pub const OWN_MELDS: usize = 18;
    /// Own minimum shanten, normalised.
    pub const MIN_SHANTEN: usize = 19;
    /// Players / 4.
    pub const PLAYERS: usize = 20;
    /// Kans this hand / 4.
    pub const KANS: usize = 21;
    /// Chi allowed.
    pub const CHI_ALLOWED: usize = 22;
    /// Own discards / 24.
    pub const OWN_DISCARDS: usize = 23;
    /// On turn after a call (no drawn tile).
    pub const AFTER_CALL: usize = 24;
}

/// Scale for score changes in [`gf::SCORES`].
pub const SCORE_SCALE: f32 = 32.0;

#[inline]
fn set(out: &mut [f32; ENCODED_LEN], token: usize, feature: usize, value: f32) {
    if let Some(x) = out.get_mut(token * TOKEN_FEATURES + feature) {
        *x = value;
    }
}

#[inline]
fn add(out: &mut [f32; ENCODED_LEN], token: usize, feature: usize, value: f32) {
    if let Some(x) = out.get_mut(token * TOKEN_FEATURES + feature) {
        *x += value;
    }
}

#[inline]
fn clamp01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Encodes `obs` into `out` (overwriting all of it). Deterministic, allocation-free and
/// never panics, even for inconsistent observations (values are clamped to the
/// documented ranges).
pub fn encode(obs: &Observation, out: &mut [f32; ENCODED_LEN]) {
    out.fill(0.0);
    let players = (obs.rules.players as usize).clamp(1, 4);
    let seat = obs.seat as usize;
    let rel = |abs: usize| (abs + players - seat % players) % players;

    // Tile identity and per-type counts.
    for t in Tile::all() {
        let k = t.index();
        set(
            out,
            k,
            tf::HAND,
            clamp01(*obs.hand.get(k).unwrap_or(&0) as f32 / 4.0),
        );
        set(
            out,
            k,
            tf::UNSEEN,
            clamp01(*obs.unseen.get(k).unwrap_or(&0) as f32 / 4.0),
        );
        set(
            out,
            k,
            tf::IN_SET,
            obs.rules.tile_set.contains(t) as u8 as f32,
        );
        set(out, k, tf::SUIT + t.suit().index(), 1.0);
        set(out, k, tf::NUMBER + (t.number() as usize - 1).min(8), 1.0);
        set(
            out,
            k,
            tf::TERMINAL_OR_HONOR,
            t.is_terminal_or_honor() as u8 as f32,
        );
    }
    if let Some(d) = obs.drawn {
        set(out, d.index(), tf::DRAWN, 1.0);
    }
    for abs in 0..players {
        let r = rel(abs);
        let mut melded = [0u8; NUM_TILE_TYPES];
        for m in obs.melds.get(abs).into_iter().flatten() {
            m.add_to(&mut melded);
        }
        for (k, &c) in melded.iter().enumerate() {
            if c > 0 {
                set(out, k, tf::MELDED + r, clamp01(c as f32 / 4.0));
            }
        }
        let row = obs.discards.get(abs).map(|d| d.as_slice()).unwrap_or(&[]);
        for d in row {
            add(out, d.tile.index(), tf::DISCARDED + r, 0.25);
        }
        if let Some(d) = row.last() {
            set(out, d.tile.index(), tf::LAST_DISCARD + r, 1.0);
        }
    }
    for k in 0..NUM_TILE_TYPES {
        if let Some(x) =
            out.get_mut(k * TOKEN_FEATURES + tf::DISCARDED..k * TOKEN_FEATURES + tf::DISCARDED + 4)
        {
            for v in x {
                *v = clamp01(*v);
            }
        }
    }
    if let Some(p) = obs.pending {
        set(out, p.tile.index(), tf::PENDING, 1.0);
    }

    // The value-score matrix when the observer must discard.
    let melds = own_melds(obs);
    let tiles: u32 = obs.hand.iter().map(|&c| c as u32).sum();
    let forms = Forms::from_rules(&obs.rules);
    if tiles > 0 && tiles % 3 == 2 && tiles + 3 * melds as u32 == 14 {
        let v = value_scores(&obs.hand, melds, obs.rules.tile_set, forms, &obs.unseen);
        for k in 0..NUM_TILE_TYPES {
            if v.held & (1u64 << k) == 0 {
                continue;
            }
            set(out, k, tf::HELD, 1.0);
            set(
                out,
                k,
                tf::SHANTEN_AFTER,
                clamp01((v.shanten_after[k] as f32 + 1.0) / 8.0),
            );
            set(
                out,
                k,
                tf::UKEIRE,
                v.ukeire_tiles[k].min(128) as f32 / 128.0,
            );
            let s2 = v.second_step[k];
            set(
                out,
                k,
                tf::SECOND_STEP,
                if s2.is_finite() {
                    clamp01(s2 / 128.0)
                } else {
                    0.0
                },
            );
            let sc = v.score[k];
            set(
                out,
                k,
                tf::SCORE,
                if sc.is_finite() { clamp01(sc) } else { 0.0 },
            );
        }
    }

    // The global token.
    let g = GLOBAL_TOKEN;
    let from_dealer = (seat + players - obs.dealer as usize % players) % players;
    set(out, g, gf::SEAT_FROM_DEALER + from_dealer, 1.0);
    let initial_live =
        obs.rules.tile_set.num_tiles() as i32 - 13 * players as i32 - obs.rules.dead_wall as i32;
    if initial_live > 0 {
        set(
            out,
            g,
            gf::LIVE_WALL,
            clamp01(obs.live_wall as f32 / initial_live as f32),
        );
    }
    for abs in 0..players {
        let delta = obs
            .scores
            .get(abs)
            .copied()
            .unwrap_or(0)
            .wrapping_sub(obs.rules.starting_points);
        set(
            out,
            g,
            gf::SCORES + rel(abs),
            (delta as f32 / SCORE_SCALE).clamp(-1.0, 1.0),
        );
    }
    if obs.rules.hands_per_game > 0 {
        set(
            out,
            g,
            gf::HAND_PROGRESS,
            clamp01(obs.hand_number as f32 / obs.rules.hands_per_game as f32),
        );
    }
    let turn = obs.phase == Phase::Turn;
    set(out, g, gf::PHASE_TURN, turn as u8 as f32);
    set(
        out,
        g,
        gf::PHASE_CLAIM,
        (obs.phase == Phase::Claim) as u8 as f32,
    );
    let my_turn = turn && obs.turn == obs.seat;
    set(out, g, gf::MY_TURN, my_turn as u8 as f32);
    if let Some(p) = obs.pending {
        set(out, g, gf::ROBBING, p.added_kan as u8 as f32);
        set(
            out,
            g,
            gf::PENDING_FROM + rel(p.from as usize % players),
            1.0,
        );
    }
    set(out, g, gf::OWN_MELDS, clamp01(melds as f32 / 4.0));
    if tiles > 0 && tiles <= 14 {
        let s = min_shanten(&obs.hand, melds.min(4), obs.rules.tile_set, forms);
        set(out, g, gf::MIN_SHANTEN, clamp01((s as f32 + 1.0) / 8.0));
    }
    set(out, g, gf::PLAYERS, clamp01(players as f32 / 4.0));
    set(out, g, gf::KANS, clamp01(obs.kans as f32 / 4.0));
    set(out, g, gf::CHI_ALLOWED, obs.rules.chi as u8 as f32);
    let own_discards = obs.discards.get(seat).map_or(0, |d| d.len());
    set(
        out,
        g,
        gf::OWN_DISCARDS,
        clamp01(own_discards as f32 / 24.0),
    );
    set(
        out,
        g,
        gf::AFTER_CALL,
        (my_turn && obs.drawn.is_none()) as u8 as f32,
    );
}

/// Writes the legal-action mask over the first `out.len()` action indices (at most
/// [`NUM_ACTIONS`]): 1.0 for legal, 0.0 for illegal actions. A model's mask is as wide
/// as its output (`game::POLICY_ACTIONS_V1` for encoding v1).
pub fn action_mask(legal: &LegalActions, out: &mut [f32]) {
    let bits = legal.bits();
    for (i, x) in out.iter_mut().take(NUM_ACTIONS).enumerate() {
        *x = ((bits[i / 64] >> (i % 64)) & 1) as f32;
    }
}

/// The range a feature value must lie in: `(min, max)` of feature `feature` of token
/// `token`, as documented in the module tables.
pub fn feature_range(token: usize, feature: usize) -> (f32, f32) {
    if token == GLOBAL_TOKEN && (gf::SCORES..gf::SCORES + 4).contains(&feature) {
        (-1.0, 1.0)
    } else if token == GLOBAL_TOKEN && feature >= GLOBAL_USED {
        (0.0, 0.0)
    } else {
        (0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;

    #[test]
    fn shape_arithmetic() {
        assert_eq!(NUM_TOKENS, 35);
        assert_eq!(ENCODED_LEN, 35 * 36);
        assert_eq!(tf::TERMINAL_OR_HONOR + 1, TOKEN_FEATURES);
        assert_eq!(gf::AFTER_CALL + 1, GLOBAL_USED);
        const { assert!(GLOBAL_USED <= TOKEN_FEATURES) };
    }

    #[test]
    fn first_turn_of_the_dealer() {
        let g = Game::new(Rules::sanma(), 5).unwrap();
        let obs = g.observation(0).unwrap();
        let mut out = [0f32; ENCODED_LEN];
        encode(&obs, &mut out);
        let at = |k: usize, f: usize| out[k * TOKEN_FEATURES + f];
        let hand: f32 = (0..34).map(|k| at(k, tf::HAND) * 4.0).sum();
        assert_eq!(hand, 14.0);
        let held = (0..34).filter(|&k| at(k, tf::HELD) == 1.0).count();
        assert_eq!(held, obs.hand.iter().filter(|&&c| c > 0).count());
        assert!((0..34).any(|k| at(k, tf::SCORE) == 1.0));
        assert_eq!(at(GLOBAL_TOKEN, gf::SEAT_FROM_DEALER), 1.0);
        assert_eq!(at(GLOBAL_TOKEN, gf::MY_TURN), 1.0);
        assert_eq!(at(GLOBAL_TOKEN, gf::PLAYERS), 0.75);
        let in_set = (0..34).filter(|&k| at(k, tf::IN_SET) == 1.0).count();
        assert_eq!(in_set, 27);
        let mut mask = [0f32; NUM_ACTIONS];
        action_mask(&g.legal_actions(0), &mut mask);
        assert_eq!(mask.iter().sum::<f32>() as usize, g.legal_actions(0).len());
    }
}
