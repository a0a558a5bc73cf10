//! Riichi scoring under Tenhou's rules: yaku, dora, fu, limits and payments of one win.
//!
//! [`score`] takes a [`WinInput`] (the concealed tiles with the winning tile, the melds,
//! how and when the hand was won, winds, dora indicators, red fives, kita, honba and
//! riichi sticks) and returns a [`Score`] or a [`ScoreError`]. It never allocates and
//! never panics. The rules are those of Tenhou's published rules page
//! (<https://tenhou.net/man/>), four-player ([`Preset::Tenhou4p`]) or three-player
//! ([`Preset::TenhouSanma`]); yaku and fu follow the Japanese Mahjong Wiki
//! (<https://riichi.wiki/List_of_yaku>, <https://riichi.wiki/Fu>).
//!
//! The riichi terms (yaku, han, fu, menzen, dora, ura dora, aka dora, kita, honba,
//! riichi sticks, dealer, limits) are defined in the crate docs.
//!
//! ## Rule choices (Tenhou)
//! - Open tanyao counts (kuitan ari); red fives count one han each (4p: one red 5 of
//!   each suit; sanma: red 5p and 5s).
//! - No kiriage mangan: 4 han 30 fu and 3 han 60 fu pay their table value.
//! - 13 han or more without a yakuman is a counted (kazoe) yakuman.
//! - No double yakuman for a single pattern: the 13-sided thirteen orphans, the
//!   nine-sided nine gates, four concealed triplets on a pair wait and big four winds are
//!   single yakuman, reported under their own names. Several yakuman in one hand add up.
//!   The Mahjong Soul presets ([`Preset::Majsoul4p`], [`Preset::MajsoulSanma`]) count
//!   these four double ([`Preset::double_yakuman`]); nothing else in scoring differs.
//! - A pair of a wind that is both seat and round wind is worth 4 fu.
//! - Pinfu by tsumo is 20 fu; an open hand with no fu at all is 30 fu.
//! - Sanma: 2m–8m do not exist, the 1m indicator makes 9m the dora (and 9m makes 1m),
//!   there is no chi, seats are East, South and West (north is never a seat wind, so a
//!   north triplet is a yaku only in a north round), tsumo payments are the four-player
//!   shares without the missing player's (tsumo loss), and each honba adds 100 per payer
//!   on tsumo and 200 on ron (four-player: 300 on ron). Both oracles (PyPI `mahjong`
//!   and `riichienv`) score sanma so.
//! - The most valuable decomposition is chosen: highest points, then a real yakuman over
//!   a counted one, then highest han, then highest fu.
//! - Not scored here: nagashi mangan (not a win), pao, renhou (Tenhou has none).
//!
//! ## Verification
//! `engine/tests/riichi_scores.rs` compares every line of the oracle vectors of
//! `tests/data/riichi-scores/` (21 000 hands per preset from PyPI `mahjong`, see its
//! README): han, fu, limit, yaku, dora and every payment, errors included.

mod context;
mod decompose;
mod dora;
pub(crate) use dora::dora_of;
mod fu;
mod payment;
mod validate;
mod yaku;

pub use payment::{Limit, Payment};
pub use yaku::{Yaku, YakuValue};

use core::fmt;

use crate::game::MeldKind;
use crate::tile::{Tile, TileCounts, TileSet};
use context::Context;

/// The rule set a hand is scored under.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Serialize, serde::Deserialize)]
pub enum Preset {
    /// Tenhou four-player (136 tiles, chi allowed).
    Tenhou4p,
    /// Tenhou three-player (sanma: 108 tiles, no chi, kita).
    TenhouSanma,
    /// Mahjong Soul four-player: Tenhou's scoring with double yakuman
    /// ([`Preset::double_yakuman`]).
    Majsoul4p,
    /// Mahjong Soul three-player: Tenhou sanma's scoring (tsumo loss, honba 100 per
    /// payer on tsumo and 200 on ron, as PyPI `riichienv`'s sanma scores Mahjong Soul's
    /// logs) with double yakuman.
    MajsoulSanma,
}

impl Preset {
    /// Number of players: 4 or 3.
    pub const fn players(self) -> u8 {
        match self {
            Preset::Tenhou4p | Preset::Majsoul4p => 4,
            Preset::TenhouSanma | Preset::MajsoulSanma => 3,
        }
    }

    /// The tile set of the preset.
    pub const fn tile_set(self) -> TileSet {
        match self {
            Preset::Tenhou4p | Preset::Majsoul4p => TileSet::FourPlayer,
            Preset::TenhouSanma | Preset::MajsoulSanma => TileSet::Sanma,
        }
    }

    /// Whether four single patterns count as double yakuman: thirteen orphans on the
    /// 13-sided wait, suuankou on a pair wait, junsei chuuren poutou and daisuushii.
    /// Mahjong Soul: yes (riichi.wiki, Mahjong Soul, Rules: "Double yakuman: Yes";
    /// PyPI `riichienv`'s `GameRule.default_mjsoul()` sets `is_kokushi_musou_13machi_double`,
    /// `is_suuankou_tanki_double`, `is_junsei_chuurenpoutou_double` and
    /// `is_daisuushii_double`); Tenhou: no (each is a single yakuman).
    pub const fn double_yakuman(self) -> bool {
        self.is_majsoul()
    }

    /// Whether this is one of Mahjong Soul's presets (else Tenhou's).
    pub const fn is_majsoul(self) -> bool {
        matches!(self, Preset::Majsoul4p | Preset::MajsoulSanma)
    }

    /// The name used on command lines and in vector files: `tenhou-4p`, `tenhou-sanma`,
    /// `majsoul-4p`, `majsoul-sanma`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Tenhou4p => "tenhou-4p",
            Preset::TenhouSanma => "tenhou-sanma",
            Preset::Majsoul4p => "majsoul-4p",
            Preset::MajsoulSanma => "majsoul-sanma",
        }
    }

    /// The preset named `name` ([`Preset::name`]).
    pub fn from_name(name: &str) -> Option<Preset> {
        match name {
            "tenhou-4p" => Some(Preset::Tenhou4p),
            "tenhou-sanma" => Some(Preset::TenhouSanma),
            "majsoul-4p" => Some(Preset::Majsoul4p),
            "majsoul-sanma" => Some(Preset::MajsoulSanma),
            _ => None,
        }
    }
}

/// A wind: a seat wind or the round wind.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Wind {
    /// East (1z).
    East,
    /// South (2z).
    South,
    /// West (3z).
    West,
    /// North (4z).
    North,
}

impl Wind {
    /// The wind tile (1z–4z).
    pub const fn tile(self) -> Tile {
        match Tile::new(27 + self as u8) {
            Some(t) => t,
            None => Tile::EAST,
        }
    }

    /// The wind from its letter `E`, `S`, `W`, `N` (either case).
    pub const fn from_letter(letter: char) -> Option<Wind> {
        match letter {
            'E' | 'e' => Some(Wind::East),
            'S' | 's' => Some(Wind::South),
            'W' | 'w' => Some(Wind::West),
            'N' | 'n' => Some(Wind::North),
            _ => None,
        }
    }

    /// The letter of the wind: `E`, `S`, `W`, `N`.
    pub const fn letter(self) -> char {
        match self {
            Wind::East => 'E',
            Wind::South => 'S',
            Wind::West => 'W',
            Wind::North => 'N',
        }
    }
}

/// How the hand was won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum WinMethod {
    /// Self-drawn: every other player pays.
    Tsumo,
    /// On a discard: the discarder pays.
    Ron,
}

/// Whether and how the winner declared riichi.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Riichi {
    /// No riichi.
    #[default]
    None,
    /// Riichi (1 han).
    Riichi,
    /// Double riichi: riichi on the first uninterrupted turn (2 han).
    Double,
}

/// The circumstances of the win that are yaku of their own.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Conditions {
    /// Riichi or double riichi.
    pub riichi: Riichi,
    /// Ippatsu: won within one uninterrupted go-around after riichi.
    pub ippatsu: bool,
    /// Haitei: tsumo on the last tile of the live wall.
    pub haitei: bool,
    /// Houtei: ron on the last discard.
    pub houtei: bool,
    /// Rinshan kaihou: tsumo on a kan replacement tile.
    pub rinshan: bool,
    /// Chankan: ron on a tile another player adds to a pon (robbing a kan).
    pub chankan: bool,
    /// Tenhou: the dealer's win on the initial deal.
    pub tenhou: bool,
    /// Chiihou: a non-dealer's tsumo on the first uninterrupted draw.
    pub chiihou: bool,
}

/// A meld of the winner: a chi, a pon, or a kan (open, added or closed). Which tile was
/// called and from whom does not change the value under these rules (the wait is read
/// from the concealed tiles, pao is not scored), so a meld is its kind and tiles only.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Meld {
    /// How it was formed ([`MeldKind::AddedKan`] scores as an open kan).
    pub kind: MeldKind,
    /// The tile type of a pon or kan; the lowest tile of a chi.
    pub tile: Tile,
}

impl Meld {
    /// Whether the meld opens the hand (everything but a closed kan).
    pub const fn is_open(&self) -> bool {
        !matches!(self.kind, MeldKind::ClosedKan)
    }
}

/// Everything that decides the value of a win.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WinInput {
    /// The rule set.
    pub preset: Preset,
    /// The concealed tiles, the winning tile included (not the meld tiles):
    /// `14 − 3 · melds` tiles.
    pub concealed: TileCounts,
    /// The melds, at most four.
    pub melds: heapless::Vec<Meld, 4>,
    /// The winning tile (one of the concealed tiles).
    pub winning_tile: Tile,
    /// Tsumo or ron.
    pub method: WinMethod,
    /// Riichi, ippatsu and the other situational yaku.
    pub conditions: Conditions,
    /// The round wind.
    pub round_wind: Wind,
    /// The winner's seat wind (East = dealer).
    pub seat_wind: Wind,
    /// The dora indicators (kan dora included), at most five.
    pub dora_indicators: heapless::Vec<Tile, 5>,
    /// The ura dora indicators, at most five (counted for riichi hands only).
    pub ura_indicators: heapless::Vec<Tile, 5>,
    /// How many red fives the winner holds, melds included, per suit (man, pin, sou).
    pub red_fives: [u8; 3],
    /// Kita (norths set aside) in sanma; must be 0 in four-player.
    pub kita: u8,
    /// The honba counter.
    pub honba: u8,
    /// Riichi sticks on the table (the winner takes them all).
    pub riichi_sticks: u8,
}

impl WinInput {
    /// A ron with no conditions, East round and East seat, no dora, no melds.
    pub fn new(preset: Preset, concealed: TileCounts, winning_tile: Tile) -> WinInput {
        WinInput {
            preset,
            concealed,
            melds: heapless::Vec::new(),
            winning_tile,
            method: WinMethod::Ron,
            conditions: Conditions::default(),
            round_wind: Wind::East,
            seat_wind: Wind::East,
            dora_indicators: heapless::Vec::new(),
            ura_indicators: heapless::Vec::new(),
            red_fives: [0; 3],
            kita: 0,
            honba: 0,
            riichi_sticks: 0,
        }
    }

    /// Whether the winner is the dealer.
    pub fn is_dealer(&self) -> bool {
        self.seat_wind == Wind::East
    }

    /// Whether the hand is closed (no meld but closed kans).
    pub fn is_closed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }
}

/// A yaku of a scored hand with its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct ScoredYaku {
    /// Which yaku.
    pub yaku: Yaku,
    /// Its han, or its yakuman multiplier.
    pub value: YakuValue,
}

/// Room for every yaku one hand can combine.
pub const MAX_YAKU: usize = 24;

/// The value of a win.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Score {
    /// The yaku, in [`Yaku`] order (yakuman only, when there is one).
    pub yaku: heapless::Vec<ScoredYaku, MAX_YAKU>,
    /// Han from dora indicators (kita tiles included); 0 for yakuman.
    pub dora: u8,
    /// Han from ura dora indicators (kita tiles included); 0 for yakuman.
    pub ura_dora: u8,
    /// Han from red fives; 0 for yakuman.
    pub aka_dora: u8,
    /// Han from kita (one per north set aside); 0 for yakuman.
    pub kita: u8,
    /// Total han, yaku and every dora; 0 for yakuman.
    pub han: u8,
    /// Fu after rounding (25 for seven pairs); 0 for thirteen orphans.
    pub fu: u8,
    /// The yakuman multiplier (0 when no yakuman).
    pub yakuman: u8,
    /// The limit reached, if any.
    pub limit: Limit,
    /// The basic points (`fu · 2^(han+2)` or the limit's), before the dealer and payer
    /// multipliers.
    pub basic_points: u32,
    /// Who pays what.
    pub payment: Payment,
}

/// Why a hand cannot be scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ScoreError {
    /// More than four copies of a tile type across hand, melds, kita and indicators.
    TooManyCopies {
        /// The tile type.
        tile: Tile,
    },
    /// The concealed tiles are not `14 − 3 · melds`.
    WrongTileCount {
        /// The count the melds call for.
        expected: u8,
        /// The count given.
        found: u8,
    },
    /// A tile that the preset's tile set does not have (5m in sanma).
    NotInTileSet {
        /// The tile type.
        tile: Tile,
    },
    /// A meld that cannot exist: a chi not starting on 1–7 of a suit, or any chi in sanma.
    InvalidMeld {
        /// Index of the meld.
        index: u8,
    },
    /// The winning tile is not among the concealed tiles.
    WinningTileNotInHand,
    /// More red fives of a suit than the preset has (one per suit, none of man in sanma)
    /// or than fives of that suit held.
    ImpossibleRedFives {
        /// The suit: 0 man, 1 pin, 2 sou.
        suit: u8,
    },
    /// Kita in four-player.
    KitaInFourPlayer,
    /// North as a seat wind in sanma (its seats are East, South and West).
    InvalidSeatWind,
    /// Win conditions that contradict each other or the hand (riichi with an open hand,
    /// ippatsu without riichi, haitei by ron, rinshan without a kan, tenhou by a
    /// non-dealer, ...).
    InconsistentConditions,
    /// The tiles do not form a winning hand.
    NotAWinningHand,
    /// A winning shape without any yaku (dora do not count).
    NoYaku,
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScoreError::TooManyCopies { tile } => write!(f, "more than four copies of {tile}"),
            ScoreError::WrongTileCount { expected, found } => write!(
                f,
                "the concealed hand has {found} tiles; with these melds it must have {expected}"
            ),
            ScoreError::NotInTileSet { tile } => {
                write!(f, "{tile} does not exist in this tile set")
            }
            ScoreError::InvalidMeld { index } => write!(f, "meld {index} is not a valid meld"),
            ScoreError::WinningTileNotInHand => {
                write!(f, "the winning tile is not among the concealed tiles")
            }
            ScoreError::ImpossibleRedFives { suit } => {
                let letter = ['m', 'p', 's'].get(suit as usize).copied().unwrap_or('?');
                write!(f, "impossible number of red fives of suit '{letter}'")
            }
            ScoreError::KitaInFourPlayer => write!(f, "kita exist only in three-player"),
            ScoreError::InvalidSeatWind => write!(f, "north is not a seat in three-player"),
            ScoreError::InconsistentConditions => {
                write!(f, "the win conditions contradict each other or the hand")
            }
            ScoreError::NotAWinningHand => write!(f, "not a winning hand"),
            ScoreError::NoYaku => write!(f, "the hand has no yaku"),
        }
    }
}

impl core::error::Error for ScoreError {}

/// Scores a win: the best decomposition's yaku, dora, fu, limit and payments.
pub fn score(input: &WinInput) -> Result<Score, ScoreError> {
    validate::check(input)?;
    let context = Context::new(input);
    let mut best: Option<Score> = None;
    let mut any_shape = false;
    for_each_interpretation(&context, &mut |candidate: Option<Score>| {
        any_shape = true;
        if let Some(candidate) = candidate {
            let better = best
                .as_ref()
                .is_none_or(|current| payment::rank(&candidate) > payment::rank(current));
            if better {
                best = Some(candidate);
            }
        }
    });
    match best {
        Some(score) => Ok(score),
        None if any_shape => Err(ScoreError::NoYaku),
        None => Err(ScoreError::NotAWinningHand),
    }
}

/// Calls `f` with the score (or `None`: no yaku) of every interpretation of the hand.
/// The scorer's top joins the yaku, the fu and the payment here, so none of those three
/// needs another (they share only [`Context`]).
fn for_each_interpretation(ctx: &Context, f: &mut dyn FnMut(Option<Score>)) {
    let input = ctx.input;
    if input.melds.is_empty() {
        if crate::game::is_thirteen_orphans(&input.concealed) {
            f(payment::finish(ctx, &yaku::thirteen_orphans(ctx), 0));
        }
        if crate::game::is_seven_pairs(&input.concealed) {
            f(payment::finish(ctx, &yaku::seven_pairs(ctx), 25));
        }
    }
    decompose::for_each_interpretation(input, &mut |interpretation| {
        let (list, pinfu) = yaku::regular(ctx, interpretation);
        f(payment::finish(
            ctx,
            &list,
            fu::regular(ctx, interpretation, pinfu),
        ));
    });
}
