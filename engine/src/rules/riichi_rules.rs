//! The game flow of riichi mahjong under Tenhou's rules, as data: [`RiichiRules`].
//!
//! Sources: Tenhou's published rules (<https://tenhou.net/man/>, the "ルール" section:
//! 赤あり, 喰いタンあり, 後付けあり, 東南戦 / 東風戦 with 西入 / 南入, 30000点返し (sanma
//! 40000), ハコ下終了, オーラス親のアガリ止めあり / テンパイ止めなし, 途中流局あり: 九種九牌,
//! 四風連打, 四家立直, 四開槓, 三家和; 流し満貫あり; ダブロンあり) and the Japanese Mahjong
//! Wiki (<https://riichi.wiki/Tenhou.net_rules>, <https://riichi.wiki/Sanma>,
//! <https://riichi.wiki/Riichi>, <https://riichi.wiki/Ippatsu>,
//! <https://riichi.wiki/Furiten>, <https://riichi.wiki/Tochuu_ryuukyoku>).
//!
//! Mahjong Soul's ranked rules ([`RiichiRules::majsoul_4p`], [`RiichiRules::majsoul_sanma`])
//! are Tenhou's with the differences each constructor lists and cites.
//!
//! Choices where the sources leave room, made once here:
//! - **Agari-yame** (the dealer's own win in the last hand ends the game when the dealer
//!   is then in sole first place with at least the target): yes, automatically; there
//!   is no **tenpai-yame** (a tenpai dealer in the last hand always continues).
//! - **Extension** (西入 / 南入): when nobody has reached the target after the last hand,
//!   the next wind is played; the game ends at the end of any hand of the extension in
//!   which someone has reached the target (sudden death), and at the latest after the
//!   extension wind's last hand. A dealer who continues without being in first place
//!   keeps playing, as in the last hand.
//! - **Busting**: a score below 0 (not 0 itself) ends the game at the end of the hand.
//! - Riichi sticks left on the table at the end go to the first-placed player (ties by
//!   seat order from the first dealer, which is also the tie-break of the placings).
//! - **Double ron**: both winners are paid by the discarder; the honba bonus and the
//!   riichi sticks go to the first winner in turn order after the discarder (上家取り).
//!   Three rons on one discard abort the hand in four-player (三家和).
//! - **Kita** (sanma): a north set aside on the own turn (not after a call, not from the
//!   last live tile), with a replacement draw from the dead wall; each is one han of
//!   dora and counts as a north for the dora indicators. It breaks ippatsu and the first
//!   uninterrupted go-around like a call (riichi.wiki, Ippatsu: "In sanma, the call for
//!   kita also denies ippatsu"), except for a ron on the kita itself: another player may
//!   ron the north set aside (a claim window, ron only, no chankan; a pass is furiten),
//!   with ippatsu kept until the window closes, as riichienv's sanma does ("MjSoul
//!   awards ippatsu for ron on kita tiles"). Tenhou offers it too: six real 鳳凰卓 games
//!   of `tests/data/real-logs` are won that way and replay exactly (none of them with
//!   ippatsu at stake, so Tenhou's ippatsu there is assumed Mahjong Soul's). A win on its
//!   replacement tile is rinshan kaihou.
//! - **Kan dora**: a closed kan reveals its indicator at once; an open or added kan
//!   reveals it when its declarer discards next (so a ron on that discard counts it, a
//!   rinshan win before it does not).
//! - **Tenpai at an exhaustive draw** counts by shape (no yaku needed), but a hand
//!   waiting only on tile types it holds all four of is noten (純カラ).
//! - **Noten payments**: 3000 split in four-player; 2000 split in sanma (riichi.wiki,
//!   Sanma: "the tenpai payment is 2000 points in total" on Tenhou).
//! - Abortive draws and exhaustive draws add a honba; the dealer continues after an
//!   abortive draw and after an exhaustive draw in which the dealer is tenpai.

use serde::{Deserialize, Serialize};

use crate::score::Preset;

/// How many winds a game lasts before its extension.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub enum GameLength {
    /// 東風戦: the East round only (extension: South).
    EastOnly,
    /// 東南戦 (hanchan): East and South (extension: West).
    Hanchan,
}

impl GameLength {
    /// The index of the last regular round wind (0 East, 1 South).
    pub const fn last_round(self) -> u8 {
        match self {
            GameLength::EastOnly => 0,
            GameLength::Hanchan => 1,
        }
    }
}

/// The riichi part of [`crate::Rules`]: present for the Tenhou presets, absent for the
/// simple-rules presets (whose play it never changes).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub struct RiichiRules {
    /// How wins are scored ([`crate::score::score`]): Tenhou four-player or sanma.
    pub preset: Preset,
    /// East-only or hanchan.
    pub length: GameLength,
    /// The score someone must reach for the game to end after the last hand (Tenhou:
    /// 30000 four-player, 40000 sanma); otherwise the extension is played.
    pub target: i32,
    /// Red fives in the wall per suit (man, pin, sou): one physical copy of the five is
    /// red (Tenhou: one of each in four-player; 5p and 5s in sanma, which has no 5m).
    pub red_fives: [u8; 3],
    /// Whether norths may be set aside as kita (sanma only).
    pub kita: bool,
    /// The riichi deposit (1000).
    pub riichi_cost: i32,
    /// Riichi needs at least this many live-wall tiles left, so that the declarer draws
    /// again: one go-around of the table (Tenhou four-player: 4; sanma: 3, "the wall
    /// has at least one go-around left (4 tiles in four-player)" as the Japanese rule
    /// books put it, and PyPI `riichienv` 0.4.11's Tenhou sanma accepts a riichi with 3
    /// left, seen replaying its logs).
    pub riichi_min_live: u8,
    /// Noten payments in total at an exhaustive draw (3000 four-player, 2000 sanma).
    pub noten_total: i32,
    /// Whether a score below zero ends the game (ハコ下終了).
    pub bust_ends_game: bool,
    /// Whether the dealer's win in the last hand ends the game when the dealer is then
    /// first with at least the target (アガリ止め, automatic on Tenhou).
    pub agari_yame: bool,
    /// Whether nagashi mangan is paid at an exhaustive draw.
    pub nagashi_mangan: bool,
    /// Nine or more different terminals and honours on the first uninterrupted draw may
    /// abort the hand (九種九牌, the `NineTerminals` action).
    pub abort_nine_terminals: bool,
    /// Four identical wind discards as the first four discards abort (四風連打, 4p).
    pub abort_four_winds: bool,
    /// A fourth riichi stick put down aborts (四家立直, 4p).
    pub abort_four_riichi: bool,
    /// A fourth kan by more than one player aborts after its discard (四開槓).
    pub abort_four_kans: bool,
    /// Three rons on one discard abort (三家和, 4p).
    pub abort_triple_ron: bool,
    /// A thirteen-orphans hand waiting on the tile of another player's closed kan may
    /// rob it (国士無双の暗槓搶槓). riichi.wiki, Chankan: "The exception is if a hand is in
    /// tenpai for kokushi. A kokushi hand may call ron on an ankan. Not all rulesets
    /// enable this". **Tenhou does not**: mahjongcollege.com's kokushi page
    /// (<https://mahjongcollege.com/yaku/459/>) lists 天鳳: 不可 (MJ, 雀魂: 可);
    /// riichi.wiki's Chankan page shows a Tenhou game in which a closed kan was declared
    /// into a kokushi tenpai without a ron (log 2013121107gm-0019-0000-b01e54cd); the
    /// RiichiEnv simulator's `default_tenhou()` sets `allows_ron_on_ankan_for_kokushi_musou`
    /// to false (true for Mahjong Soul). So both Tenhou presets have `false`; set it for
    /// Mahjong Soul-like rules.
    ///
    /// When set, a closed kan of a tile that completes another seat's thirteen orphans
    /// (that seat not furiten) opens a claim window in which only that ron (or a pass)
    /// is legal; passing it is a missed win (furiten). A robbed kan is never made: no
    /// kan dora, no replacement draw, the declarer keeps the other three tiles. The win
    /// is scored as a ron with the chankan condition, which changes nothing: a yakuman
    /// hand counts only its yakuman (riichi.wiki, Chankan, calls it chankan; Tenhou's
    /// question does not arise).
    pub kokushi_robs_closed_kan: bool,
    /// Pao (責任払い, sekinin barai) for daisangen and daisuushii: the player whose
    /// discard was called (pon or open kan) for the third dragon set, or the fourth wind
    /// set, of a hand whose other dragon (wind) sets are melded already, is liable when
    /// that hand wins with daisangen (daisuushii). Tenhou applies it to these two
    /// yakuman only (riichi.wiki, Sekinin barai: "This is only possible with daisangen
    /// and daisuushii. Sometimes, it is also in effect for suukantsu"; Wikipedia JA,
    /// 大三元の包, via weblio: earlier sets may be closed kans, an open kan of the last
    /// one counts as its pon, a closed kan of the last one makes nobody liable).
    /// Payments (riichi.wiki, Sekinin barai, Point exchanges): on tsumo the liable player
    /// pays the whole hand "as if ron was called against the liable player", honba
    /// included; on a ron from another player the discarder and the liable player each
    /// pay half of the hand and the liable player pays the honba ("the ronned player and
    /// liable player each pay half the value of the hand, and the liable player pays for
    /// honba"; the RiichiEnv simulator's pao tests note "In Tenhou, the Pao player pays
    /// for the honba"). On Tenhou the liability covers the whole hand, other yakuman in
    /// it included (RiichiEnv, docs/RULES.md: "Pao player pays the full amount for Tsumo
    /// (including non-Pao Yakumans) and splits the full amount for Ron"). The riichi
    /// sticks go to the winner as usual; a ron from the liable player is an ordinary ron.
    /// Choice: "as if ron" holds in sanma too (a non-dealer's yakuman tsumo costs the
    /// liable player 32000, no tsumo loss).
    pub pao: bool,
    /// Pao covers only the yakuman that made the liability (Mahjong Soul) instead of
    /// the whole hand (Tenhou). riichi.wiki, Mahjong Soul, Rules, Responsibility payment:
    /// "Composite yakuman: Separated responsibility for each yakuman"; PyPI `riichienv`'s
    /// `GameRule.default_mjsoul()` sets `yakuman_pao_is_liability_only`. On tsumo the
    /// liable player pays that yakuman's part as a ron (honba included) and every player
    /// pays the rest of the hand as an ordinary tsumo; on a ron from another player the
    /// liable player pays half of that yakuman's part and the honba, the discarder the
    /// rest. A hand whose only yakuman is the liable one pays as on Tenhou.
    #[serde(default)]
    pub pao_per_yakuman: bool,
}

impl RiichiRules {
    /// Tenhou four-player, hanchan.
    pub const fn tenhou_4p() -> RiichiRules {
        RiichiRules {
            preset: Preset::Tenhou4p,
            length: GameLength::Hanchan,
            target: 30_000,
            red_fives: [1, 1, 1],
            kita: false,
            riichi_cost: 1000,
            riichi_min_live: 4,
            noten_total: 3000,
            bust_ends_game: true,
            agari_yame: true,
            nagashi_mangan: true,
            abort_nine_terminals: true,
            abort_four_winds: true,
            abort_four_riichi: true,
            abort_four_kans: true,
            abort_triple_ron: true,
            kokushi_robs_closed_kan: false,
            pao: true,
            pao_per_yakuman: false,
        }
    }

    /// Tenhou sanma, hanchan: no four-winds, four-riichi or triple-ron aborts (they need
    /// four players), kita on.
    pub const fn tenhou_sanma() -> RiichiRules {
        RiichiRules {
            preset: Preset::TenhouSanma,
            length: GameLength::Hanchan,
            target: 40_000,
            red_fives: [0, 1, 1],
            kita: true,
            riichi_cost: 1000,
            riichi_min_live: 3,
            noten_total: 2000,
            bust_ends_game: true,
            agari_yame: true,
            nagashi_mangan: true,
            abort_nine_terminals: true,
            abort_four_winds: false,
            abort_four_riichi: false,
            abort_four_kans: true,
            abort_triple_ron: false,
            kokushi_robs_closed_kan: false,
            pao: true,
            pao_per_yakuman: false,
        }
    }

    /// Mahjong Soul four-player (雀魂 段位戦), hanchan: Tenhou four-player with these
    /// differences, each from riichi.wiki's Mahjong Soul page (Rules) and PyPI
    /// `riichienv`'s `GameRule.default_mjsoul()` against `default_tenhou()`:
    /// - double yakuman for the four single patterns ([`Preset::Majsoul4p`],
    ///   [`Preset::double_yakuman`]);
    /// - a thirteen-orphans hand may rob a closed kan ([`RiichiRules::kokushi_robs_closed_kan`];
    ///   mahjongcollege.com's kokushi page: 雀魂: 可);
    /// - three rons on one discard all win ("Three-player Ron (Sanchahou): No" among the
    ///   abortive draws; `sanchaho_is_draw: false`);
    /// - pao per yakuman ([`RiichiRules::pao_per_yakuman`]).
    ///
    /// Everything else is as on Tenhou: red 5m/5p/5s, 25 000 points, 30 000 to end,
    /// kuitan, no kuikae, atamahane of the riichi sticks, leftover sticks to first place,
    /// busting below zero, the other four abortive draws, nagashi mangan, kan dora timing.
    pub const fn majsoul_4p() -> RiichiRules {
        let mut r = RiichiRules::tenhou_4p();
        r.preset = Preset::Majsoul4p;
        r.kokushi_robs_closed_kan = true;
        r.abort_triple_ron = false;
        r.pao_per_yakuman = true;
        r
    }

    /// Mahjong Soul three-player (雀魂 三人麻雀), hanchan: Tenhou sanma with the
    /// differences of [`RiichiRules::majsoul_4p`] that apply to three players (double
    /// yakuman, kokushi robs a closed kan, pao per yakuman; `riichienv` applies the same
    /// presets to sanma). Payments (35 000 start, 40 000 to end, tsumo loss, 2000 noten
    /// total) and kita (a ron on it included: `riichienv`'s sanma, "MjSoul allows ron
    /// on kita tiles but does not award chankan yaku") are Tenhou sanma's.
    pub const fn majsoul_sanma() -> RiichiRules {
        let mut r = RiichiRules::tenhou_sanma();
        r.preset = Preset::MajsoulSanma;
        r.kokushi_robs_closed_kan = true;
        r.pao_per_yakuman = true;
        r
    }
}
