"""Throughput of random-agent play: ``python -m mahjong_engine.bench``.

Runs, in one process and on one core (``os.sched_setaffinity``; ``--all-cores`` to
skip), random agents through

1. this package's PettingZoo AEC environment (``mahjong_engine.env``; every decision
   returns the encoded observation),
2. its batched environment (``VecGame``, N games per call, random legal actions drawn
   with NumPy for the whole batch), with encoded observations and masks only
   (``observe=False``: a random agent needs no observation),
3. PyPI ``riichienv``'s three-player environment (``RiichiEnv(game_mode="3p-red-half")``,
   random legal actions as its own ``RandomAgent`` draws them): as it is (observation
   objects, nothing encoded), calling ``Observation.encode()`` for every acting seat,
   and calling ``Observation.encode_extended()`` (its encoding with efficiency
   features, the counterpart of this engine's encoding, which always carries them),

and prints decisions/s and hands/s of each and the ratios of like to like. A decision
is one seat's action (RiichiEnv's ``step`` takes every acting seat's at once; its
decisions are counted per seat). ``--json PATH`` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time

import numpy as np

from . import _native
from ._native import VecGame


def bench_aec(seconds: float, seed: int) -> dict:
    from .env import env as make_env

    e = make_env(rules="sanma")
    rng = np.random.default_rng(seed)
    decisions = hands = 0
    start = time.perf_counter()
    game_seed = seed
    while time.perf_counter() - start < seconds:
        e.reset(seed=game_seed)
        game_seed += 1
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
        hands += e.game.hand_number + 1
    elapsed = time.perf_counter() - start
    return {"decisions": decisions, "hands": hands, "seconds": elapsed}


def bench_vec(seconds: float, seed: int, num_games: int, observe: bool) -> dict:
    v = VecGame(num_games, rules="sanma", seed=seed, episode="hand", observe=observe)
    rng = np.random.default_rng(seed)
    _, mask, _, _, _ = v.reset()
    decisions = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # A uniform legal action per row: the largest of uniform noise over the mask.
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int64)
        _, mask, _, _, done = v.step(actions)
        decisions += num_games
        hands += int(done.sum())
    elapsed = time.perf_counter() - start
    return {"decisions": decisions, "hands": hands, "seconds": elapsed, "num_games": num_games, "observe": observe}


def bench_riichienv(seconds: float, seed: int, encode: str | None) -> dict:
    import riichienv

    rng = random.Random(seed)
    decisions = hands = 0
    start = time.perf_counter()
    game_seed = seed
    while time.perf_counter() - start < seconds:
        env = riichienv.RiichiEnv(game_mode="3p-red-half", seed=game_seed, skip_mjai_logging=True)
        game_seed += 1
        obs = env.reset()
        kyoku = None
        while not env.done():
            if encode:
                for o in obs.values():
                    getattr(o, encode)()
            acts = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
            decisions += len(acts)
            obs = env.step(acts)
            k = (env.kyoku_idx, env.honba, env.oya)
            if k != kyoku:
                kyoku = k
                hands += 1
    elapsed = time.perf_counter() - start
    return {"decisions": decisions, "hands": hands, "seconds": elapsed, "game_mode": "3p-red-half", "encode": encode}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mahjong_engine.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=10.0, help="time per environment")
    p.add_argument("--num-games", type=int, default=256, help="games per VecGame call")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--all-cores", action="store_true", help="do not pin the process to one core")
    p.add_argument("--no-riichienv", action="store_true", help="skip the RiichiEnv runs")
    p.add_argument("--json", help="write the figures to this file")
    a = p.parse_args(argv)
    if not a.all_cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    results = {
        "mahjong_engine": _native.__version__,
        "python": platform.python_version(),
        "one_core": not a.all_cores,
        "seconds_each": a.seconds,
    }
    runs = [
        ("aec", lambda: bench_aec(a.seconds, a.seed)),
        ("vec", lambda: bench_vec(a.seconds, a.seed, a.num_games, True)),
        ("vec_masks_only", lambda: bench_vec(a.seconds, a.seed, a.num_games, False)),
    ]
    if not a.no_riichienv:
        try:
            import riichienv

            results["riichienv"] = getattr(riichienv, "__version__", None) or _dist_version("riichienv")
            runs.append(("riichienv", lambda: bench_riichienv(a.seconds, a.seed, None)))
            runs.append(("riichienv_encode", lambda: bench_riichienv(a.seconds, a.seed, "encode")))
            runs.append(
                ("riichienv_encode_extended", lambda: bench_riichienv(a.seconds, a.seed, "encode_extended"))
            )
        except ImportError:
            print("riichienv is not installed: its runs are skipped", file=sys.stderr)
    print(f"{'environment':<22} {'decisions/s':>12} {'hands/s':>10} {'decisions':>11} {'hands':>8}")
    for name, run in runs:
        r = run()
        r["decisions_per_s"] = r["decisions"] / r["seconds"]
        r["hands_per_s"] = r["hands"] / r["seconds"]
        results[name] = r
        print(f"{name:<22} {r['decisions_per_s']:>12.0f} {r['hands_per_s']:>10.1f} {r['decisions']:>11} {r['hands']:>8}")
    pairs = [
        ("vec_masks_only", "riichienv"),
        ("vec", "riichienv_encode"),
        ("vec", "riichienv_encode_extended"),
        ("aec", "riichienv_encode"),
    ]
    for ours, ref in pairs:
        if ref in results:
            for what in ("decisions_per_s", "hands_per_s"):
                ratio = results[ours][what] / results[ref][what]
                results[f"{ours}_over_{ref}_{what}"] = ratio
                print(f"{ours} / {ref} ({what.replace('_per_s', '/s')}): {ratio:.2f}x")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


def _dist_version(name: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return None


if __name__ == "__main__":
    raise SystemExit(main())
