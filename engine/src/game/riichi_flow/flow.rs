//! After a riichi hand: dealer continuation (renchan), honba, the round wind and the
//! end of the game (Tenhou's rules, choices in [`crate::rules::riichi_rules`]).
//!
//! - The dealer continues after an own win (also one of a double ron), after an
//!   exhaustive draw in which the dealer is tenpai, and after an abortive draw; the
//!   honba then goes up by one. It also goes up after an exhaustive draw with a noten
//!   dealer (the next seat deals); a non-dealer's win resets it to 0.
//! - When the deal passes the last seat, the next round wind starts.
//! - The game ends at the end of a hand when someone is below zero; after the last hand
//!   of the regular length when someone has reached the target (else the extension
//!   wind is played, sudden death: it ends as soon as someone has reached the target,
//!   at the latest after its last hand); after the dealer's own win in the last hand
//!   when the dealer is then in sole first place with at least the target
//!   (agari-yame). Sticks left on the table go to the first-placed player.

use super::super::state::Game;
use super::{DrawKind, Table};

impl Game {
    /// Decides what follows the riichi hand that just ended: stores the next hand's
    /// table and dealer, and returns whether the game is over (then the sticks left go
    /// to the first-placed player).
    pub(crate) fn riichi_after_hand(&mut self) -> bool {
        let Some(r) = self.rules.riichi else {
            return true;
        };
        let n = self.rules.players;
        let dealer = self.dealer;
        let (dealer_won, continues) = match &self.rresult {
            Some(res) => {
                let won = res.wins.iter().any(|w| w.seat == dealer);
                let cont = match res.draw {
                    None => won,
                    Some(DrawKind::Exhaustive) => {
                        res.tenpai.get(dealer as usize).copied().unwrap_or(false)
                    }
                    Some(_) => true,
                };
                (won, cont)
            }
            None => (false, false),
        };
        let non_dealer_win = self
            .rresult
            .as_ref()
            .is_some_and(|res| res.draw.is_none() && !dealer_won);
        let honba = if non_dealer_win {
            0
        } else {
            self.table.honba.saturating_add(1)
        };
        let (next_dealer, next_round) = if continues {
            (dealer, self.table.round)
        } else if dealer + 1 >= n {
            (0, self.table.round.saturating_add(1))
        } else {
            (dealer + 1, self.table.round)
        };
        let next = Table {
            round: next_round,
            honba,
            sticks: self.table.sticks,
        };
        self.next_table = Some((next, next_dealer));

        let players = self.scores.get(..n as usize).unwrap_or(&[]);
        let reached = players.iter().any(|&s| s >= r.target);
        let dealer_score = self.scores.get(dealer as usize).copied().unwrap_or(0);
        // Ties for first place go to the earlier seat from the first dealer (seat 0).
        let dealer_top = players.iter().enumerate().all(|(s, &x)| {
            s == dealer as usize || x < dealer_score || (x == dealer_score && s > dealer as usize)
        });
        let last = r.length.last_round();
        let over = if r.bust_ends_game && players.iter().any(|&s| s < 0) {
            true
        } else if self.table.round > last {
            // The extension: sudden death, at most one wind.
            (reached && (!continues || dealer_top)) || next_round > last + 1
        } else if next_round > last {
            // The last hand of the regular length ended without the dealer continuing.
            reached
        } else {
            let all_last = self.table.round == last && dealer + 1 == n;
            all_last
                && continues
                && dealer_won
                && r.agari_yame
                && dealer_top
                && dealer_score >= r.target
        };
        if over {
            self.sticks_to_top();
        }
        over
    }

    /// The riichi sticks left on the table go to the first-placed player.
    fn sticks_to_top(&mut self) {
        let n = self.rules.players as usize;
        let mut top = 0usize;
        for s in 1..n {
            if self.scores.get(s) > self.scores.get(top) {
                top = s;
            }
        }
        let points = Game::deposits(&self.rules, self.table.sticks);
        if let Some(s) = self.scores.get_mut(top) {
            *s = s.wrapping_add(points);
        }
        self.table.sticks = 0;
    }

    /// The round wind, honba and riichi sticks on the table (zero for the simple
    /// rules).
    pub fn table(&self) -> Table {
        self.table
    }
}
