//! The per-seat draw and discard lists of a Tenhou hand, interleaved into table order.
//!
//! The lists do not say when a call happened, only that it is a seat's next draw-list
//! entry. A discard is claimed when some seat's next draw-list entry is a call of that
//! tile from that seat; usually that is the only reading, but not always: a seat that
//! discards the same tile twice in a row (the second without anyone drawing between)
//! may have been called on the second, and the greedy reading then runs into a draw
//! list whose next entry is a call where a draw is due (mjai-reviewer's `convlog`
//! backtracks over such "confusing nakis", `convlog/tests/testdata/confusing_nakis_*`).
//! So the reading is a bounded depth-first search: each claim taken leaves "not
//! claimed here" as an alternative, and a reading is accepted when every list is used
//! up exactly. Without one, the error of the first (greedy) reading is returned.

use anyhow::{anyhow, bail, Context, Result};
use engine::Tile;
use serde_json::Value;

use super::calls::{parse_claim, self_call, sources};
use super::parse_tile;
use crate::{CallKind, LogTile, Step};

/// Readings tried before giving up (each one a pass for the claim of a previous one).
const MAX_READINGS: usize = 4096;

/// Where a reading stands: each seat's cursor in its draw and discard lists, whose
/// turn it is, whether that seat draws next, the last tile drawn and the steps so far.
#[derive(Clone)]
struct Cursor {
    draw_at: Vec<usize>,
    discard_at: Vec<usize>,
    turn: u8,
    need_draw: bool,
    last_draw: Option<LogTile>,
    steps: usize,
    /// An alternative's claim, pushed when it is resumed.
    pending: Option<Step>,
}

/// The hand's lists.
struct Hand<'a> {
    n: u8,
    draws: &'a [Vec<Value>],
    discards: &'a [Vec<Value>],
}

fn entry<'a>(lists: &'a [Vec<Value>], at: &[usize], s: u8) -> Option<&'a Value> {
    lists.get(s as usize)?.get(*at.get(s as usize)?)
}

fn bump(at: &mut [usize], s: u8) {
    if let Some(a) = at.get_mut(s as usize) {
        *a += 1;
    }
}

fn place(what: &str, at: &[usize], s: u8) -> String {
    format!(
        "seat {s} {what} entry {}",
        at.get(s as usize).copied().unwrap_or(0)
    )
}

/// A chi, pon or open kan by its claimant, the source, the called and consumed tiles.
type Claim = (u8, CallKind, u8, LogTile, Vec<LogTile>);

impl Hand<'_> {
    /// Every claim of `turn`'s discard of `tile` standing next in a claimant's draw
    /// list whose letter names `turn` (`calls::sources`), pons and kans before chis
    /// (they have priority).
    fn claims(&self, c: &Cursor, tile: Tile) -> Result<Vec<Claim>> {
        let (n, turn) = (self.n, c.turn);
        let mut out: Vec<Claim> = Vec::new();
        for off in 1..n {
            let s = (turn + off) % n;
            let Some(Value::String(text)) = entry(self.draws, &c.draw_at, s) else {
                continue;
            };
            let claim = parse_claim(text).with_context(|| place("draw", &c.draw_at, s))?;
            let from_turn = sources(s, claim.place, claim.len, n).contains(&turn);
            let chi_ok = claim.kind != CallKind::Chi || (s + n - turn) % n == 1;
            if from_turn && chi_ok && claim.called.tile == tile {
                out.push((s, claim.kind, turn, claim.called, claim.consumed));
            }
        }
        out.sort_by_key(|(_, k, ..)| *k == CallKind::Chi);
        Ok(out)
    }

    /// Reads on from `c` until the lists end or contradict; every claim taken pushes
    /// the reading in which it was not taken onto `alt`.
    fn run(&self, c: &mut Cursor, steps: &mut Vec<Step>, alt: &mut Vec<Cursor>) -> Result<()> {
        loop {
            let turn = c.turn;
            if c.need_draw {
                let at = place("draw", &c.draw_at, turn);
                let Some(d) = entry(self.draws, &c.draw_at, turn) else {
                    return Ok(());
                };
                let tile = d
                    .as_u64()
                    .and_then(parse_tile)
                    .with_context(|| format!("{at}: expected a drawn tile, found {d}"))?;
                bump(&mut c.draw_at, turn);
                steps.push(Step::Draw { seat: turn, tile });
                c.last_draw = Some(tile);
            }
            let at = place("discard", &c.discard_at, turn);
            let Some(d) = entry(self.discards, &c.discard_at, turn) else {
                return Ok(());
            };
            bump(&mut c.discard_at, turn);
            let (code, riichi) = match d {
                Value::Number(x) => (x.as_u64().unwrap_or(0), false),
                Value::String(s) if s.starts_with('r') => {
                    let code = s.get(1..).and_then(|c| c.parse().ok());
                    (
                        code.with_context(|| format!("{at}: bad riichi {s:?}"))?,
                        true,
                    )
                }
                Value::String(s) => {
                    let step = self_call(s, turn, self.n, steps).with_context(|| at.clone())?;
                    steps.push(step);
                    c.need_draw = true;
                    continue;
                }
                other => bail!("{at}: unexpected {other}"),
            };
            let (tile, tsumogiri) = discarded(code, c.last_draw, &at)?;
            steps.push(Step::Discard {
                seat: turn,
                tile,
                tsumogiri,
                riichi,
            });
            c.steps = steps.len();
            let claims = self.claims(c, tile.tile)?;
            // The readings in which this discard is not claimed, or claimed by
            // another claimant, are the alternatives (tried last-first).
            let mut pass = c.clone();
            pass.turn = (turn + 1) % self.n;
            pass.need_draw = true;
            if !claims.is_empty() {
                alt.push(pass.clone());
            }
            for other in claims.iter().skip(1).rev() {
                let mut b = c.clone();
                take(self, &mut b, other, None)?;
                alt.push(b);
            }
            match claims.into_iter().next() {
                Some(claim) => take(self, c, &claim, Some(steps))?,
                None => *c = pass,
            }
        }
    }
}

/// Takes `claim` in reading `c` (and pushes its step when `steps` is given; an
/// alternative's step is pushed when it is resumed).
fn take(h: &Hand, c: &mut Cursor, claim: &Claim, steps: Option<&mut Vec<Step>>) -> Result<()> {
    let (s, kind, from, called, consumed) = claim.clone();
    bump(&mut c.draw_at, s);
    c.turn = s;
    c.need_draw = kind == CallKind::OpenKan;
    if c.need_draw {
        // The open kan's placeholder in the discard list.
        let at = place("discard", &c.discard_at, s);
        match entry(h.discards, &c.discard_at, s) {
            Some(Value::Number(z)) if z.as_u64() == Some(0) => bump(&mut c.discard_at, s),
            other => bail!("{at}: expected 0 after an open kan, found {other:?}"),
        }
    }
    let step = Step::Call {
        seat: s,
        kind,
        from,
        tile: called,
        consumed,
    };
    match steps {
        Some(steps) => {
            steps.push(step);
            c.steps = steps.len();
        }
        None => c.pending = Some(step),
    }
    Ok(())
}

/// The hand's steps in table order from the per-seat draw and discard lists.
pub(super) fn interleave(
    n: u8,
    dealer: u8,
    draws: &[Vec<Value>],
    discards: &[Vec<Value>],
) -> Result<Vec<Step>> {
    let hand = Hand { n, draws, discards };
    let mut c = Cursor {
        draw_at: vec![0; n as usize],
        discard_at: vec![0; n as usize],
        turn: dealer,
        need_draw: true,
        last_draw: None,
        steps: 0,
        pending: None,
    };
    let mut steps = Vec::new();
    let mut alt = Vec::new();
    let mut first: Option<anyhow::Error> = None;
    for _ in 0..MAX_READINGS {
        let outcome = hand.run(&mut c, &mut steps, &mut alt).and_then(|()| {
            left_over(&hand, &c).map_or(Ok(()), |at| Err(anyhow!("{at} is never reached")))
        });
        match outcome {
            Ok(()) => return Ok(steps),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
        let Some(next) = alt.pop() else { break };
        c = next;
        steps.truncate(c.steps);
        if let Some(step) = c.pending.take() {
            steps.push(step);
            c.steps = steps.len();
        }
    }
    Err(first.unwrap_or_else(|| anyhow!("no reading of the lists")))
}

/// The first list entry a finished reading did not use.
fn left_over(h: &Hand, c: &Cursor) -> Option<String> {
    for s in 0..h.n {
        if entry(h.draws, &c.draw_at, s).is_some() {
            return Some(place("draw", &c.draw_at, s));
        }
        if entry(h.discards, &c.discard_at, s).is_some() {
            return Some(place("discard", &c.discard_at, s));
        }
    }
    None
}

/// The tile of a discard entry's number (`60`: the tile just drawn) and whether it was
/// tsumogiri.
fn discarded(code: u64, last_draw: Option<LogTile>, place: &str) -> Result<(LogTile, bool)> {
    if code == 60 {
        let t = last_draw.with_context(|| format!("{place}: tsumogiri without a draw"))?;
        return Ok((t, true));
    }
    let t = parse_tile(code).with_context(|| format!("{place}: {code} is not a tile"))?;
    Ok((t, false))
}
