"""`arena` / `arena_games`: the duplicate arena from Python; `replay_log`: exact replay."""

import json
import pathlib

import pytest

import mahjong_engine as mj

HANCHAN = (
    pathlib.Path(__file__).resolve().parents[2]
    / "tests"
    / "data"
    / "real-logs"
    / "mjx-project__mjx"
    / "2010081709gm-00a9-0000-fe3371ad.json"
)


def without_timing(report):
    return {k: v for k, v in report.items() if k not in ("elapsed_s", "hands_per_s")}


def test_arena_reports_every_bot_and_does_not_depend_on_threads():
    one = mj.arena(["defend", "eff", "eff"], rules="tenhou-sanma", hands=24, seed=5, threads=1)
    two = mj.arena(["defend", "eff", "eff"], rules="tenhou-sanma", hands=24, seed=5, threads=2)
    assert without_timing(one) == without_timing(two)
    assert one["hands"] == 24 and one["walls"] == 8 and one["duplicate"]
    assert [k["bot"] for k in one["kinds"]] == ["defend", "eff"]
    assert [k["seat_hands"] for k in one["kinds"]] == [24, 48]
    for kind in one["kinds"]:
        est = kind["win_rate"]
        assert 0.0 <= est["mean"] <= 1.0
    # A different seed deals different walls.
    other = mj.arena(["defend", "eff", "eff"], rules="tenhou-sanma", hands=24, seed=6)
    assert without_timing(other) != without_timing(one)


def test_arena_games_reports_placement():
    r = mj.arena_games(["defend", "eff", "eff"], rules="tenhou-sanma-east", games=2, seed=1)
    assert r["games"] == 6 and r["game_seeds"] == 2 and r["players"] == 3
    for kind in r["kinds"]:
        assert 1.0 <= kind["average_rank"]["mean"] <= 3.0
        assert len(kind["rank_rates"]) == 3
        assert abs(sum(e["mean"] for e in kind["rank_rates"]) - 1.0) < 1e-9
    # Placement is zero-sum over the table: the seat-game average rank is 2 in sanma.
    seat_games = sum(k["seat_games"] for k in r["kinds"])
    mean_rank = sum(k["average_rank"]["mean"] * k["seat_games"] for k in r["kinds"]) / seat_games
    assert abs(mean_rank - 2.0) < 1e-9


def test_arena_seats_the_shipped_model_and_the_search():
    r = mj.arena(["model", "search", "eff"], rules="sanma", hands=3, seed=2)
    assert [k["bot"] for k in r["kinds"]] == ["policy", "search", "eff"]


@pytest.mark.parametrize(
    "seats, rules, message",
    [
        (["nobody", "eff", "eff"], "sanma", "unknown bot"),
        (["eff", "eff"], "sanma", "2 seats given but the rules have 3 players"),
        (["model", "eff", "eff", "eff"], "four-player", "no shipped model fits"),
    ],
)
def test_arena_errors_are_clear(seats, rules, message):
    with pytest.raises(mj.ArenaError, match=message):
        mj.arena(seats, rules=rules, hands=3)


def test_arena_unknown_rules():
    with pytest.raises(mj.RulesError, match="unknown rules preset"):
        mj.arena(["eff", "eff", "eff"], rules="nope")


def test_replay_log_checks_a_real_hanchan():
    r = mj.replay_log(HANCHAN)
    d = mj.read_log(HANCHAN)
    assert r["rules"] == d["rules"] == "tenhou-4p"
    assert r["hands"] == d["hands"] > 4
    assert r["wins"] >= 1 and r["decisions"] > r["hands"] * 20


def test_replay_log_names_the_first_departure():
    log = json.loads(HANCHAN.read_text())
    # The first hand's result: shift one seat's score delta by 1000 points.
    result = log["log"][0][-1]
    assert result[0] in ("和了", "流局")
    deltas = result[1]
    deltas[0] += 1000
    deltas[1] -= 1000
    with pytest.raises(mj.LogError, match="departs from the log: kyoku 0"):
        mj.replay_log(json.dumps(log))
