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
//! | 12 | [`gf::ROBBING`] | 1 if the claim window is on a tile that only ron may take: of a kan being robbed, or a kita |
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
//! # Encoding v2 (the riichi presets)
//!
//! [`Encoding::V2`] keeps the 35 tokens and widens every row to [`TOKEN_FEATURES_V2`]:
//!
//! ```text
//! TOKEN_FEATURES_V2 = 36 (the v1 columns, unchanged) + 12                  = 48
//! ENCODED_LEN_V2    = NUM_TOKENS * TOKEN_FEATURES_V2 = 35 * 48             = 1680
//! global token: v1's 0..25, then 25..GLOBAL_USED_V2 (46); 46..48 are 0
//! ```
//!
//! The v2 columns are filled from [`Observation::riichi`] only, so under the simple
//! rules a v2 encoding is the v1 encoding padded with zeros; the first 36 columns of
//! every tile token and the first [`GLOBAL_USED`] (25) of the global token are always
//! the v1 encoding of the same observation (v1's global row is 0 after them). Under the riichi rules
//! v1's [`gf::SCORES`] saturate (points are thousands); [`gf2::POINTS`] carries them.
//!
//! | tile feature | name | value and scale |
//! |---|---|---|
//! | 36 | [`tf2::DORA`] | dora the type is worth, from the revealed indicators / 4 (sanma: a 1m indicator makes 9m) |
//! | 37 | [`tf2::INDICATOR`] | revealed indicators of the type / 4 |
//! | 38 | [`tf2::RED_HELD`] | 1 on 5m/5p/5s if the own closed hand holds that suit's red five |
//! | 39 | [`tf2::RED_UNSEEN`] | 1 on 5m/5p/5s if the rules have that red five and it is not in the own hand, a meld or an unclaimed discard (a red five shown as a dora indicator is not told apart, so it counts as unseen) |
//! | 40..44 | [`tf2::RIICHI_TILE`] | 1 if the type is relative seat `r`'s riichi declaration discard |
//! | 44..48 | [`tf2::SAFE`] | 1 if the type cannot ron for relative seat `r` for public reasons: it is in `r`'s discard row (furiten), or `r` is in riichi and someone discarded it after `r`'s declaration (riichi furiten) |
//!
//! | global feature | name | value and scale |
//! |---|---|---|
//! | 25 | [`gf2::RIICHI_RULES`] | 1 under the riichi rules |
//! | 26..30 | [`gf2::IN_RIICHI`] | 1 if relative seat `r` has declared riichi |
//! | 30..34 | [`gf2::KITA`] | norths relative seat `r` set aside / 4 |
//! | 34 | [`gf2::HONBA`] | honba / 8, clamped to 1 |
//! | 35 | [`gf2::STICKS`] | riichi sticks on the table / 4, clamped to 1 |
//! | 36..39 | [`gf2::ROUND_WIND`] | round wind one-hot: East, South, West |
//! | 39 | [`gf2::FURITEN`] | 1 if the observer cannot ron now (any furiten) |
//! | 40..44 | [`gf2::POINTS`] | (relative seat `r`'s points − starting points) / starting points, clamped to `[-1, 1]` |
//! | 44 | [`gf2::DORA_HELD`] | dora in the own hand and melds (types × indicators, red fives, kita with north's dora) / 8, clamped to 1 |
//! | 45 | [`gf2::INDICATORS`] | revealed dora indicators / 5 |
//!
//! The seat wind is v1's [`gf::SEAT_FROM_DEALER`]. A v2 model has
//! [`Encoding::policy_actions`] = [`NUM_ACTIONS`] = 177 logits, the riichi actions
//! included.
//!
//! # Hidden information
//! [`encode`] reads nothing but the [`Observation`], which holds only what its seat may
//! see; the encoding is a deterministic function of it.
//!
//! # Versioning
//! The version changes whenever any layout, scale or meaning above changes; [`Encoding`]
//! lists the versions this build writes ([`encode`] and [`ENCODING_VERSION`] are v1's).
//! Models and checkpoints record their version and are refused by a build that does not
//! write it, or under rules it does not fit ([`Encoding::fits`]).

use crate::bots::own_melds;
use crate::efficiency::{value_scores, ValueScores};
use crate::game::{LegalActions, Observation, Phase, NUM_ACTIONS};
use crate::shanten::{min_shanten, Forms};
use crate::tile::{Tile, NUM_TILE_TYPES};

mod riichi_features;
mod version;

pub use version::{Encoding, WrongLength};

/// Version of the layout [`encode`] writes (v1; [`Encoding`] names every version).
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
/// Features per token in encoding v2 (v1's 36, then 12 riichi features).
pub const TOKEN_FEATURES_V2: usize = 48;
/// Length of the flat v2 encoding.
pub const ENCODED_LEN_V2: usize = NUM_TOKENS * TOKEN_FEATURES_V2;
/// Length of the longest encoding (a buffer every version fits).
pub const MAX_ENCODED_LEN: usize = ENCODED_LEN_V2;
/// Row of the global token.
pub const GLOBAL_TOKEN: usize = NUM_TILE_TOKENS;
/// Features of the global token that are used (the rest are 0).
pub const GLOBAL_USED: usize = 25;
/// Features of the global token that encoding v2 uses.
pub const GLOBAL_USED_V2: usize = 46;

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

/// Tile-token feature offsets that encoding v2 adds (see the module table).
pub mod tf2 {
    /// Dora this type is, from the revealed indicators / 4.
    pub const DORA: usize = 36;
    /// Revealed indicators of this type / 4.
    pub const INDICATOR: usize = 37;
    /// The observer holds the red copy of this five.
    pub const RED_HELD: usize = 38;
    /// The red copy of this five exists and the observer has not seen it.
    pub const RED_UNSEEN: usize = 39;
    /// The riichi declaration tile of relative seat `r` (4 slots).
    pub const RIICHI_TILE: usize = 40;
    /// Safe against relative seat `r` (4 slots).
    pub const SAFE: usize = 44;
}

/// Global-token feature offsets that encoding v2 adds (see the module table).
pub mod gf2 {
    /// The riichi rules are in play.
    pub const RIICHI_RULES: usize = 25;
    /// Relative seat `r` has declared riichi (4 slots).
    pub const IN_RIICHI: usize = 26;
    /// Kita set aside by relative seat `r` / 4 (4 slots).
    pub const KITA: usize = 30;
    /// Honba / 8.
    pub const HONBA: usize = 34;
    /// Riichi sticks on the table / 4.
    pub const STICKS: usize = 35;
    /// Round wind one-hot: East, South, West (3 slots).
    pub const ROUND_WIND: usize = 36;
    /// The observer is furiten.
    pub const FURITEN: usize = 39;
    /// Relative seat `r`'s points minus the starting points, / starting points (4 slots).
    pub const POINTS: usize = 40;
    /// Dora the observer holds / 8.
    pub const DORA_HELD: usize = 44;
    /// Revealed dora indicators / 5.
    pub const INDICATORS: usize = 45;
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

/// The rows being written: a flat buffer of [`NUM_TOKENS`] rows of `stride` features.
/// Writes to a feature at or beyond `stride` (a v2 feature in a v1 buffer) are dropped,
/// so the v1 layout is exactly the first [`TOKEN_FEATURES`] columns of v2.
pub(crate) struct Rows<'a> {
    data: &'a mut [f32],
    stride: usize,
}

impl Rows<'_> {
    #[inline]
    pub(crate) fn set(&mut self, token: usize, feature: usize, value: f32) {
        if feature < self.stride {
            if let Some(x) = self.data.get_mut(token * self.stride + feature) {
                *x = value;
            }
        }
    }

    #[inline]
    fn add(&mut self, token: usize, feature: usize, value: f32) {
        if feature < self.stride {
            if let Some(x) = self.data.get_mut(token * self.stride + feature) {
                *x += value;
            }
        }
    }

    #[inline]
    fn get(&self, token: usize, feature: usize) -> f32 {
        if feature < self.stride {
            self.data
                .get(token * self.stride + feature)
                .copied()
                .unwrap_or(0.0)
        } else {
            0.0
        }
    }
}

#[inline]
pub(crate) fn clamp01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Encodes `obs` in encoding v1 into `out` (overwriting all of it). Deterministic,
/// allocation-free and never panics, even for inconsistent observations (values are
/// clamped to the documented ranges). [`Encoding::encode`] writes any version.
pub fn encode(obs: &Observation, out: &mut [f32; ENCODED_LEN]) {
    out.fill(0.0);
    let mut rows = Rows {
        data: out,
        stride: TOKEN_FEATURES,
    };
    fill_v1(obs, None, &mut rows);
}

/// The v1 features (every version's first [`TOKEN_FEATURES`] columns); `scores`, when
/// given, are the observer's value scores already computed (see
/// [`Encoding::encode_with_scores`]).
fn fill_v1(obs: &Observation, scores: Option<&ValueScores>, out: &mut Rows) {
    fill_tile_counts(obs, out);
    fill_value_scores(obs, scores, out);
    fill_global(obs, out);
}

/// Relative seat of absolute seat `abs` for the observer (see the module docs).
pub(crate) fn relative(obs: &Observation, abs: usize) -> usize {
    let players = (obs.rules.players as usize).clamp(1, 4);
    (abs + players - obs.seat as usize % players) % players
}

/// Tile identity, own hand, melds, discards, unseen counts and the claimable tile.
fn fill_tile_counts(obs: &Observation, out: &mut Rows) {
    let players = (obs.rules.players as usize).clamp(1, 4);
    for t in Tile::all() {
        let k = t.index();
        let hand = *obs.hand.get(k).unwrap_or(&0) as f32;
        out.set(k, tf::HAND, clamp01(hand / 4.0));
        let unseen = *obs.unseen.get(k).unwrap_or(&0) as f32;
        out.set(k, tf::UNSEEN, clamp01(unseen / 4.0));
        let in_set = obs.rules.tile_set.contains(t);
        out.set(k, tf::IN_SET, in_set as u8 as f32);
        out.set(k, tf::SUIT + t.suit().index(), 1.0);
        out.set(k, tf::NUMBER + (t.number() as usize - 1).min(8), 1.0);
        let terminal = t.is_terminal_or_honor();
        out.set(k, tf::TERMINAL_OR_HONOR, terminal as u8 as f32);
    }
    if let Some(d) = obs.drawn {
        out.set(d.index(), tf::DRAWN, 1.0);
    }
    for abs in 0..players {
        let r = relative(obs, abs);
        let mut melded = [0u8; NUM_TILE_TYPES];
        for m in obs.melds.get(abs).into_iter().flatten() {
            m.add_to(&mut melded);
        }
        for (k, &c) in melded.iter().enumerate() {
            if c > 0 {
                out.set(k, tf::MELDED + r, clamp01(c as f32 / 4.0));
            }
        }
        let row = obs.discards.get(abs).map(|d| d.as_slice()).unwrap_or(&[]);
        for d in row {
            out.add(d.tile.index(), tf::DISCARDED + r, 0.25);
        }
        if let Some(d) = row.last() {
            out.set(d.tile.index(), tf::LAST_DISCARD + r, 1.0);
        }
    }
    for k in 0..NUM_TILE_TYPES {
        for r in 0..4 {
            let v = out.get(k, tf::DISCARDED + r);
            out.set(k, tf::DISCARDED + r, clamp01(v));
        }
    }
    if let Some(p) = obs.pending {
        out.set(p.tile.index(), tf::PENDING, 1.0);
    }
}

/// The value-score matrix, when the observer must discard (computed here unless the
/// caller passed them).
fn fill_value_scores(obs: &Observation, scores: Option<&ValueScores>, out: &mut Rows) {
    let melds = own_melds(obs);
    let tiles: u32 = obs.hand.iter().map(|&c| c as u32).sum();
    if !(tiles > 0 && tiles % 3 == 2 && tiles + 3 * melds as u32 == 14) {
        return;
    }
    let computed;
    let v = match scores {
        Some(v) => v,
        None => {
            let forms = Forms::from_rules(&obs.rules);
            computed = value_scores(&obs.hand, melds, obs.rules.tile_set, forms, &obs.unseen);
            &computed
        }
    };
    for k in 0..NUM_TILE_TYPES {
        if v.held & (1u64 << k) == 0 {
            continue;
        }
        out.set(k, tf::HELD, 1.0);
        let after = (v.shanten_after[k] as f32 + 1.0) / 8.0;
        out.set(k, tf::SHANTEN_AFTER, clamp01(after));
        out.set(k, tf::UKEIRE, v.ukeire_tiles[k].min(128) as f32 / 128.0);
        let s2 = v.second_step[k];
        let s2 = if s2.is_finite() {
            clamp01(s2 / 128.0)
        } else {
            0.0
        };
        out.set(k, tf::SECOND_STEP, s2);
        let sc = v.score[k];
        out.set(k, tf::SCORE, if sc.is_finite() { clamp01(sc) } else { 0.0 });
    }
}

/// The global token's v1 features.
fn fill_global(obs: &Observation, out: &mut Rows) {
    let players = (obs.rules.players as usize).clamp(1, 4);
    let seat = obs.seat as usize;
    let g = GLOBAL_TOKEN;
    let from_dealer = (seat + players - obs.dealer as usize % players) % players;
    out.set(g, gf::SEAT_FROM_DEALER + from_dealer, 1.0);
    let initial_live =
        obs.rules.tile_set.num_tiles() as i32 - 13 * players as i32 - obs.rules.dead_wall as i32;
    if initial_live > 0 {
        let live = obs.live_wall as f32 / initial_live as f32;
        out.set(g, gf::LIVE_WALL, clamp01(live));
    }
    for abs in 0..players {
        let score = obs.scores.get(abs).copied().unwrap_or(0);
        let delta = score.wrapping_sub(obs.rules.starting_points);
        let scaled = (delta as f32 / SCORE_SCALE).clamp(-1.0, 1.0);
        out.set(g, gf::SCORES + relative(obs, abs), scaled);
    }
    if obs.rules.hands_per_game > 0 {
        let progress = obs.hand_number as f32 / obs.rules.hands_per_game as f32;
        out.set(g, gf::HAND_PROGRESS, clamp01(progress));
    }
    let turn = obs.phase == Phase::Turn;
    out.set(g, gf::PHASE_TURN, turn as u8 as f32);
    out.set(g, gf::PHASE_CLAIM, (obs.phase == Phase::Claim) as u8 as f32);
    let my_turn = turn && obs.turn == obs.seat;
    out.set(g, gf::MY_TURN, my_turn as u8 as f32);
    if let Some(p) = obs.pending {
        out.set(g, gf::ROBBING, (p.added_kan || p.kita) as u8 as f32);
        out.set(
            g,
            gf::PENDING_FROM + relative(obs, p.from as usize % players),
            1.0,
        );
    }
    let melds = own_melds(obs);
    out.set(g, gf::OWN_MELDS, clamp01(melds as f32 / 4.0));
    let tiles: u32 = obs.hand.iter().map(|&c| c as u32).sum();
    if tiles > 0 && tiles <= 14 {
        let forms = Forms::from_rules(&obs.rules);
        let s = min_shanten(&obs.hand, melds.min(4), obs.rules.tile_set, forms);
        out.set(g, gf::MIN_SHANTEN, clamp01((s as f32 + 1.0) / 8.0));
    }
    out.set(g, gf::PLAYERS, clamp01(players as f32 / 4.0));
    out.set(g, gf::KANS, clamp01(obs.kans as f32 / 4.0));
    out.set(g, gf::CHI_ALLOWED, obs.rules.chi as u8 as f32);
    let own_discards = obs.discards.get(seat).map_or(0, |d| d.len());
    out.set(g, gf::OWN_DISCARDS, clamp01(own_discards as f32 / 24.0));
    let after_call = my_turn && obs.drawn.is_none();
    out.set(g, gf::AFTER_CALL, after_call as u8 as f32);
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

/// The range a feature value must lie in under encoding v1 (see
/// [`Encoding::feature_range`] for any version).
pub fn feature_range(token: usize, feature: usize) -> (f32, f32) {
    Encoding::V1.feature_range(token, feature)
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
