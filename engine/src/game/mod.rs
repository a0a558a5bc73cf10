//! The game state machine: deals, draws, discards, calls, wins, scoring, observations and records.
