// Shared by the integration tests (included with `mod`); not a test target itself.
#![allow(dead_code)]

use engine::game::{check_invariants, Action, Event, Game, HandEndKind, Observation, Phase};
use engine::rng::Rng;
use engine::rules::Rules;

/// What happened over many random games, to check the tests reach every rule.
#[derive(Default, Debug, Clone, Copy)]
pub struct Stats {
    pub games: u64,
    pub hands: u64,
    pub actions: u64,
    pub tsumo: u64,
    pub ron: u64,
    pub multi_ron: u64,
    pub draws: u64,
    pub pon: u64,
    pub chi: u64,
    pub open_kan: u64,
    pub closed_kan: u64,
    pub added_kan: u64,
    pub robbed: u64,
    pub seven_pairs: u64,
    pub orphans: u64,
    /// Riichi rules: declarations, kita, nine-terminals aborts, other abortive draws,
    /// nagashi mangan, wins with ura dora shown, extensions and busted games.
    pub riichi: u64,
    pub kita: u64,
    pub nine_terminals: u64,
    pub aborts: u64,
    pub nagashi: u64,
    pub yaku_wins: u64,
    pub busts: u64,
}

/// Whether `t` is a lone tile in `hand`: one copy, no neighbour within two in its suit.
fn isolated(hand: &engine::tile::TileCounts, t: engine::tile::Tile) -> bool {
    let i = t.index();
    if hand[i] != 1 {
        return false;
    }
    if t.is_honor() {
        return true;
    }
    let lo = i - (i % 9);
    (i.saturating_sub(2).max(lo)..=(i + 2).min(lo + 8)).all(|j| j == i || hand[j] == 0)
}

/// Picks a legal action for a random awaited seat: wins half the time, otherwise mostly
/// a lone tile to discard (so that hands progress and wins of every kind occur), else a
/// uniformly random legal action. Also checks rule properties of the legal set.
pub fn random_step(g: &Game, rng: &mut Rng) -> (u8, Action) {
    let seats = g.seats_to_act();
    let seat = seats[rng.below(seats.len() as u32) as usize];
    let legal = g.legal_actions(seat);
    assert!(!legal.is_empty(), "awaited seat {seat} has no legal action");
    if g.live_wall_remaining() == 0 {
        assert!(
            legal.iter().all(|a| matches!(
                a,
                Action::Discard(_) | Action::Tsumo | Action::Ron | Action::Pass
            )),
            "no call or kan once the live wall is empty: {:?}",
            legal.as_slice()
        );
    }
    for win in [Action::Tsumo, Action::Ron] {
        if legal.contains(win) && rng.below(2) == 0 {
            return (seat, win);
        }
    }
    if g.phase() == Phase::Turn && rng.below(4) != 0 {
        let hand = g.hand(seat).expect("seat");
        let lone: heapless::Vec<Action, 16> = legal
            .iter()
            .filter(|a| matches!(a, Action::Discard(t) if isolated(hand, *t)))
            .take(16)
            .collect();
        if !lone.is_empty() {
            return (seat, lone[rng.below(lone.len() as u32) as usize]);
        }
    }
    let a = legal.as_slice()[rng.below(legal.len() as u32) as usize];
    (seat, a)
}

/// Cross-checks an observation against the full state: what a seat cannot see is
/// exactly the other closed hands plus the live and dead walls. Also checks that
/// `observation_into` over `stale` (an older observation, possibly of another seat or
/// hand) gives the same value, and leaves the fresh observation in `stale`.
pub fn check_observation(g: &Game, seat: u8, stale: &mut Option<Observation>) {
    let o = g.observation(seat).expect("observation");
    match stale {
        Some(buf) => {
            g.observation_into(seat, buf).expect("observation_into");
            assert_eq!(buf, &o, "observation_into of seat {seat}");
        }
        None => *stale = Some(o.clone()),
    }
    let mut hidden = [0u8; 34];
    for s in 0..g.rules().players {
        if s != seat {
            for (h, c) in hidden.iter_mut().zip(g.hand(s).unwrap()) {
                *h += c;
            }
        }
    }
    for t in g.live_wall().iter().chain(g.dead_wall()) {
        hidden[t.index()] += 1;
    }
    // Revealed dora indicators lie in the dead wall but are seen by everyone.
    for t in g.dora_indicators() {
        hidden[t.index()] -= 1;
    }
    assert_eq!(o.unseen, hidden, "unseen tiles of seat {seat}");
    assert_eq!(&o.hand, g.hand(seat).unwrap());
    assert_eq!(o.live_wall as usize, g.live_wall().len());
}

/// Plays one complete random game, checking invariants after every action when `check`;
/// `on_hand_end` sees the game at the end of every hand.
pub fn play_game(
    rules: Rules,
    seed: u64,
    check: bool,
    stats: &mut Stats,
    mut on_hand_end: impl FnMut(&Game),
) {
    let mut g = Game::new(rules, seed).expect("valid rules");
    let mut rng = Rng::new(seed ^ 0x05EE_DB07);
    let mut stale = None;
    if check {
        check_invariants(&g).expect("invariants at deal");
    }
    stats.games += 1;
    loop {
        match g.phase() {
            Phase::GameOver => {
                on_hand_end(&g);
                break;
            }
            Phase::HandOver => {
                on_hand_end(&g);
                g.start_next_hand().expect("next hand");
                if check {
                    check_invariants(&g).expect("invariants at deal");
                }
            }
            Phase::Turn | Phase::Claim => {
                let (seat, a) = random_step(&g, &mut rng);
                let robbing = g.phase() == Phase::Claim
                    && g.observation(seat)
                        .map(|o| o.pending.is_some_and(|p| p.added_kan))
                        .unwrap_or(false);
                let events = g.apply(seat, a).expect("legal action applies");
                stats.actions += 1;
                match a {
                    Action::Riichi(_) => stats.riichi += 1,
                    Action::Kita => stats.kita += 1,
                    Action::NineTerminals => stats.nine_terminals += 1,
                    _ => {}
                }
                if check && stats.actions % 64 == 0 {
                    check_observation(&g, seat, &mut stale);
                }
                if check {
                    if let Err(v) = check_invariants(&g) {
                        panic!("invariant violated after {seat}:{a:?} (seed {seed}): {v}\n{g:?}");
                    }
                }
                let mut winners = 0;
                for e in &events {
                    match e {
                        Event::Called { meld, .. } => match meld.kind {
                            engine::game::MeldKind::Chi => stats.chi += 1,
                            engine::game::MeldKind::Pon => stats.pon += 1,
                            engine::game::MeldKind::OpenKan => stats.open_kan += 1,
                            engine::game::MeldKind::ClosedKan => stats.closed_kan += 1,
                            engine::game::MeldKind::AddedKan => stats.added_kan += 1,
                        },
                        Event::Won { from, shape, .. } => {
                            winners += 1;
                            if from.is_some() {
                                stats.ron += 1;
                                if robbing {
                                    stats.robbed += 1;
                                }
                            } else {
                                stats.tsumo += 1;
                            }
                            match shape {
                                engine::game::WinShape::SevenPairs => stats.seven_pairs += 1,
                                engine::game::WinShape::ThirteenOrphans => stats.orphans += 1,
                                engine::game::WinShape::Regular => {}
                            }
                        }
                        Event::HandEnded(r) => {
                            stats.hands += 1;
                            // Under riichi rules the winner also takes the sticks.
                            let taken = g.riichi_result().map_or(0, |x| {
                                i32::from(x.sticks_taken)
                                    * rules.riichi.map_or(0, |r| r.riichi_cost)
                            });
                            assert_eq!(r.deltas.iter().sum::<i32>(), taken);
                            if let Some(x) = g.riichi_result() {
                                assert_eq!(x.deltas, r.deltas);
                                stats.yaku_wins += x.wins.len() as u64;
                                stats.nagashi += x.nagashi.iter().filter(|&&b| b).count() as u64;
                                if x.draw
                                    .is_some_and(|d| d != engine::game::DrawKind::Exhaustive)
                                {
                                    stats.aborts += 1;
                                }
                                for w in &x.wins {
                                    assert!(!w.score.yaku.is_empty(), "a riichi win has a yaku");
                                }
                            }
                            if r.kind == HandEndKind::ExhaustiveDraw {
                                stats.draws += 1;
                            }
                        }
                        _ => {}
                    }
                }
                if winners > 1 {
                    stats.multi_ron += 1;
                }
            }
        }
    }
    let total: i32 = g.scores().iter().sum();
    assert_eq!(total, rules.players as i32 * rules.starting_points);
    if g.scores()
        .iter()
        .take(rules.players as usize)
        .any(|&s| s < 0)
    {
        stats.busts += 1;
    }
}
