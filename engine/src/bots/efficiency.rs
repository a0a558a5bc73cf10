//! The efficiency bot: plays pure tile efficiency (牌効率) from the seat's view.

use super::{own_melds, Agent};
use crate::efficiency::{best_discard, reference::best_discard_reference, ukeire, Discard};
use crate::game::{Action, LegalActions, Observation};
use crate::shanten::Forms;
use crate::tile::{Tile, TileCounts, TileSet};

/// Wins whenever it can (under riichi rules only wins with a yaku are legal). Otherwise:
/// - **Riichi rules**: kita whenever it is legal; riichi with the chosen discard whenever
///   that is legal (closed, tenpai after it, enough points and wall); never the
///   nine-terminals abort.
/// - **Discard**: [`best_discard`] — lowest shanten after the discard, then most ukeire
///   counted with the seat's unseen tiles, then the second-step measure, then honours
///   and terminals first.
/// - **Calls** (pon, chi, open/closed/added kan): taken only when the hand after the
///   call (and its best discard, for pon and chi) has lower shanten than without the
///   call, or the same shanten and no fewer ukeire tiles. A tenpai hand therefore never
///   breaks for a call. Among several acceptable calls the best (shanten, ukeire) wins.
#[derive(Clone, Copy, Debug, Default)]
pub struct EfficiencyBot;

/// The [`EfficiencyBot`] with the original discard computation
/// ([`best_discard_reference`]): the same choices, slower. Kept so that the search
/// benchmark times rollouts of today's code and of the original in one run. Not part
/// of the supported API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceEfficiencyBot;

/// How a [`View`] finds the best discard of a hand that must discard.
type DiscardFn = fn(&TileCounts, u8, TileSet, Forms, &TileCounts) -> Option<Discard>;

/// (shanten, ukeire tiles) ordered so that a smaller key is better.
type Key = (i8, core::cmp::Reverse<u32>);

fn key(shanten: i8, tiles: u32) -> Key {
    (shanten, core::cmp::Reverse(tiles))
}

struct View<'a> {
    tile_set: TileSet,
    forms: Forms,
    unseen: &'a TileCounts,
    discard: DiscardFn,
}

impl View<'_> {
    /// Value of a waiting hand (`13 − 3k` tiles).
    fn waiting(&self, hand: &TileCounts, melds: u8) -> Key {
        let u = ukeire(hand, melds, self.tile_set, self.forms, self.unseen);
        key(u.shanten, u.tiles)
    }

    /// Value of a hand that must discard (`14 − 3k` tiles) after its best discard.
    fn discarding(&self, hand: &TileCounts, melds: u8) -> Option<(Key, Tile)> {
        let d = (self.discard)(hand, melds, self.tile_set, self.forms, self.unseen)?;
        Some((key(d.shanten, d.ukeire_tiles), d.tile))
    }
}

fn remove(hand: &mut TileCounts, tile: Tile, n: u8) -> bool {
    match hand.get_mut(tile.index()) {
        Some(c) if *c >= n => {
            *c -= n;
            true
        }
        _ => false,
    }
}

impl EfficiencyBot {
    /// The value of the hand after `call` (`None` if the call makes no sense for this
    /// hand, which a consistent game never offers).
    fn value_after_call(view: &View, obs: &Observation, call: Action) -> Option<Key> {
        let melds = own_melds(obs);
        let mut hand = obs.hand;
        match call {
            Action::Pon => {
                let tile = obs.pending?.tile;
                remove(&mut hand, tile, 2).then_some(())?;
                view.discarding(&hand, melds + 1).map(|(k, _)| k)
            }
            Action::Chi(low) => {
                let claimed = obs.pending?.tile;
                for i in 0..3u8 {
                    let t = Tile::new(low.as_u8() + i)?;
                    if t != claimed {
                        remove(&mut hand, t, 1).then_some(())?;
                    }
                }
                view.discarding(&hand, melds + 1).map(|(k, _)| k)
            }
            Action::OpenKan => {
                let tile = obs.pending?.tile;
                remove(&mut hand, tile, 3).then_some(())?;
                Some(view.waiting(&hand, melds + 1))
            }
            Action::ClosedKan(tile) => {
                remove(&mut hand, tile, 4).then_some(())?;
                Some(view.waiting(&hand, melds + 1))
            }
            Action::AddedKan(tile) => {
                // The pon becomes a kan: the meld count stays the same.
                remove(&mut hand, tile, 1).then_some(())?;
                Some(view.waiting(&hand, melds))
            }
            _ => None,
        }
    }

    /// The best acceptable call in `legal`, if any, judged against `baseline`.
    fn best_call(
        view: &View,
        obs: &Observation,
        legal: &LegalActions,
        baseline: Key,
    ) -> Option<Action> {
        let mut best: Option<(Key, Action)> = None;
        for a in legal.iter() {
            if !matches!(
                a,
                Action::Pon
                    | Action::Chi(_)
                    | Action::OpenKan
                    | Action::ClosedKan(_)
                    | Action::AddedKan(_)
            ) {
                continue;
            }
            let Some(k) = Self::value_after_call(view, obs, a) else {
                continue;
            };
            if k <= baseline && best.is_none_or(|(b, _)| k < b) {
                best = Some((k, a));
            }
        }
        best.map(|(_, a)| a)
    }
}

impl Agent for EfficiencyBot {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        EfficiencyBot::choose(obs, legal, best_discard)
    }
}

impl Agent for ReferenceEfficiencyBot {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        EfficiencyBot::choose(obs, legal, best_discard_reference)
    }
}

impl EfficiencyBot {
    /// The bot's decision, the best discard found by `discard`.
    fn choose(obs: &Observation, legal: &LegalActions, discard: DiscardFn) -> Action {
        if legal.contains(Action::Tsumo) {
            return Action::Tsumo;
        }
        if legal.contains(Action::Ron) {
            return Action::Ron;
        }
        let view = View {
            tile_set: obs.rules.tile_set,
            forms: Forms::from_rules(&obs.rules),
            unseen: &obs.unseen,
            discard,
        };
        let melds = own_melds(obs);
        let fallback = legal.iter().next().unwrap_or(Action::Pass);
        if legal.contains(Action::Pass) {
            // A claim window: compare each call with keeping the hand as it is.
            let baseline = view.waiting(&obs.hand, melds);
            return Self::best_call(&view, obs, legal, baseline).unwrap_or(Action::Pass);
        }
        // Our turn: kita (a free han and a replacement draw), then the best discard,
        // unless a kan is at least as good; riichi with it when allowed.
        if legal.contains(Action::Kita) {
            return Action::Kita;
        }
        let Some((discard_key, tile)) = view.discarding(&obs.hand, melds) else {
            return fallback;
        };
        if let Some(kan) = Self::best_call(&view, obs, legal, discard_key) {
            return kan;
        }
        let discard = Action::Discard(tile);
        if legal.contains(Action::Riichi(tile)) {
            Action::Riichi(tile)
        } else if legal.contains(discard) {
            discard
        } else {
            // The engine may forbid some discards (none today); keep to the legal ones.
            legal
                .iter()
                .find(|a| matches!(a, Action::Discard(_)))
                .unwrap_or(fallback)
        }
    }
}
