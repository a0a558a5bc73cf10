//! Han to points: limits, payments, honba and riichi sticks
//! (<https://riichi.wiki/Scoring>, Tenhou's rules <https://tenhou.net/man/>).
//!
//! Basic points are `fu · 2^(han+2)`, capped at 2000 (mangan). 5 han is mangan (2000),
//! 6–7 haneman (3000), 8–10 baiman (4000), 11–12 sanbaiman (6000), 13+ a counted yakuman
//! (8000); each yakuman is 8000. No kiriage: 4 han 30 fu stays 7700 / 11600. A ron costs
//! the discarder 4× (6× from a dealer's win) the basic points, rounded up to 100; on
//! tsumo the dealer pays 2× and each non-dealer 1× (a dealer's tsumo: 2× from each), each
//! rounded up to 100. In sanma the missing player's share is not paid (tsumo loss).
//! Each honba adds 100 per payer on tsumo, and 300 (sanma: 200) on ron. The winner
//! takes 1000 per riichi stick.

use super::context::Context;
use super::dora::Bonus;
use super::yaku::YakuList;
use super::{Score, ScoredYaku, WinMethod, YakuValue};

/// The limit a hand reached.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Limit {
    /// Below mangan: basic points from han and fu.
    None,
    /// Mangan (5 han, or fewer han whose basic points exceed 2000).
    Mangan,
    /// Haneman (6–7 han).
    Haneman,
    /// Baiman (8–10 han).
    Baiman,
    /// Sanbaiman (11–12 han).
    Sanbaiman,
    /// Counted yakuman (13 han or more without a yakuman).
    KazoeYakuman,
    /// Yakuman (the multiplier is [`Score::yakuman`]).
    Yakuman,
}

impl Limit {
    /// The stable name: `none`, `mangan`, `haneman`, `baiman`, `sanbaiman`,
    /// `kazoe_yakuman`, `yakuman`.
    pub const fn name(self) -> &'static str {
        match self {
            Limit::None => "none",
            Limit::Mangan => "mangan",
            Limit::Haneman => "haneman",
            Limit::Baiman => "baiman",
            Limit::Sanbaiman => "sanbaiman",
            Limit::KazoeYakuman => "kazoe_yakuman",
            Limit::Yakuman => "yakuman",
        }
    }
}

/// Who pays the winner what (honba included).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Payment {
    /// Ron: what the discarder pays (0 on tsumo).
    pub from_discarder: u32,
    /// Tsumo by a non-dealer: what the dealer pays (0 otherwise).
    pub from_dealer: u32,
    /// Tsumo: what each paying non-dealer pays (0 on ron).
    pub from_each_non_dealer: u32,
    /// Tsumo: how many non-dealers pay `from_each_non_dealer`.
    pub non_dealer_payers: u8,
    /// The riichi sticks taken (1000 each).
    pub riichi_sticks: u32,
    /// Everything the winner receives.
    pub total: u32,
}

/// The key the best interpretation maximises: points, then a real yakuman over a
/// counted one, then han, then fu.
pub(crate) fn rank(score: &Score) -> (u32, bool, u8, u8) {
    (score.payment.total, score.yakuman > 0, score.han, score.fu)
}

/// The limit and basic points of `han` han and `fu` fu (no yakuman).
fn basic_points(han: u8, fu: u8) -> (Limit, u32) {
    match han {
        13.. => (Limit::KazoeYakuman, 8000),
        11 | 12 => (Limit::Sanbaiman, 6000),
        8..=10 => (Limit::Baiman, 4000),
        6 | 7 => (Limit::Haneman, 3000),
        5 => (Limit::Mangan, 2000),
        _ => {
            let basic = (fu as u32) << (han as u32 + 2);
            if basic > 2000 {
                (Limit::Mangan, 2000)
            } else {
                (Limit::None, basic)
            }
        }
    }
}

fn round_up_100(points: u32) -> u32 {
    points.div_ceil(100) * 100
}

/// The payments of a win worth `basic` basic points.
fn pay(ctx: &Context, basic: u32) -> Payment {
    let input = ctx.input;
    let honba = input.honba as u32;
    let sanma = input.preset.players() == 3;
    let riichi_sticks = 1000 * input.riichi_sticks as u32;
    let mut payment = Payment {
        riichi_sticks,
        ..Payment::default()
    };
    match input.method {
        WinMethod::Ron => {
            let factor = if input.is_dealer() { 6 } else { 4 };
            let per_honba = if sanma { 200 } else { 300 };
            payment.from_discarder = round_up_100(factor * basic) + per_honba * honba;
        }
        WinMethod::Tsumo => {
            let non_dealers = input.preset.players() - 1;
            if input.is_dealer() {
                payment.from_each_non_dealer = round_up_100(2 * basic) + 100 * honba;
                payment.non_dealer_payers = non_dealers;
            } else {
                payment.from_dealer = round_up_100(2 * basic) + 100 * honba;
                payment.from_each_non_dealer = round_up_100(basic) + 100 * honba;
                payment.non_dealer_payers = non_dealers - 1;
            }
        }
    }
    payment.total = payment.from_discarder
        + payment.from_dealer
        + payment.from_each_non_dealer * payment.non_dealer_payers as u32
        + riichi_sticks;
    payment
}

/// The score of one interpretation with yaku `list` and `fu` fu, or `None` when it has
/// no yaku.
pub(crate) fn finish(ctx: &Context, list: &YakuList, fu: u8) -> Option<Score> {
    let double = ctx.input.preset.double_yakuman();
    let yakuman: u8 = list
        .iter()
        .map(|y| y.yakuman_multiplier(double))
        .fold(0, u8::saturating_add);
    let mut yaku = heapless::Vec::new();
    let mut yaku_han = 0u8;
    for &y in list {
        if yakuman > 0 && !y.is_yakuman() {
            continue;
        }
        let Some(value) = y.value(ctx.closed) else {
            continue;
        };
        let value = match value {
            YakuValue::Yakuman(_) => YakuValue::Yakuman(y.yakuman_multiplier(double)),
            han => han,
        };
        if let YakuValue::Han(h) = value {
            yaku_han = yaku_han.saturating_add(h);
        }
        let _ = yaku.push(ScoredYaku { yaku: y, value });
    }
    yaku.sort_unstable_by_key(|s: &ScoredYaku| s.yaku);
    if yakuman == 0 && yaku_han == 0 {
        return None;
    }
    let bonus = if yakuman > 0 {
        Bonus::default()
    } else {
        ctx.bonus
    };
    let han = if yakuman > 0 {
        0
    } else {
        yaku_han.saturating_add(bonus.total())
    };
    let (limit, basic) = if yakuman > 0 {
        (Limit::Yakuman, 8000 * yakuman as u32)
    } else {
        basic_points(han, fu)
    };
    Some(Score {
        yaku,
        dora: bonus.dora,
        ura_dora: bonus.ura,
        aka_dora: bonus.aka,
        kita: bonus.kita,
        han,
        fu,
        yakuman,
        limit,
        basic_points: basic,
        payment: pay(ctx, basic),
    })
}
