//! Rules as data: a [`Rules`] value with presets.
//!
//! [`Rules::sanma`] (three players, 108 tiles, no chi) is the default everywhere;
//! [`Rules::four_player`] is the 136-tile variant with chi. Every flag is a plain field so
//! that a record or a config file carries the exact rules a game was played under.
//!
//! [`Rules::tenhou_sanma`] and [`Rules::tenhou_4p`] play riichi mahjong under Tenhou's
//! rules, [`Rules::majsoul_sanma`] and [`Rules::majsoul_4p`] under Mahjong Soul's: their [`Rules::riichi`] holds the riichi flow ([`RiichiRules`], documented
//! with its sources in [`riichi_rules`]); the simple presets have none and play exactly as
//! before it existed.

pub mod riichi_rules;

use serde::{Deserialize, Serialize};

pub use self::riichi_rules::{GameLength, RiichiRules};
use crate::tile::TileSet;

/// What happens when more than one player can win on the same discard.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub enum MultipleRon {
    /// Every player who declares a win on the discard wins; the discarder pays each.
    AllWinners,
    /// Only the first declaring winner in turn order after the discarder wins.
    FirstInTurnOrder,
}

/// The points table. A win is worth `base` plus every bonus that applies, except
/// thirteen orphans, which is worth `thirteen_orphans` alone.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub struct ScoreTable {
    /// Value of any win before bonuses.
    pub base: i32,
    /// Bonus for a self-drawn win (tsumo).
    pub self_draw: i32,
    /// Bonus for seven pairs.
    pub seven_pairs: i32,
    /// Bonus for a regular hand whose four sets are all pungs or kans.
    pub all_pungs: i32,
    /// Bonus for a hand of one number suit plus honours (with at least one honour).
    pub half_flush: i32,
    /// Bonus for a hand of one number suit only (replaces the half-flush bonus).
    pub full_flush: i32,
    /// Bonus for each kan the winner declared.
    pub per_kan: i32,
    /// Bonus for each pung or kan of dragons.
    pub dragon_pung: i32,
    /// Value of thirteen orphans (no other bonus is added).
    pub thirteen_orphans: i32,
}

impl ScoreTable {
    /// The default table: 1 + bonuses (self-draw +1, seven pairs +1, all pungs +1,
    /// half flush +1, full flush +3, each kan +1, each dragon pung +1); thirteen orphans 13.
    pub const DEFAULT: ScoreTable = ScoreTable {
        base: 1,
        self_draw: 1,
        seven_pairs: 1,
        all_pungs: 1,
        half_flush: 1,
        full_flush: 3,
        per_kan: 1,
        dragon_pung: 1,
        thirteen_orphans: 13,
    };
}

impl Default for ScoreTable {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The complete rule set of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Number of players, 3 or 4.
    pub players: u8,
    /// Which tiles are in the wall.
    pub tile_set: TileSet,
    /// Whether the next player may claim a discard to form a sequence (chi).
    pub chi: bool,
    /// Whether seven distinct pairs is a winning hand.
    pub seven_pairs: bool,
    /// Whether thirteen orphans is a winning hand.
    pub thirteen_orphans: bool,
    /// Tiles set aside at the back of the wall; kan replacement draws come from here and
    /// the dead wall is topped up from the end of the live wall, so its size stays fixed.
    pub dead_wall: u8,
    /// Whether a player may win on the tile another player adds to a pon (robbing a kan).
    pub rob_kan: bool,
    /// Resolution when several players win on one discard.
    pub multiple_ron: MultipleRon,
    /// Number of hands in a game (the dealer seat rotates between hands unless the
    /// dealer wins, in which case the dealer repeats and the hand still counts). Under
    /// riichi rules the game length is [`RiichiRules::length`] and this is only a cap
    /// on hand numbers (`u16::MAX`).
    pub hands_per_game: u16,
    /// Points each player starts a game with.
    pub starting_points: i32,
    /// The points table (unused under riichi rules, which score with
    /// [`crate::score::score`]).
    pub scoring: ScoreTable,
    /// The riichi game flow (riichi, dora, furiten, yaku-required wins, honba, riichi
    /// sticks, tenpai payments, abortive draws, round winds, game end), or `None` for the
    /// simple rules.
    pub riichi: Option<RiichiRules>,
}

/// Why a [`Rules`] value cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum RulesError {
    /// `players` is not 3 or 4.
    BadPlayerCount,
    /// The wall is too small to deal every hand and leave the dead wall.
    WallTooSmall,
    /// The dead wall cannot supply the four kan replacement draws a hand may need.
    DeadWallTooSmall,
    /// `hands_per_game` is zero.
    NoHands,
    /// The riichi rules do not fit the players, tile set, chi, red fives, kita or dead
    /// wall (which needs 14 tiles: 10 indicators and 4 replacement tiles).
    RiichiMismatch,
}

impl core::fmt::Display for RulesError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            RulesError::BadPlayerCount => "players must be 3 or 4",
            RulesError::WallTooSmall => "the wall is too small for the deal and the dead wall",
            RulesError::DeadWallTooSmall => {
                "the dead wall must hold at least 4 tiles (kan replacement draws)"
            }
            RulesError::NoHands => "a game needs at least one hand",
            RulesError::RiichiMismatch => {
                "the riichi rules do not fit the players, tiles, chi, red fives, kita or dead wall"
            }
        })
    }
}

impl core::error::Error for RulesError {}

impl Rules {
    /// Three players, the 108-tile sanma set, no chi; pon, kan and both kinds of win.
    pub const fn sanma() -> Rules {
        Rules {
            players: 3,
            tile_set: TileSet::Sanma,
            chi: false,
            seven_pairs: true,
            thirteen_orphans: true,
            dead_wall: 14,
            rob_kan: true,
            multiple_ron: MultipleRon::AllWinners,
            hands_per_game: 3,
            starting_points: 0,
            scoring: ScoreTable::DEFAULT,
            riichi: None,
        }
    }

    /// Four players, the full 136-tile set, chi allowed.
    pub const fn four_player() -> Rules {
        Rules {
            players: 4,
            tile_set: TileSet::FourPlayer,
            chi: true,
            seven_pairs: true,
            thirteen_orphans: true,
            dead_wall: 14,
            rob_kan: true,
            multiple_ron: MultipleRon::AllWinners,
            hands_per_game: 4,
            starting_points: 0,
            scoring: ScoreTable::DEFAULT,
            riichi: None,
        }
    }

    /// Tenhou sanma: three players, 108 tiles (no 2m–8m), red 5p and 5s, kita, no chi,
    /// 35 000 points, hanchan to 40 000 ([`RiichiRules::tenhou_sanma`]).
    pub const fn tenhou_sanma() -> Rules {
        Rules {
            players: 3,
            tile_set: TileSet::Sanma,
            chi: false,
            seven_pairs: true,
            thirteen_orphans: true,
            dead_wall: 14,
            rob_kan: true,
            multiple_ron: MultipleRon::AllWinners,
            hands_per_game: u16::MAX,
            starting_points: 35_000,
            scoring: ScoreTable::DEFAULT,
            riichi: Some(RiichiRules::tenhou_sanma()),
        }
    }

    /// Tenhou four-player: 136 tiles, red 5m, 5p and 5s, chi, 25 000 points, hanchan to
    /// 30 000 ([`RiichiRules::tenhou_4p`]).
    pub const fn tenhou_4p() -> Rules {
        Rules {
            players: 4,
            tile_set: TileSet::FourPlayer,
            chi: true,
            seven_pairs: true,
            thirteen_orphans: true,
            dead_wall: 14,
            rob_kan: true,
            multiple_ron: MultipleRon::AllWinners,
            hands_per_game: u16::MAX,
            starting_points: 25_000,
            scoring: ScoreTable::DEFAULT,
            riichi: Some(RiichiRules::tenhou_4p()),
        }
    }

    /// Mahjong Soul four-player ranked (段位戦): [`Rules::tenhou_4p`]'s table with
    /// [`RiichiRules::majsoul_4p`] (double yakuman, kokushi robs a closed kan, no
    /// triple-ron abort, pao per yakuman).
    pub const fn majsoul_4p() -> Rules {
        let mut r = Rules::tenhou_4p();
        r.riichi = Some(RiichiRules::majsoul_4p());
        r
    }

    /// Mahjong Soul three-player ranked: [`Rules::tenhou_sanma`]'s table with
    /// [`RiichiRules::majsoul_sanma`].
    pub const fn majsoul_sanma() -> Rules {
        let mut r = Rules::tenhou_sanma();
        r.riichi = Some(RiichiRules::majsoul_sanma());
        r
    }

    /// This preset with an east-only game (東風戦) instead of hanchan; unchanged for
    /// the simple rules.
    pub const fn east_only(mut self) -> Rules {
        if let Some(r) = self.riichi.as_mut() {
            r.length = GameLength::EastOnly;
        }
        self
    }

    /// Whether the riichi game flow applies.
    pub const fn is_riichi(&self) -> bool {
        self.riichi.is_some()
    }

    /// Every canonical preset name [`Rules::preset`] knows, simple presets first.
    pub const PRESET_NAMES: [&'static str; 10] = [
        "sanma",
        "four-player",
        "tenhou-sanma",
        "tenhou-4p",
        "tenhou-sanma-east",
        "tenhou-4p-east",
        "majsoul-sanma",
        "majsoul-4p",
        "majsoul-sanma-east",
        "majsoul-4p-east",
    ];

    /// The canonical name of these rules when they are a preset's ([`Rules::PRESET_NAMES`]).
    pub fn preset_name(&self) -> Option<&'static str> {
        Rules::PRESET_NAMES
            .into_iter()
            .find(|n| Rules::preset(n).as_ref() == Some(self))
    }

    /// Looks a preset up by name: `sanma` or `four-player` (also `4p`, `yonma`);
    /// `tenhou-sanma` or `tenhou-4p` (hanchan), `tenhou-sanma-east` or `tenhou-4p-east`
    /// (east-only); `majsoul-4p`, `majsoul-sanma` and their `-east` forms.
    pub fn preset(name: &str) -> Option<Rules> {
        match name {
            "sanma" | "3p" => Some(Rules::sanma()),
            "four-player" | "four_player" | "4p" | "yonma" => Some(Rules::four_player()),
            "tenhou-sanma" => Some(Rules::tenhou_sanma()),
            "tenhou-4p" => Some(Rules::tenhou_4p()),
            "tenhou-sanma-east" => Some(Rules::tenhou_sanma().east_only()),
            "tenhou-4p-east" => Some(Rules::tenhou_4p().east_only()),
            "majsoul-4p" => Some(Rules::majsoul_4p()),
            "majsoul-sanma" => Some(Rules::majsoul_sanma()),
            "majsoul-4p-east" => Some(Rules::majsoul_4p().east_only()),
            "majsoul-sanma-east" => Some(Rules::majsoul_sanma().east_only()),
            _ => None,
        }
    }

    /// Checks that the rules describe a playable game.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.players != 3 && self.players != 4 {
            return Err(RulesError::BadPlayerCount);
        }
        if self.dead_wall < 4 {
            return Err(RulesError::DeadWallTooSmall);
        }
        // 13 tiles per player plus the dealer's first draw, plus the dead wall.
        let needed = 13 * self.players as usize + 1 + self.dead_wall as usize;
        if needed > self.tile_set.num_tiles() {
            return Err(RulesError::WallTooSmall);
        }
        if self.hands_per_game == 0 {
            return Err(RulesError::NoHands);
        }
        if let Some(r) = &self.riichi {
            let sanma = self.tile_set == TileSet::Sanma;
            let fits = r.preset.players() == self.players
                && r.preset.tile_set() == self.tile_set
                && !(sanma && self.chi)
                && (sanma || !r.kita)
                && r.red_fives.iter().all(|&n| n <= 1)
                && !(sanma && r.red_fives[0] > 0)
                && self.dead_wall == 14
                && r.riichi_cost >= 0
                && r.noten_total >= 0;
            if !fits {
                return Err(RulesError::RiichiMismatch);
            }
        }
        Ok(())
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::sanma()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        assert_eq!(Rules::sanma().validate(), Ok(()));
        assert_eq!(Rules::four_player().validate(), Ok(()));
        assert_eq!(Rules::default(), Rules::sanma());
        assert_eq!(Rules::preset("4p"), Some(Rules::four_player()));
        assert_eq!(Rules::preset("riichi"), None);
        for name in Rules::PRESET_NAMES.iter().skip(2) {
            let r = Rules::preset(name).unwrap();
            assert_eq!(r.validate(), Ok(()), "{name}");
            assert_eq!(r.preset_name(), Some(*name));
            assert!(r.is_riichi());
        }
        assert_eq!(
            Rules::preset("tenhou-4p-east")
                .unwrap()
                .riichi
                .unwrap()
                .length,
            GameLength::EastOnly
        );
        assert_eq!(Rules::sanma().east_only(), Rules::sanma());
    }

    #[test]
    fn riichi_rules_must_fit() {
        let mut r = Rules::tenhou_sanma();
        r.chi = true;
        assert_eq!(r.validate(), Err(RulesError::RiichiMismatch));
        let mut r = Rules::tenhou_4p();
        r.riichi = Some(RiichiRules::tenhou_sanma());
        assert_eq!(r.validate(), Err(RulesError::RiichiMismatch));
        let mut r = Rules::tenhou_sanma();
        if let Some(x) = r.riichi.as_mut() {
            x.red_fives = [1, 1, 1];
        }
        assert_eq!(r.validate(), Err(RulesError::RiichiMismatch));
        let mut r = Rules::tenhou_4p();
        if let Some(x) = r.riichi.as_mut() {
            x.kita = true;
        }
        assert_eq!(r.validate(), Err(RulesError::RiichiMismatch));
    }

    #[test]
    fn invalid_rules() {
        let mut r = Rules::sanma();
        r.players = 5;
        assert_eq!(r.validate(), Err(RulesError::BadPlayerCount));
        let mut r = Rules::sanma();
        r.players = 4;
        r.dead_wall = 60;
        assert_eq!(r.validate(), Err(RulesError::WallTooSmall));
        let mut r = Rules::sanma();
        r.dead_wall = 2;
        assert_eq!(r.validate(), Err(RulesError::DeadWallTooSmall));
    }
}
