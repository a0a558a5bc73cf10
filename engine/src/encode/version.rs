//! [`Encoding`]: the encoding versions this build writes, with the shape of each.

use super::{
    fill_v1, gf, gf2, riichi_features, Rows, ENCODED_LEN, GLOBAL_TOKEN, GLOBAL_USED,
    GLOBAL_USED_V2, NUM_TOKENS, TOKEN_FEATURES, TOKEN_FEATURES_V2,
};
use crate::efficiency::ValueScores;
use crate::game::{Observation, NUM_ACTIONS, POLICY_ACTIONS_V1};
use crate::rules::Rules;

/// One version of the observation encoding (the tables are in the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Encoding {
    /// Version 1: 35 tokens × 36 features; the simple presets' models (141 logits).
    V1,
    /// Version 2: 35 tokens × 48 features, v1's columns first and the riichi state after
    /// them; the riichi presets' models (177 logits: every action).
    V2,
}

/// The buffer handed to [`Encoding::encode`] does not have the version's length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WrongLength {
    /// The length the version needs ([`Encoding::encoded_len`]).
    pub expected: usize,
    /// The buffer's length.
    pub got: usize,
}

impl core::fmt::Display for WrongLength {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "encoding buffer of {} floats, expected {}",
            self.got, self.expected
        )
    }
}

impl Encoding {
    /// Every version, oldest first.
    pub const ALL: [Encoding; 2] = [Encoding::V1, Encoding::V2];

    /// The version number models and checkpoints record.
    pub const fn version(self) -> u32 {
        match self {
            Encoding::V1 => 1,
            Encoding::V2 => 2,
        }
    }

    /// The version with number `version`, if this build knows it.
    pub const fn from_version(version: u32) -> Option<Encoding> {
        match version {
            1 => Some(Encoding::V1),
            2 => Some(Encoding::V2),
            _ => None,
        }
    }

    /// The version a new model for `rules` uses: v2 under the riichi rules (whose state
    /// v1 cannot carry, and whose riichi, kita and nine-terminals actions v1 models
    /// lack), v1 for the simple presets (whose shipped model is v1).
    pub const fn for_rules(rules: &Rules) -> Encoding {
        if rules.is_riichi() {
            Encoding::V2
        } else {
            Encoding::V1
        }
    }

    /// Whether a model of this version can play under `rules`: every version plays the
    /// simple rules; only v2 carries the riichi state and actions.
    pub const fn fits(self, rules: &Rules) -> bool {
        match self {
            Encoding::V1 => !rules.is_riichi(),
            Encoding::V2 => true,
        }
    }

    /// Tokens (the same in every version).
    pub const fn tokens(self) -> usize {
        NUM_TOKENS
    }

    /// Features per token.
    pub const fn token_features(self) -> usize {
        match self {
            Encoding::V1 => TOKEN_FEATURES,
            Encoding::V2 => TOKEN_FEATURES_V2,
        }
    }

    /// Floats in one encoded observation (`tokens × token_features`).
    pub const fn encoded_len(self) -> usize {
        NUM_TOKENS * self.token_features()
    }

    /// Features of the global token that are used (the rest of its row is 0).
    pub const fn global_used(self) -> usize {
        match self {
            Encoding::V1 => GLOBAL_USED,
            Encoding::V2 => GLOBAL_USED_V2,
        }
    }

    /// A model's logits: the first `policy_actions` action indices (v1: 141, the
    /// actions of the simple rules; v2: all [`NUM_ACTIONS`]).
    pub const fn policy_actions(self) -> usize {
        match self {
            Encoding::V1 => POLICY_ACTIONS_V1,
            Encoding::V2 => NUM_ACTIONS,
        }
    }

    /// Encodes `obs` into `out`, which must hold exactly [`Encoding::encoded_len`] floats
    /// (overwritten). Deterministic, allocation-free, never panics.
    pub fn encode(self, obs: &Observation, out: &mut [f32]) -> Result<(), WrongLength> {
        self.encode_with_scores(obs, None, out)
    }

    /// [`Encoding::encode`] reusing value scores the caller already computed (an
    /// advisor that explains its discards computes them anyway, so it need not compute
    /// them twice: at the tail of the latency, p99, they cost ≈ 0.3–0.5 ms on this
    /// project's 2-core machine, `cargo bench -p mahjong-inference --bench advise`,
    /// efficiency-only line). `scores` must be
    /// [`crate::efficiency::value_scores`] of `obs`'s hand, own meld count, tile set,
    /// forms and unseen counts; they are read only when the observer holds a hand to
    /// discard from, as `encode` would compute them, and `None` computes them here.
    pub fn encode_with_scores(
        self,
        obs: &Observation,
        scores: Option<&ValueScores>,
        out: &mut [f32],
    ) -> Result<(), WrongLength> {
        if out.len() != self.encoded_len() {
            return Err(WrongLength {
                expected: self.encoded_len(),
                got: out.len(),
            });
        }
        out.fill(0.0);
        let mut rows = Rows {
            data: out,
            stride: self.token_features(),
        };
        fill_v1(obs, scores, &mut rows);
        if self == Encoding::V2 {
            riichi_features::fill_riichi(obs, &mut rows);
        }
        Ok(())
    }

    /// The range a feature value must lie in: `(min, max)` of feature `feature` of
    /// token `token`, as documented in the module tables.
    pub fn feature_range(self, token: usize, feature: usize) -> (f32, f32) {
        let global = token == GLOBAL_TOKEN;
        let signed = (gf::SCORES..gf::SCORES + 4).contains(&feature)
            || (self == Encoding::V2 && (gf2::POINTS..gf2::POINTS + 4).contains(&feature));
        if global && signed {
            (-1.0, 1.0)
        } else if global && feature >= self.global_used() {
            (0.0, 0.0)
        } else {
            (0.0, 1.0)
        }
    }
}

const _: () = assert!(Encoding::V1.encoded_len() == ENCODED_LEN);
