"""`read_log`: game logs replayed into training arrays (observation, legal mask, action)."""

import json
import pathlib

import numpy as np
import pytest

import mahjong_engine as mj

LOGS = pathlib.Path(__file__).resolve().parents[2] / "host-trainer" / "tests" / "data" / "logs"
CORPUS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "real-logs"


def check(d, players):
    n = len(d["actions"])
    assert n > 0
    assert d["players"] == players
    assert d["observations"].dtype == np.float32
    assert d["observations"].shape == (n,) + (mj.OBSERVATION_SHAPE[0], 48)
    assert d["legal_masks"].shape == (n, mj.NUM_ACTIONS)
    for key in ("actions", "seats", "kyokus", "steps"):
        assert d[key].shape == (n,) and d[key].dtype == np.int64
    # Every logged action is legal where it was taken, and every position has one.
    assert d["legal_masks"][np.arange(n), d["actions"]].all()
    assert np.isfinite(d["observations"]).all()
    assert set(d["seats"].tolist()) <= set(range(players))


@pytest.mark.parametrize("name", sorted(p.name for p in LOGS.glob("*.tenhou.json")))
def test_tenhou_and_mjai_give_the_same_decisions(name):
    tenhou = mj.read_log(str(LOGS / name))
    mjai = mj.read_log(LOGS / name.replace(".tenhou.json", ".mjson"))
    players = 3 if "sanma" in tenhou["rules"] else 4
    check(tenhou, players)
    for key in ("observations", "legal_masks", "actions", "seats", "kyokus"):
        np.testing.assert_array_equal(tenhou[key], mjai[key], err_msg=key)


def test_one_seat_text_input_and_action_names():
    path = LOGS / "4p-riichi-kan-tsumo.tenhou.json"
    text = path.read_text()
    every = mj.read_log(text)
    seat1 = mj.read_log(text, seat=1)
    assert (seat1["seats"] == 1).all()
    assert len(seat1["actions"]) == int((every["seats"] == 1).sum())
    np.testing.assert_array_equal(seat1["actions"], every["actions"][every["seats"] == 1])
    names = {mj.action_name(int(a)) for a in every["actions"]}
    assert any(n.startswith("discard") for n in names) and "tsumo" in names
    assert "closed kan" in " ".join(names) and any(n.startswith("riichi") for n in names)


def test_the_rules_override_and_mahjong_soul_rooms():
    path = LOGS / "4p-riichi-kan-tsumo.tenhou.json"
    assert mj.read_log(path)["rules"] == "tenhou-4p-east"
    assert mj.read_log(path, rules="majsoul-4p-east")["rules"] == "majsoul-4p-east"
    log = json.loads(path.read_text())
    log["rule"]["disp"] = "玉の間四人東"
    assert mj.read_log(json.dumps(log, ensure_ascii=False))["rules"] == "majsoul-4p-east"


def test_bad_input_is_a_clear_error():
    path = LOGS / "chankan.tenhou.json"
    with pytest.raises(mj.LogError, match="reading"):
        mj.read_log("/no/such/log.json")
    with pytest.raises(mj.LogError, match="truncated or malformed"):
        mj.read_log(path.read_text()[:200])
    with pytest.raises(mj.LogError, match="format"):
        mj.read_log(path, format="xml")
    with pytest.raises(mj.RulesError):
        mj.read_log(path, rules="sanma")
    with pytest.raises(mj.LogError, match="seat 3"):
        mj.read_log(path, seat=3)
    with pytest.raises(mj.LogError):
        mj.read_log(12)
    # A log whose result is not what its play scores (deltas changed) names the hand.
    log = json.loads(path.read_text())
    result = log["log"][0][-1]
    result[1][0] += 1000
    result[1][1] -= 1000
    with pytest.raises(mj.LogError, match="departs from the log"):
        mj.read_log(json.dumps(log))


def test_real_logs():
    """Real logs of the corpus (Tenhou JSON and mjlog XML, 3p and 4p, Tenhou and
    Mahjong Soul) give decisions whose logged action is legal: every file of the small
    folders and every tenth of the large one (the Rust test replays all of them)."""
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".json", ".mjlog"))
    assert len(files) >= 1_100
    large = [p for p in files if p.parent.name == "Agony5757__mahjong"]
    files = [p for p in files if p not in large] + large[::10]
    decisions = 0
    for p in files:
        d = mj.read_log(p)
        check(d, d["players"])
        decisions += len(d["actions"])
    assert decisions > 50_000
