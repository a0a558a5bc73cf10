//! Engine values as plain Python objects: events, hand results, melds, discards and
//! observations become dicts of ints, bools, strings and lists.

use engine::game::{Discard, Event, HandEndKind, HandResult, Meld, MeldKind, Observation, Phase};
use engine::notation::Counts;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Tile counts as a list of ints (a `Vec<u8>` would become `bytes`).
pub fn counts_list(c: &engine::TileCounts) -> Vec<u32> {
    c.iter().map(|&x| x as u32).collect()
}

/// The name of a phase.
pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Turn => "turn",
        Phase::Claim => "claim",
        Phase::HandOver => "hand_over",
        Phase::GameOver => "game_over",
    }
}

fn meld_kind(k: MeldKind) -> &'static str {
    match k {
        MeldKind::Chi => "chi",
        MeldKind::Pon => "pon",
        MeldKind::ClosedKan => "closed_kan",
        MeldKind::OpenKan => "open_kan",
        MeldKind::AddedKan => "added_kan",
    }
}

/// `{"kind", "tile", "from", "claimed"}` (a chi names its lowest tile).
pub fn meld<'py>(py: Python<'py>, m: &Meld) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", meld_kind(m.kind))?;
    d.set_item("tile", m.tile.to_string())?;
    d.set_item("from", m.from)?;
    d.set_item("claimed", m.claimed.map(|t| t.to_string()))?;
    Ok(d)
}

fn discard<'py>(py: Python<'py>, x: &Discard) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("tile", x.tile.to_string())?;
    d.set_item("claimed", x.claimed)?;
    d.set_item("tsumogiri", x.tsumogiri)?;
    d.set_item("seq", x.seq)?;
    Ok(d)
}

/// `{"kind": "win" | "exhaustive_draw", "winners", "discarder", "tile", "values",
/// "deltas"}` with per-seat lists of the game's player count.
pub fn hand_result<'py>(
    py: Python<'py>,
    r: &HandResult,
    players: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let kind = match r.kind {
        HandEndKind::Win => "win",
        HandEndKind::ExhaustiveDraw => "exhaustive_draw",
    };
    d.set_item("kind", kind)?;
    let winners: Vec<u32> = (0..players as u32)
        .filter(|&s| r.winners[s as usize])
        .collect();
    d.set_item("winners", winners)?;
    d.set_item("discarder", r.discarder)?;
    d.set_item("tile", r.tile.map(|t| t.to_string()))?;
    d.set_item("values", &r.values[..players])?;
    d.set_item("deltas", &r.deltas[..players])?;
    Ok(d)
}

/// One event as a dict with a `"type"` key.
pub fn event<'py>(py: Python<'py>, e: &Event, players: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match e {
        Event::Drew {
            seat,
            tile,
            replacement,
        } => {
            d.set_item("type", "drew")?;
            d.set_item("seat", seat)?;
            d.set_item("tile", tile.to_string())?;
            d.set_item("replacement", replacement)?;
        }
        Event::Discarded { seat, tile } => {
            d.set_item("type", "discarded")?;
            d.set_item("seat", seat)?;
            d.set_item("tile", tile.to_string())?;
        }
        Event::KanDeclared { seat, tile } => {
            d.set_item("type", "kan_declared")?;
            d.set_item("seat", seat)?;
            d.set_item("tile", tile.to_string())?;
        }
        Event::Called { seat, meld: m } => {
            d.set_item("type", "called")?;
            d.set_item("seat", seat)?;
            d.set_item("meld", meld(py, m)?)?;
        }
        Event::Won {
            seat,
            from,
            tile,
            value,
            ..
        } => {
            d.set_item("type", "won")?;
            d.set_item("seat", seat)?;
            d.set_item("from", from)?;
            d.set_item("tile", tile.to_string())?;
            d.set_item("value", value)?;
        }
        Event::HandEnded(r) => {
            d.set_item("type", "hand_ended")?;
            d.set_item("result", hand_result(py, r, players)?)?;
        }
        Event::GameEnded { scores } => {
            d.set_item("type", "game_ended")?;
            d.set_item("scores", &scores[..players])?;
        }
    }
    Ok(d)
}

/// What a seat sees, as a dict: the own hand in mpsz, every seat's melds and discards,
/// the unseen counts, scores, the pending claim.
pub fn observation<'py>(py: Python<'py>, o: &Observation) -> PyResult<Bound<'py, PyDict>> {
    let players = o.rules.players as usize;
    let d = PyDict::new(py);
    d.set_item("seat", o.seat)?;
    d.set_item("dealer", o.dealer)?;
    d.set_item("hand_number", o.hand_number)?;
    d.set_item("phase", phase_name(o.phase))?;
    d.set_item("turn", o.turn)?;
    d.set_item("hand", Counts(&o.hand).to_string())?;
    d.set_item("hand_counts", counts_list(&o.hand))?;
    d.set_item("drawn", o.drawn.map(|t| t.to_string()))?;
    let melds = PyList::empty(py);
    let discards = PyList::empty(py);
    for s in 0..players {
        let ms = PyList::empty(py);
        for m in &o.melds[s] {
            ms.append(meld(py, m)?)?;
        }
        melds.append(ms)?;
        let ds = PyList::empty(py);
        for x in &o.discards[s] {
            ds.append(discard(py, x)?)?;
        }
        discards.append(ds)?;
    }
    d.set_item("melds", melds)?;
    d.set_item("discards", discards)?;
    d.set_item("unseen", counts_list(&o.unseen))?;
    d.set_item("live_wall", o.live_wall)?;
    d.set_item("kans", o.kans)?;
    d.set_item("scores", &o.scores[..players])?;
    let pending = match &o.pending {
        Some(p) => {
            let pd = PyDict::new(py);
            pd.set_item("tile", p.tile.to_string())?;
            pd.set_item("from", p.from)?;
            pd.set_item("added_kan", p.added_kan)?;
            pd.set_item("kita", p.kita)?;
            Some(pd)
        }
        None => None,
    };
    d.set_item("pending", pending)?;
    Ok(d)
}
