"""The PettingZoo AEC environment, the Gymnasium wrapper and VecGame."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mahjong_engine as mj
from mahjong_engine.env import env as make_env
from mahjong_engine.gym import MahjongGymEnv


@pytest.mark.parametrize("rules", ["sanma", "four-player"])
def test_pettingzoo_api_test(rules):
    api_test(make_env(rules=rules), num_cycles=400)


@pytest.mark.parametrize("episode", ["game", "hand"])
def test_pettingzoo_seed_test(episode):
    seed_test(lambda: make_env(rules="sanma", episode=episode), num_cycles=300)


def test_aec_random_game_conserves_points_and_terminates_everyone():
    e = make_env(rules="sanma")
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            assert info["final_scores"] == e.game.scores
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert not e.agents and steps > 100
    # Every seat's summed rewards are its final score (a game starts at 0 points).
    assert [totals[a] for a in e.possible_agents] == [float(s) for s in e.game.scores]


def test_aec_illegal_action_raises_and_changes_nothing():
    e = make_env(rules="sanma")
    e.reset(seed=1)
    rec = e.game.game_record()
    with pytest.raises(mj.IllegalActionError):
        e.step(139)  # open kan with nothing to claim
    assert e.game.game_record() == rec


def test_gymnasium_wrapper_against_efficiency_bots():
    env = MahjongGymEnv(rules="sanma", opponents=("eff", "eff"))
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    total = 0.0
    steps = 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            break
    assert total == info["scores"][0] and sum(info["scores"]) == 0
    # The same seed replays the same episode.
    obs2, _ = env.reset(seed=3)
    obs1, _ = MahjongGymEnv(rules="sanma", opponents=("eff", "eff")).reset(seed=3)
    assert np.array_equal(obs1["observation"], obs2["observation"])
    # An efficiency agent beats random opponents over a few games.
    env = MahjongGymEnv(rules="sanma", opponents=("random", "random"))
    eff = mj.Bot("eff")
    score = 0.0
    for seed in range(5):
        env.reset(seed=seed)
        done = False
        while not done:
            _, r, done, _, _ = env.step(eff.act(env.game, 0))
            score += r
    assert score > 0


def test_gymnasium_hand_episodes_continue_the_game():
    env = MahjongGymEnv(rules="sanma", opponents=("eff", "eff"), episode="hand")
    env.reset(seed=4)
    eff = mj.Bot("eff")
    hands = []
    for _ in range(3):
        done = False
        while not done:
            _, _, done, _, _ = env.step(eff.act(env.game, 0))
        hands.append(env.game.hand_number)
        env.reset()
    assert hands == [0, 1, 2]


def test_vecgame_matches_single_games_and_conserves_points():
    n = 6
    v = mj.VecGame(n, rules="sanma", seed=9)
    obs, mask, seat, rewards, done = v.reset()
    assert obs.shape == (n, *mj.OBSERVATION_SHAPE) and obs.dtype == np.float32
    assert mask.shape == (n, mj.NUM_ACTIONS) and mask.dtype == np.bool_
    assert rewards.shape == (n, 3) and not rewards.any() and not done.any()
    # Shadow games stepped one by one see the same observations.
    first = [mj.Game("sanma", seed=0) for _ in range(n)]
    rng = np.random.default_rng(2)
    totals = np.zeros((n, 3))
    finished = 0
    for _ in range(3000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int64)
        obs, mask, seat, rewards, done = v.step(actions)
        assert np.all(rewards.sum(axis=1) == 0)
        assert np.all(mask[np.arange(n), :].any(axis=1))
        totals += rewards
        finished += int(done.sum())
        for i in np.flatnonzero(done):
            assert np.array_equal(totals[i], v.final_scores()[i])
            totals[i] = 0
    assert finished > 0
    del first


def test_vecgame_steps_like_game():
    """Game i of a VecGame is Game(rules, derive_seed(seed, i)): same observations."""
    v = mj.VecGame(1, rules="four-player", seed=0)
    obs, mask, seat, _, _ = v.reset()
    g = replay(v_record(v))
    assert np.array_equal(obs[0], g.observation(int(seat[0])))
    eff = mj.Bot("eff")
    for _ in range(200):
        a = eff.act(g, int(seat[0]))
        g.apply(int(seat[0]), a)
        if g.phase == "hand_over":
            g.start_next_hand()
        obs, mask, seat, _, done = v.step(np.array([a], dtype=np.int64))
        if done[0]:
            break
        assert np.array_equal(obs[0], g.observation(int(seat[0])))
        assert np.array_equal(mask[0], g.legal_mask(int(seat[0])))


def v_record(v):
    return v.game_record(0)


def replay(record):
    """The game of a record as a VecGame holds it (the next hand already dealt)."""
    g = mj.Game.from_game_record(record)
    if g.phase == "hand_over":
        g.start_next_hand()
    return g


def test_vecgame_with_opponents_plays_only_the_learner_seat():
    v = mj.VecGame(4, rules="sanma", seed=1, opponents=("eff", "eff"), learner_seat=1)
    obs, mask, seat, _, _ = v.reset()
    eff = mj.Bot("eff")
    for _ in range(500):
        assert np.all(seat == 1)
        actions = np.array(
            [eff.act(replay(v.game_record(i)), 1) for i in range(4)],
            dtype=np.int64,
        )
        obs, mask, seat, rewards, done = v.step(actions)
        assert np.all(rewards.sum(axis=1) == 0)


def test_vecgame_illegal_action_changes_no_game():
    v = mj.VecGame(3, rules="sanma", seed=2)
    v.reset()
    records = [v.game_record(i) for i in range(3)]
    with pytest.raises(mj.IllegalActionError, match="game 1"):
        legal0 = np.flatnonzero(replay(records[0]).legal_mask(0))[0]
        legal2 = np.flatnonzero(replay(records[2]).legal_mask(0))[0]
        v.step(np.array([legal0, 139, legal2], dtype=np.int64))
    assert [v.game_record(i) for i in range(3)] == records
    with pytest.raises(mj.IllegalActionError, match="2 actions for 3 games"):
        v.step(np.array([0, 0], dtype=np.int64))
    with pytest.raises(mj.RulesError):
        mj.VecGame(0)
    with pytest.raises(mj.RulesError):
        mj.VecGame(2, opponents=("eff",))
    with pytest.raises(mj.IllegalActionError, match="unknown bot"):
        mj.VecGame(2, opponents=("eff", "wizard"))
