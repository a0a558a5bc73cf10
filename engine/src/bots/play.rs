//! Plays one hand with a set of agents and summarises it per seat.

use super::Agent;
use crate::game::{
    Event, Events, Game, HandEndKind, HandResult, MeldKind, Phase, RuleError, MAX_PLAYERS,
};

/// Why a hand could not be played to its end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PlayError {
    /// Fewer agents than seats.
    NotEnoughAgents,
    /// An agent chose an action outside the legal set.
    IllegalChoice {
        /// The seat whose agent erred.
        seat: u8,
    },
    /// The game rejected an action or could not give an observation.
    Rule(RuleError),
    /// The game is not in a hand (it is over, or between hands).
    NotInHand,
    /// The hand did not end within the step limit (a bug guard, never expected).
    TooManySteps,
}

impl From<RuleError> for PlayError {
    fn from(e: RuleError) -> Self {
        PlayError::Rule(e)
    }
}

impl core::fmt::Display for PlayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlayError::NotEnoughAgents => write!(f, "fewer agents than seats"),
            PlayError::IllegalChoice { seat } => {
                write!(f, "the agent of seat {seat} chose an illegal action")
            }
            PlayError::Rule(e) => write!(f, "rule error: {e}"),
            PlayError::NotInHand => write!(f, "the game is not in a hand"),
            PlayError::TooManySteps => write!(f, "the hand did not end within the step limit"),
        }
    }
}

impl core::error::Error for PlayError {}

/// What one seat got out of a hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SeatOutcome {
    /// The seat won.
    pub won: bool,
    /// The seat won by self-draw.
    pub self_draw: bool,
    /// The seat discarded (or added to a kan) the tile someone won on.
    pub dealt_in: bool,
    /// Score change over the hand ([`crate::game::Game::hand_score_changes`]: the
    /// result's delta plus the riichi deposits made in the hand).
    pub delta: i32,
    /// For a winner: the number of turns the seat had started when it won (each
    /// ordinary draw and each pon/chi starts a turn; kan replacement draws do not).
    pub win_turn: u16,
}

/// A finished hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HandSummary {
    /// The engine's result.
    pub result: HandResult,
    /// Per-seat outcomes (seats beyond the player count stay default).
    pub seats: [SeatOutcome; MAX_PLAYERS],
    /// Number of actions applied.
    pub steps: u32,
}

impl HandSummary {
    /// Whether the hand ended in an exhaustive draw.
    pub fn exhaustive_draw(&self) -> bool {
        self.result.kind == HandEndKind::ExhaustiveDraw
    }
}

/// Upper bound on actions in one hand; a real hand needs a few hundred at most.
const STEP_LIMIT: u32 = 10_000;

/// Plays the current hand of `game` to its end with `agents[seat]` deciding for each
/// seat, and returns its summary. The game is left in [`Phase::HandOver`] or
/// [`Phase::GameOver`]; call [`Game::start_next_hand`] for the next one.
pub fn play_hand<A: Agent>(game: &mut Game, agents: &mut [A]) -> Result<HandSummary, PlayError> {
    let players = game.rules().players as usize;
    if agents.len() < players {
        return Err(PlayError::NotEnoughAgents);
    }
    if !matches!(game.phase(), Phase::Turn | Phase::Claim) {
        return Err(PlayError::NotInHand);
    }
    // The dealer's first draw happened in the deal.
    let mut turns = [0u16; MAX_PLAYERS];
    if let Some(t) = turns.get_mut(game.turn() as usize) {
        *t = 1;
    }
    let mut steps = 0u32;
    let mut win_turns = [0u16; MAX_PLAYERS];
    let mut result = None;
    // One observation buffer for the whole hand: `observation_into` only copies what
    // changed since the previous decision.
    let mut obs = game.observation(game.turn())?;
    let mut events = Events::new();
    while result.is_none() {
        let seats = game.seats_to_act();
        if seats.is_empty() {
            return Err(PlayError::NotInHand);
        }
        for seat in seats {
            game.observation_next(seat, &mut obs)?;
            let legal = game.legal_actions(seat);
            let agent = agents
                .get_mut(seat as usize)
                .ok_or(PlayError::NotEnoughAgents)?;
            let action = agent.act(&obs, &legal);
            if !legal.contains(action) {
                return Err(PlayError::IllegalChoice { seat });
            }
            events.clear();
            game.apply_into(seat, action, &mut events)?;
            steps += 1;
            for &e in &events {
                match e {
                    Event::Drew {
                        seat,
                        replacement: false,
                        ..
                    } => bump(&mut turns, seat),
                    Event::Called { seat, meld }
                        if matches!(meld.kind, MeldKind::Pon | MeldKind::Chi) =>
                    {
                        bump(&mut turns, seat)
                    }
                    Event::Won { seat, .. } => {
                        if let (Some(w), Some(t)) =
                            (win_turns.get_mut(seat as usize), turns.get(seat as usize))
                        {
                            *w = *t;
                        }
                    }
                    Event::HandEnded(r) => result = Some(r),
                    _ => {}
                }
            }
            if steps > STEP_LIMIT {
                return Err(PlayError::TooManySteps);
            }
            if result.is_some() {
                break;
            }
        }
    }
    let result = result.ok_or(PlayError::NotInHand)?;
    let changes = game.hand_score_changes();
    let mut seats = [SeatOutcome::default(); MAX_PLAYERS];
    for (s, out) in seats.iter_mut().enumerate().take(players) {
        let won = result.winners[s];
        *out = SeatOutcome {
            won,
            self_draw: won && result.discarder.is_none(),
            dealt_in: result.kind == HandEndKind::Win && result.discarder == Some(s as u8),
            delta: changes[s],
            win_turn: if won { win_turns[s] } else { 0 },
        };
    }
    Ok(HandSummary {
        result,
        seats,
        steps,
    })
}

fn bump(turns: &mut [u16; MAX_PLAYERS], seat: u8) {
    if let Some(t) = turns.get_mut(seat as usize) {
        *t = t.saturating_add(1);
    }
}
