#!/usr/bin/env python3
"""Plays games with PyPI `riichienv` offline and writes its mjai logs.

Usage: scripts/gen-riichienv-logs.py OUT_DIR [GAMES]   (run with the project's .venv)

Each game is played by a simple greedy agent (wins first, then riichi, kita, closed and
added kans, then the discard of least shanten by `riichienv.calculate_shanten`, calls
taken one time in ten) seeded by the game number, so that the logs hold wins, riichi,
calls and kans, not only draws. Writes `4p-NN.mjson` (`game_mode="4p-red-half"`) and
`3p-NN.mjson` (`"3p-red-half"`), `env.mjai_log` one event per line as RiichiEnv
records it. `host-trainer/tests/logs_riichienv.rs` replays the committed files.
"""

import json
import random
import sys
from pathlib import Path

import riichienv
from riichienv import ActionType as T

FIRST = [T.TSUMO, T.RON, T.RIICHI, T.KITA, T.ANKAN, T.KAKAN]


def shanten_after(hand, tile, three):
    rest = list(hand)
    if tile in rest:
        rest.remove(tile)
    f = riichienv.calculate_shanten_3p if three else riichienv.calculate_shanten
    try:
        return f(rest)
    except Exception:  # noqa: BLE001 - a hand the helper refuses ranks last
        return 99


def choose(obs, rng, three):
    legal = obs.legal_actions()
    for kind in FIRST:
        for a in legal:
            if a.action_type == kind:
                return a
    calls = [a for a in legal if a.action_type in (T.CHI, T.PON, T.DAIMINKAN)]
    if calls and rng.random() < 0.1:
        return rng.choice(calls)
    discards = [a for a in legal if a.action_type == T.DISCARD]
    if discards:
        hand = list(obs.hand)
        best = min(shanten_after(hand, a.tile, three) for a in discards)
        return rng.choice([a for a in discards if shanten_after(hand, a.tile, three) == best])
    for a in legal:
        if a.action_type == T.PASS:
            return a
    return rng.choice(legal)


def play(mode, seed):
    env = riichienv.RiichiEnv(game_mode=mode, seed=seed)
    rng = random.Random(seed)
    obs = env.reset()
    three = mode.startswith("3p")
    while not env.done():
        obs = env.step({pid: choose(o, rng, three) for pid, o in obs.items()})
    return env.mjai_log


def main():
    out = Path(sys.argv[1])
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    out.mkdir(parents=True, exist_ok=True)
    for n in range(games):
        for tag, mode in (("4p", "4p-red-half"), ("3p", "3p-red-half")):
            lines = [json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in play(mode, n)]
            (out / f"{tag}-{n:02}.mjson").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
