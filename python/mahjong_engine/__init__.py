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
"""

from ._native import (
    ENCODING_VERSION,
    NUM_ACTIONS,
    POLICY_ACTIONS_V1,
    NUM_TILE_TYPES,
    OBSERVATION_SHAPE,
    Advisor,
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
    format_hand,
    parse_hand,
    play_bots,
    presets,
    read_log,
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
    "format_hand",
    "parse_hand",
    "play_bots",
    "presets",
    "read_log",
    "search_advise",
    "shanten",
    "shanten_forms",
    "ukeire",
    "value_scores",
]
