"""The Game class, bots, records and errors."""

import numpy as np
import pytest

import mahjong_engine as mj


def play_out(game, bots):
    """Plays a whole game, one decision at a time, with one bot per seat."""
    steps = 0
    while not game.is_over:
        if game.phase == "hand_over":
            game.start_next_hand()
            continue
        seat = game.seats_to_act()[0]
        action = bots[seat].act(game, seat)
        assert action in game.legal_actions(seat)
        game.apply(seat, action)
        steps += 1
    return steps


@pytest.mark.parametrize("rules", ["sanma", "four-player"])
def test_efficiency_bots_play_a_whole_game_with_points_conserved(rules):
    g = mj.Game(rules, seed=7)
    steps = play_out(g, [mj.Bot("eff")] * g.players)
    assert steps > 50
    assert g.is_over and g.phase == "game_over"
    assert sum(g.scores) == 0
    assert g.hand_number + 1 == g.status()["hands_per_game"]


def test_random_agent_game_loop_with_masks():
    rng = np.random.default_rng(3)
    g = mj.Game("sanma", seed=11)
    decisions = 0
    while not g.is_over:
        if g.phase == "hand_over":
            result = g.last_result()
            assert result["kind"] in ("win", "exhaustive_draw")
            assert sum(result["deltas"]) == 0
            g.start_next_hand()
            continue
        for seat in range(g.players):
            mask = g.legal_mask(seat)
            legal = g.legal_actions(seat)
            assert mask.dtype == np.bool_ and mask.shape == (mj.NUM_ACTIONS,)
            assert list(np.flatnonzero(mask)) == legal
            assert bool(legal) == (seat in g.seats_to_act())
        seat = g.seats_to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, int(rng.choice(legal)))
        decisions += 1
    assert decisions > 100


def test_observation_shape_dtype_bounds_and_view():
    g = mj.Game("sanma", seed=1)
    low, high = mj._native.observation_bounds()
    for seat in range(3):
        o = g.observation(seat)
        assert o.shape == mj.OBSERVATION_SHAPE and o.dtype == np.float32
        assert np.all(o >= low) and np.all(o <= high)
    v = g.view(0)
    assert v["hand"] == g.hand(0)
    assert sum(v["hand_counts"]) == 14  # the dealer's first draw is in hand
    assert v["phase"] == "turn" and v["seat"] == 0
    assert len(v["discards"]) == 3 and v["pending"] is None


def test_observation_sees_only_its_own_hand():
    """Two seats' observations differ; a seat's own hand is in its encoding only."""
    g = mj.Game("sanma", seed=2)
    assert not np.array_equal(g.observation(0), g.observation(1))


def test_apply_returns_events_and_actions_by_name():
    g = mj.Game("sanma", seed=4)
    hand = mj.parse_hand(g.hand(0))
    tile = next(i for i, c in enumerate(hand) if c)
    name = mj.action_name(tile)
    assert name.startswith("discard ")
    events = g.apply(0, name)
    assert events[0] == {"type": "discarded", "seat": 0, "tile": name.split()[1]}
    assert any(e["type"] == "drew" for e in events) or g.phase == "claim"


def test_action_names_round_trip():
    for i in range(mj.NUM_ACTIONS):
        assert mj.action_index(mj.action_name(i)) == i


def test_game_record_round_trip_and_copy():
    g = mj.Game("four-player", seed=5)
    play_out(g, [mj.Bot("eff")] * 4)
    rec = g.game_record()
    back = mj.Game.from_game_record(rec)
    assert back.scores == g.scores and back.is_over
    assert back.game_record() == rec
    h = mj.Game("sanma", seed=9)
    for _ in range(10):
        seat = h.seats_to_act()[0]
        h.apply(seat, mj.Bot("eff").act(h, seat))
    c = h.copy()
    seat = c.seats_to_act()[0]
    c.apply(seat, c.legal_actions(seat)[0])
    assert c.num_actions_played == h.num_actions_played + 1
    hr = mj.Game.from_hand_record(h.hand_record())
    assert hr.hand(0) == h.hand(0) and np.array_equal(hr.observation(1), h.observation(1))


def test_play_bots_stops_at_the_callers_seat():
    g = mj.Game("sanma", seed=3)
    bot = mj.Bot("random", seed=1)
    played = mj.play_bots(g, [None, "eff", bot])
    assert played == 0  # seat 0 (the caller) deals and acts first
    g.apply(0, mj.Bot("eff").act(g, 0))
    played = mj.play_bots(g, [None, "eff", bot])
    assert played > 0
    assert g.phase == "hand_over" or 0 in g.seats_to_act()


def test_the_defending_bot_plays_whole_riichi_games_and_sometimes_folds():
    defend, eff = mj.Bot("defend"), mj.Bot("eff")
    assert defend.kind == "defend"
    different = 0
    for seed in (1, 2):
        g = mj.Game("tenhou-sanma", seed=seed)
        while not g.is_over:
            if g.phase == "hand_over":
                g.start_next_hand()
                continue
            seat = g.seats_to_act()[0]
            action = defend.act(g, seat)
            assert action in g.legal_actions(seat)
            different += action != eff.act(g, seat)
            g.apply(seat, action)
        assert sum(g.scores) == 3 * 35_000
    assert different > 0
    # play_bots takes it by name, and without riichi it plays as the efficiency bot.
    g = mj.Game("sanma", seed=5)
    assert mj.play_bots(g, ["defend", "defend", "defend"], next_hand=True) > 0
    assert g.is_over


def test_the_policy_bot_picks_the_shipped_model_that_fits_the_rules():
    # Riichi sanma: the tenhou-sanma model (encoding v2), not the default one.
    adv = mj.Advisor(rules="tenhou-sanma")
    assert adv.sidecar()["rules"] == "tenhou-sanma"
    bot = mj.Bot("policy")
    for seed in range(3):
        g = mj.Game("tenhou-sanma", seed=seed)
        seat = g.seats_to_act()[0]
        assert bot.act(g, seat) == adv.advise(g, seat)["best"]
    # The same bot then plays a game of the default rules with the default model.
    g = mj.Game("sanma", seed=8)
    assert bot.act(g, 0) == mj.Advisor().advise(g, 0)["best"]
    with pytest.raises(mj.ModelError, match="no shipped model fits"):
        mj.Advisor(rules="four-player")
    with pytest.raises(mj.ModelError, match="excludes model_path"):
        mj.Advisor("x.onnx", rules="sanma")


def test_policy_bot_and_advisor_agree():
    g = mj.Game("sanma", seed=8)
    adv = mj.Advisor()
    assert adv.has_model
    advice = adv.advise(g, 0)
    assert advice["best"] == mj.Bot("policy").act(g, 0)
    probs = [a["probability"] for a in advice["actions"]]
    assert abs(sum(probs) - 1) < 1e-4 and probs == sorted(probs, reverse=True)
    assert {a["action"] for a in advice["actions"]} == set(g.legal_actions(0))
    logits, values = adv.evaluate(np.stack([g.observation(0), g.observation(1)]))
    # An encoding-v1 model has no logits for the riichi actions (141..177).
    assert mj.POLICY_ACTIONS_V1 == 141 < mj.NUM_ACTIONS
    assert logits.shape == (2, mj.POLICY_ACTIONS_V1) and values.shape == (2,)
    sidecar = adv.sidecar()
    assert sidecar["encoding_version"] == mj.ENCODING_VERSION
    eff = mj.Advisor(efficiency_only=True)
    assert not eff.has_model and eff.advise(g, 0)["best"] == mj.Bot("eff").act(g, 0)


def test_search_advise_is_deterministic_on_a_rollout_budget():
    g = mj.Game("sanma", seed=12)
    a = mj.search_advise(g, 0, budget_ms=None, rollouts=64, seed=3)
    b = mj.search_advise(g, 0, budget_ms=None, rollouts=64, seed=3)
    assert a == {**b, "elapsed_ms": a["elapsed_ms"]}
    assert a["chosen"] in g.legal_actions(0)
    assert a["candidates"] and all(c["action"] in g.legal_actions(0) for c in a["candidates"])


def test_efficiency_functions_on_strings_and_counts():
    assert mj.shanten("111m456p789s1122z") == 0
    counts = mj.parse_hand("111m456p789s1122z")
    assert len(counts) == mj.NUM_TILE_TYPES and sum(counts) == 13
    assert mj.shanten(counts) == 0
    assert mj.format_hand(counts) == "111m456p789s1122z"
    u = mj.ukeire("111m456p789s1122z")
    assert u == {"shanten": 0, "types": "12z", "num_types": 2, "tiles": 4}
    v = mj.value_scores("111m456p789s11223z")
    assert v["best_discard"] == "3z"
    assert v["discards"][0]["tile"] == "3z" and v["discards"][0]["score"] == 1.0
    f = mj.shanten_forms("19m19p19s1234567z", rules="four-player")
    assert f["thirteen_orphans"] == 0 and f["min"] == 0


# -- bad input: a clear exception, nothing changed ---------------------------------


def test_bad_input_raises_typed_errors_and_changes_nothing():
    g = mj.Game("sanma", seed=1)
    before = (g.game_record(), g.hand_record())
    with pytest.raises(mj.IllegalActionError, match="illegal action"):
        g.apply(0, "pon")
    with pytest.raises(mj.IllegalActionError, match="not in 0..177"):
        g.apply(0, 999)
    with pytest.raises(mj.IllegalActionError, match="seat 5"):
        g.legal_actions(5)
    with pytest.raises(mj.IllegalActionError, match="bad action name"):
        g.apply(0, "discard 5x")
    with pytest.raises(mj.IllegalActionError):
        g.apply(1, 0)  # not seat 1's turn
    with pytest.raises(mj.IllegalActionError):
        g.start_next_hand()
    assert (g.game_record(), g.hand_record()) == before
    with pytest.raises(mj.RulesError, match="unknown rules preset"):
        mj.Game("tenhou-9p")
    with pytest.raises(mj.HandError, match="unexpected character"):
        mj.shanten("12x")
    with pytest.raises(mj.HandError, match="does not exist in this tile set"):
        mj.shanten("123m456p789s1122z")  # 2m is not in the sanma set
    with pytest.raises(mj.HandError, match="34 entries"):
        mj.shanten([1, 2, 3])
    with pytest.raises(mj.HandError, match="ukeire needs"):
        mj.ukeire("111m456p789s11223z")
    with pytest.raises(mj.RecordError):
        mj.Game.from_game_record(b"\xff\x00garbage")
    with pytest.raises(mj.RecordError):
        mj.Game.from_hand_record(b"")
    rec = bytearray(g.game_record())
    with pytest.raises(mj.RecordError):
        mj.Game.from_game_record(bytes(rec[:-1]) + b"\x7f\x7f")
    with pytest.raises(mj.ModelError):
        mj.Advisor(model_path="/nonexistent/model.onnx")
    with pytest.raises(mj.ModelError, match="expected"):
        mj.Advisor().evaluate(np.zeros((2, 7), dtype=np.float32))
    with pytest.raises(mj.IllegalActionError, match="unknown bot"):
        mj.Bot("genius")
    with pytest.raises(mj.SearchError):
        mj.search_advise(g, 0, budget_ms=-1.0)
    # Every error is a MahjongError and a ValueError.
    assert issubclass(mj.IllegalActionError, mj.MahjongError)
    assert issubclass(mj.MahjongError, ValueError)


def test_version_is_the_crate_version():
    from importlib.metadata import version

    assert mj.__version__ == version("mahjong-engine")


def test_stubs_name_every_public_native_item():
    """The .pyi stubs list what the extension exports (and nothing it lacks)."""
    import ast
    import pathlib

    stub = pathlib.Path(mj.__file__).with_name("_native.pyi").read_text()
    names = set()
    for node in ast.parse(stub).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
    exported = {n for n in dir(mj._native) if not n.startswith("_") or n == "__version__"}
    assert exported - names == set()
    assert (names - {"Hand", "ActionLike"}) - exported == set()
    for cls in ("Game", "VecGame", "Advisor", "Bot"):
        methods = {m for m in dir(getattr(mj._native, cls)) if not m.startswith("_")}
        tree = next(n for n in ast.parse(stub).body if isinstance(n, ast.ClassDef) and n.name == cls)
        stubbed = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert methods - stubbed == set(), cls


def test_readme_python_example_runs():
    """The README's Python example is code that works."""
    import pathlib
    import re

    readme = pathlib.Path(__file__).resolve().parents[2] / "README.md"
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), flags=re.S)
    assert blocks, "README has no python block"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


@pytest.mark.parametrize("rules", mj.presets())
def test_every_preset_plays_a_whole_game_and_keeps_its_name(rules):
    """Every engine preset, the riichi ones (Tenhou, Mahjong Soul) included, plays a
    whole game of efficiency bots with every action legal, and reports its own name."""
    g = mj.Game(rules, seed=3)
    assert g.rules == rules
    start = sum(g.scores)
    steps = play_out(g, [mj.Bot("eff")] * g.players)
    assert steps > 50 and g.phase == "game_over"
    # Points are conserved but for riichi deposits (1 000 each) left on the table.
    left = start - sum(g.scores)
    assert left >= 0 and left % 1000 == 0


def test_presets_lists_every_engine_preset():
    names = mj.presets()
    assert names[:2] == ["sanma", "four-player"]
    assert {"tenhou-4p", "tenhou-sanma", "majsoul-4p", "majsoul-sanma-east"} <= set(names)
    with pytest.raises(mj.RulesError, match="majsoul-4p"):
        mj.Game("mahjong-soul")
