"""The mahjong engine from Rust: games, tile efficiency, bots, advisors, environments.

The core is the Rust extension :mod:`mahjong_engine._native`; everything in it is
re-exported here. The environments live in submodules so that their dependencies stay
optional:

* :mod:`mahjong_engine.env` -- a PettingZoo AEC environment (``env(rules=...)``),
* :mod:`mahjong_engine.gym` -- a Gymnasium single-agent wrapper against built-in bots,
* :mod:`mahjong_engine.bench` -- ``python -m mahjong_engine.bench``.

Quick start::

    import mahjong_engine as mj
    g = mj.Game("sanma", seed=1)
    while not g.is_over:
        if g.phase == "hand_over":
            g.start_next_hand()
            continue
        seat = g.seats_to_act()[0]
        g.apply(seat, mj.Bot("eff").act(g, seat))
    print(g.scores)

    # the duplicate arena (per hand, and whole games with placement)
    report = mj.arena(["defend", "eff", "eff"], rules="tenhou-sanma", hands=3000)
    games = mj.arena_games(["defend", "eff", "eff"], rules="tenhou-sanma", games=50)
    # a real log, replayed exactly through the engine
    mj.replay_log("game.json")  # {"hands": ..., "decisions": ..., "wins": ...}
"""

from ._native import (
    ENCODING_VERSION,
    NUM_ACTIONS,
    POLICY_ACTIONS_V1,
    NUM_TILE_TYPES,
    OBSERVATION_SHAPE,
    Advisor,
    ArenaError,
    Bot,
    Game,
    HandError,
    IllegalActionError,
    LogError,
    MahjongError,
    ModelError,
    RecordError,
    RulesError,
    SearchError,
    VecGame,
    __version__,
    action_index,
    action_name,
    arena,
    arena_games,
    format_hand,
    parse_hand,
    play_bots,
    presets,
    read_log,
    replay_log,
    search_advise,
    shanten,
    shanten_forms,
    ukeire,
    value_scores,
)

__all__ = [
    "ENCODING_VERSION",
    "NUM_ACTIONS",
    "POLICY_ACTIONS_V1",
    "NUM_TILE_TYPES",
    "OBSERVATION_SHAPE",
    "Advisor",
    "ArenaError",
    "Bot",
    "Game",
    "HandError",
    "IllegalActionError",
    "LogError",
    "MahjongError",
    "ModelError",
    "RecordError",
    "RulesError",
    "SearchError",
    "VecGame",
    "__version__",
    "action_index",
    "action_name",
    "arena",
    "arena_games",
    "format_hand",
    "parse_hand",
    "play_bots",
    "presets",
    "read_log",
    "replay_log",
    "search_advise",
    "shanten",
    "shanten_forms",
    "ukeire",
    "value_scores",
]
