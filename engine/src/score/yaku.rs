//! The yaku: their names and values, and which of them a hand interpretation has.
//!
//! Values and conditions follow the Japanese Mahjong Wiki's list of yaku
//! (<https://riichi.wiki/List_of_yaku>) and Tenhou's rules (<https://tenhou.net/man/>):
//! open hands lose one han on the yaku that are worth less open (*kuisagari*), and some
//! yaku are closed only. Every interpretation (thirteen orphans, seven pairs, each
//! regular decomposition with each winning group) is scored on its own; the caller keeps
//! the best.

use super::context::Context;
use super::decompose::{is_terminal_or_honor, Interpretation, Regular, SetKind, Wait};
use super::{Riichi, Wind, MAX_YAKU};
use crate::tile::{TileCounts, NUM_TILE_TYPES};

/// A yaku (yakuman included). The order is the order of [`Score::yaku`](super::Score::yaku).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[non_exhaustive]
pub enum Yaku {
    /// Riichi (closed, 1).
    Riichi,
    /// Double riichi (closed, 2).
    DoubleRiichi,
    /// Ippatsu (closed, 1).
    Ippatsu,
    /// Menzen tsumo: a closed hand won by tsumo (1).
    MenzenTsumo,
    /// Pinfu: closed, four sequences, a pair worth no fu, a two-sided wait (1).
    Pinfu,
    /// Tanyao: simples only (1, open too).
    Tanyao,
    /// Iipeikou: two identical sequences (closed, 1).
    Iipeikou,
    /// Haitei raoyue: tsumo on the last live-wall tile (1).
    Haitei,
    /// Houtei raoyui: ron on the last discard (1).
    Houtei,
    /// Rinshan kaihou: tsumo on a kan replacement tile (1).
    Rinshan,
    /// Chankan: ron on a tile added to a kan (1).
    Chankan,
    /// Triplet of white dragons (1).
    Haku,
    /// Triplet of green dragons (1).
    Hatsu,
    /// Triplet of red dragons (1).
    Chun,
    /// Triplet of the seat wind (1).
    SeatWind(Wind),
    /// Triplet of the round wind (1).
    RoundWind(Wind),
    /// Sanshoku doujun: the same sequence in all three suits (2, open 1).
    Sanshoku,
    /// Ittsu: 1-9 straight in one suit (2, open 1).
    Ittsu,
    /// Chanta: every group holds a terminal or honour, with honours and a sequence
    /// (2, open 1).
    Chanta,
    /// Chiitoitsu: seven pairs (closed, 2).
    Chiitoitsu,
    /// Toitoi: four triplets or kans (2).
    Toitoi,
    /// Sanankou: three concealed triplets or kans (2).
    Sanankou,
    /// Sanshoku doukou: the same triplet in all three suits (2).
    SanshokuDoukou,
    /// Sankantsu: three kans (2).
    Sankantsu,
    /// Honroutou: terminals and honours only (2).
    Honroutou,
    /// Shousangen: two dragon triplets and a dragon pair (2).
    Shousangen,
    /// Honitsu: one suit and honours (3, open 2).
    Honitsu,
    /// Junchan: every group holds a terminal, no honours (3, open 2).
    Junchan,
    /// Ryanpeikou: two iipeikou (closed, 3).
    Ryanpeikou,
    /// Chinitsu: one suit only (6, open 5).
    Chinitsu,
    /// Kokushi musou: thirteen orphans (yakuman).
    Kokushi,
    /// Kokushi musou on the 13-sided wait (single yakuman on Tenhou).
    Kokushi13Wait,
    /// Suuankou: four concealed triplets (yakuman).
    Suuankou,
    /// Suuankou on a pair wait (single yakuman on Tenhou).
    SuuankouTanki,
    /// Daisangen: three dragon triplets (yakuman).
    Daisangen,
    /// Shousuushii: three wind triplets and a wind pair (yakuman).
    Shousuushii,
    /// Daisuushii: four wind triplets (single yakuman on Tenhou).
    Daisuushii,
    /// Tsuuiisou: honours only (yakuman).
    Tsuuiisou,
    /// Ryuuiisou: 2, 3, 4, 6, 8 of sou and green dragons only (yakuman; green dragons
    /// not required on Tenhou).
    Ryuuiisou,
    /// Chinroutou: terminals only (yakuman).
    Chinroutou,
    /// Chuuren poutou: nine gates (yakuman).
    Chuuren,
    /// Junsei chuuren poutou: nine gates on the nine-sided wait (single yakuman on Tenhou).
    JunseiChuuren,
    /// Suukantsu: four kans (yakuman).
    Suukantsu,
    /// Tenhou: the dealer's win on the deal (yakuman).
    Tenhou,
    /// Chiihou: a non-dealer's tsumo on the first draw (yakuman).
    Chiihou,
}

/// What a yaku is worth in a hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum YakuValue {
    /// Han.
    Han(u8),
    /// A yakuman of this multiplier.
    Yakuman(u8),
}

const NAMES: [(Yaku, &str); 51] = [
    (Yaku::Riichi, "riichi"),
    (Yaku::DoubleRiichi, "double_riichi"),
    (Yaku::Ippatsu, "ippatsu"),
    (Yaku::MenzenTsumo, "menzen_tsumo"),
    (Yaku::Pinfu, "pinfu"),
    (Yaku::Tanyao, "tanyao"),
    (Yaku::Iipeikou, "iipeikou"),
    (Yaku::Haitei, "haitei"),
    (Yaku::Houtei, "houtei"),
    (Yaku::Rinshan, "rinshan"),
    (Yaku::Chankan, "chankan"),
    (Yaku::Haku, "haku"),
    (Yaku::Hatsu, "hatsu"),
    (Yaku::Chun, "chun"),
    (Yaku::SeatWind(Wind::East), "seat_wind_east"),
    (Yaku::SeatWind(Wind::South), "seat_wind_south"),
    (Yaku::SeatWind(Wind::West), "seat_wind_west"),
    (Yaku::SeatWind(Wind::North), "seat_wind_north"),
    (Yaku::RoundWind(Wind::East), "round_wind_east"),
    (Yaku::RoundWind(Wind::South), "round_wind_south"),
    (Yaku::RoundWind(Wind::West), "round_wind_west"),
    (Yaku::RoundWind(Wind::North), "round_wind_north"),
    (Yaku::Sanshoku, "sanshoku"),
    (Yaku::Ittsu, "ittsu"),
    (Yaku::Chanta, "chanta"),
    (Yaku::Chiitoitsu, "chiitoitsu"),
    (Yaku::Toitoi, "toitoi"),
    (Yaku::Sanankou, "sanankou"),
    (Yaku::SanshokuDoukou, "sanshoku_doukou"),
    (Yaku::Sankantsu, "sankantsu"),
    (Yaku::Honroutou, "honroutou"),
    (Yaku::Shousangen, "shousangen"),
    (Yaku::Honitsu, "honitsu"),
    (Yaku::Junchan, "junchan"),
    (Yaku::Ryanpeikou, "ryanpeikou"),
    (Yaku::Chinitsu, "chinitsu"),
    (Yaku::Kokushi, "kokushi"),
    (Yaku::Kokushi13Wait, "kokushi_13_wait"),
    (Yaku::Suuankou, "suuankou"),
    (Yaku::SuuankouTanki, "suuankou_tanki"),
    (Yaku::Daisangen, "daisangen"),
    (Yaku::Shousuushii, "shousuushii"),
    (Yaku::Daisuushii, "daisuushii"),
    (Yaku::Tsuuiisou, "tsuuiisou"),
    (Yaku::Ryuuiisou, "ryuuiisou"),
    (Yaku::Chinroutou, "chinroutou"),
    (Yaku::Chuuren, "chuuren"),
    (Yaku::JunseiChuuren, "junsei_chuuren"),
    (Yaku::Suukantsu, "suukantsu"),
    (Yaku::Tenhou, "tenhou"),
    (Yaku::Chiihou, "chiihou"),
];

impl Yaku {
    /// The stable snake_case name (`riichi`, `seat_wind_east`, `kokushi_13_wait`, ...).
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(y, _)| *y == self)
            .map_or("unknown", |(_, n)| n)
    }

    /// The yaku named `name` ([`Yaku::name`]).
    pub fn from_name(name: &str) -> Option<Yaku> {
        NAMES.iter().find(|(_, n)| *n == name).map(|(y, _)| *y)
    }

    /// Whether this is a yakuman.
    pub fn is_yakuman(self) -> bool {
        self >= Yaku::Kokushi
    }

    /// How many yakuman this yaku is worth: 0 for a han yaku, 2 for the four double
    /// patterns when `double` ([`super::Preset::double_yakuman`]), else 1.
    pub fn yakuman_multiplier(self, double: bool) -> u8 {
        match self {
            _ if !self.is_yakuman() => 0,
            Yaku::Kokushi13Wait | Yaku::SuuankouTanki | Yaku::JunseiChuuren | Yaku::Daisuushii
                if double =>
            {
                2
            }
            _ => 1,
        }
    }

    /// The value in a closed or open hand (`None`: not allowed open; a yakuman is
    /// reported as single here, [`Yaku::yakuman_multiplier`] gives its weight).
    pub fn value(self, closed: bool) -> Option<YakuValue> {
        use Yaku::*;
        let (closed_han, open_han) = match self {
            Riichi | Ippatsu | MenzenTsumo | Pinfu | Iipeikou => (1, 0),
            Tanyao | Haitei | Houtei | Rinshan | Chankan | Haku | Hatsu | Chun => (1, 1),
            SeatWind(_) | RoundWind(_) => (1, 1),
            DoubleRiichi | Chiitoitsu => (2, 0),
            Sanshoku | Ittsu | Chanta => (2, 1),
            Toitoi | Sanankou | SanshokuDoukou | Sankantsu | Honroutou | Shousangen => (2, 2),
            Honitsu | Junchan => (3, 2),
            Ryanpeikou => (3, 0),
            Chinitsu => (6, 5),
            _ => return Some(YakuValue::Yakuman(1)),
        };
        let han = if closed { closed_han } else { open_han };
        (han > 0).then_some(YakuValue::Han(han))
    }
}

/// The yaku of one interpretation.
pub(crate) type YakuList = heapless::Vec<Yaku, MAX_YAKU>;

fn push(list: &mut YakuList, yaku: Yaku) {
    // The list holds every yaku one hand can have; a full list only drops extras.
    let _ = list.push(yaku);
}

/// The yaku that depend on how the hand was won, not on its shape.
fn situational(ctx: &Context, list: &mut YakuList) {
    let c = &ctx.input.conditions;
    match c.riichi {
        Riichi::None => {}
        Riichi::Riichi => push(list, Yaku::Riichi),
        Riichi::Double => push(list, Yaku::DoubleRiichi),
    }
    let flags = [
        (c.ippatsu, Yaku::Ippatsu),
        (ctx.closed && ctx.tsumo, Yaku::MenzenTsumo),
        (c.haitei, Yaku::Haitei),
        (c.houtei, Yaku::Houtei),
        (c.rinshan, Yaku::Rinshan),
        (c.chankan, Yaku::Chankan),
        (c.tenhou, Yaku::Tenhou),
        (c.chiihou, Yaku::Chiihou),
    ];
    for (present, yaku) in flags {
        if present {
            push(list, yaku);
        }
    }
}

/// Which kinds of tiles the hand holds: bit 0–2 the suits, bit 3 honours.
fn suit_mask(all: &TileCounts) -> u8 {
    let mut mask = 0u8;
    for (i, &c) in all.iter().enumerate() {
        if c > 0 {
            mask |= 1 << (i / 9).min(3);
        }
    }
    mask
}

/// The yaku that depend on the tiles alone (any shape).
fn by_tiles(ctx: &Context, list: &mut YakuList) {
    let all = &ctx.all;
    let present =
        |pred: &dyn Fn(usize) -> bool| (0..NUM_TILE_TYPES).all(|i| all[i] == 0 || pred(i));
    if present(&|i| !is_terminal_or_honor(i as u8)) {
        push(list, Yaku::Tanyao);
    }
    let mask = suit_mask(all);
    let one_suit = matches!(mask & 7, 1 | 2 | 4);
    if one_suit && mask & 8 == 0 {
        push(list, Yaku::Chinitsu);
    } else if one_suit {
        push(list, Yaku::Honitsu);
    }
    if mask == 8 {
        push(list, Yaku::Tsuuiisou);
    } else if present(&|i| i < 27 && is_terminal_or_honor(i as u8)) {
        push(list, Yaku::Chinroutou);
    } else if present(&|i| is_terminal_or_honor(i as u8)) {
        push(list, Yaku::Honroutou);
    }
    // Ryuuiisou: 2s 3s 4s 6s 8s and the green dragon.
    if present(&|i| matches!(i, 19 | 20 | 21 | 23 | 25 | 32)) {
        push(list, Yaku::Ryuuiisou);
    }
}

/// The yaku of a thirteen-orphans hand (the situational ones and the kokushi itself).
pub(super) fn thirteen_orphans(ctx: &Context) -> YakuList {
    let input = ctx.input;
    let mut list = YakuList::new();
    situational(ctx, &mut list);
    let wait13 = input.concealed[input.winning_tile.index()] == 2;
    push(
        &mut list,
        if wait13 {
            Yaku::Kokushi13Wait
        } else {
            Yaku::Kokushi
        },
    );
    list
}

/// The yaku of a seven-pairs hand.
pub(super) fn seven_pairs(ctx: &Context) -> YakuList {
    let mut list = YakuList::new();
    situational(ctx, &mut list);
    by_tiles(ctx, &mut list);
    push(&mut list, Yaku::Chiitoitsu);
    list
}

/// The yaku of one regular interpretation, and whether it is pinfu (the fu depend on
/// it).
pub(super) fn regular(ctx: &Context, interpretation: &Interpretation) -> (YakuList, bool) {
    let mut list = YakuList::new();
    situational(ctx, &mut list);
    by_tiles(ctx, &mut list);
    let pinfu = by_shape(ctx, interpretation, &mut list);
    (list, pinfu)
}

/// Whether set `k` of the interpretation is a concealed triplet or kan (a triplet
/// completed by ron counts as open).
fn is_concealed_pung(ctx: &Context, it: &Interpretation, k: usize) -> bool {
    let set = it.hand.sets[k];
    let completed_by_ron = !ctx.tsumo && it.winning_set == Some(k);
    set.is_pung() && !set.called && !completed_by_ron
}

/// The yaku that depend on the decomposition; returns whether the hand is pinfu.
fn by_shape(ctx: &Context, it: &Interpretation, list: &mut YakuList) -> bool {
    let hand = &it.hand;
    let sets = &hand.sets;
    let sequences = sets.iter().filter(|s| s.kind == SetKind::Sequence).count();
    let pinfu = ctx.closed
        && sequences == 4
        && it.wait == Wait::Ryanmen
        && ctx.yakuhai_count(hand.pair) == 0;
    if pinfu {
        push(list, Yaku::Pinfu);
    }
    if ctx.closed {
        match identical_sequence_pairs(hand) {
            0 => {}
            1 => push(list, Yaku::Iipeikou),
            _ => push(list, Yaku::Ryanpeikou),
        }
    }
    honour_triplets(ctx, hand, list);
    straights_and_colours(hand, list);
    terminal_groups(hand, sequences, list);
    let pungs = 4 - sequences;
    let concealed = (0..4).filter(|&k| is_concealed_pung(ctx, it, k)).count();
    let kans = sets.iter().filter(|s| s.kind == SetKind::Kan).count();
    if pungs == 4 {
        push(list, Yaku::Toitoi);
    }
    match concealed {
        3 => push(list, Yaku::Sanankou),
        4 if it.wait == Wait::Tanki => push(list, Yaku::SuuankouTanki),
        4 => push(list, Yaku::Suuankou),
        _ => {}
    }
    match kans {
        3 => push(list, Yaku::Sankantsu),
        4 => push(list, Yaku::Suukantsu),
        _ => {}
    }
    if ctx.input.melds.is_empty() {
        nine_gates(ctx, list);
    }
    pinfu
}

/// How many disjoint pairs of identical sequences the hand has.
fn identical_sequence_pairs(hand: &Regular) -> usize {
    let mut per_start = [0u8; 27];
    for s in hand.sets.iter().filter(|s| s.kind == SetKind::Sequence) {
        if let Some(c) = per_start.get_mut(s.tile as usize) {
            *c += 1;
        }
    }
    per_start.iter().map(|&c| c as usize / 2).sum()
}

/// Dragon and wind triplets, and the dragon and wind yaku built on them.
fn honour_triplets(ctx: &Context, hand: &Regular, list: &mut YakuList) {
    let input = ctx.input;
    let mut dragons = 0;
    let mut winds = 0;
    for set in hand.sets.iter().filter(|s| s.is_pung()) {
        match set.tile {
            31 => push(list, Yaku::Haku),
            32 => push(list, Yaku::Hatsu),
            33 => push(list, Yaku::Chun),
            _ => {}
        }
        if set.tile >= 31 {
            dragons += 1;
        }
        if (27..31).contains(&set.tile) {
            winds += 1;
        }
        if set.tile == input.seat_wind.tile().as_u8() {
            push(list, Yaku::SeatWind(input.seat_wind));
        }
        if set.tile == input.round_wind.tile().as_u8() {
            push(list, Yaku::RoundWind(input.round_wind));
        }
    }
    let pair_dragon = hand.pair >= 31;
    let pair_wind = (27..31).contains(&hand.pair);
    match (dragons, pair_dragon) {
        (3, _) => push(list, Yaku::Daisangen),
        (2, true) => push(list, Yaku::Shousangen),
        _ => {}
    }
    match (winds, pair_wind) {
        (4, _) => push(list, Yaku::Daisuushii),
        (3, true) => push(list, Yaku::Shousuushii),
        _ => {}
    }
}

/// Sanshoku, ittsu and sanshoku doukou.
fn straights_and_colours(hand: &Regular, list: &mut YakuList) {
    // Bit `suit` of `runs[number]` / `pungs[number]`: a sequence starting at / a triplet
    // of that number in that suit.
    let mut runs = [0u8; 9];
    let mut pungs = [0u8; 9];
    for set in hand.sets.iter().filter(|s| s.tile < 27) {
        let (suit, number) = ((set.tile / 9) as usize, (set.tile % 9) as usize);
        if set.kind == SetKind::Sequence {
            runs[number] |= 1 << suit;
        } else {
            pungs[number] |= 1 << suit;
        }
    }
    if runs.contains(&7) {
        push(list, Yaku::Sanshoku);
    }
    let ittsu = (0..3).any(|suit| [0, 3, 6].iter().all(|&n| runs[n] & (1 << suit) != 0));
    if ittsu {
        push(list, Yaku::Ittsu);
    }
    if pungs.contains(&7) {
        push(list, Yaku::SanshokuDoukou);
    }
}

/// Chanta and junchan (honroutou is a tile-only yaku).
fn terminal_groups(hand: &Regular, sequences: usize, list: &mut YakuList) {
    let all_groups =
        hand.sets.iter().all(|s| s.has_terminal_or_honor()) && is_terminal_or_honor(hand.pair);
    if !all_groups || sequences == 0 {
        return;
    }
    let honours = hand.pair >= 27 || hand.sets.iter().any(|s| s.tile >= 27);
    push(list, if honours { Yaku::Chanta } else { Yaku::Junchan });
}

/// Chuuren poutou: 1112345678999 of one suit plus one more (closed, no kan); the
/// nine-sided wait when the tiles without the winning tile are exactly 1112345678999.
fn nine_gates(ctx: &Context, list: &mut YakuList) {
    let all = &ctx.all;
    let Some(suit) = (0..3).find(|&s| (0..9).map(|n| all[s * 9 + n] as u32).sum::<u32>() == 14)
    else {
        return;
    };
    let base: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    let counts = |n: usize| all[suit * 9 + n];
    if !(0..9).all(|n| counts(n) >= base[n]) {
        return;
    }
    let win = ctx.input.winning_tile.index();
    let nine_sided = (0..9).all(|n| counts(n) - (suit * 9 + n == win) as u8 == base[n]);
    push(
        list,
        if nine_sided {
            Yaku::JunseiChuuren
        } else {
            Yaku::Chuuren
        },
    );
}
