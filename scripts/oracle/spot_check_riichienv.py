#!/usr/bin/env python3
"""Spot check of the riichi score vectors against a second oracle, PyPI `riichienv`.

Reads tests/data/riichi-scores/<preset>.tsv (written by gen_riichi_scores.py from PyPI
`mahjong`), scores every line's inputs again with riichienv's HandEvaluator /
HandEvaluator3P (its Tenhou defaults: no double yakuman), and prints how many lines
agree on the outcome (win or not), han, fu (non-yakuman) and payments, with examples of
each kind of disagreement. Nothing is written; the differential test in
engine/tests/riichi_scores.rs is what compares the engine.

Run from the repository root:
    .venv/bin/python scripts/oracle/spot_check_riichienv.py [--every N] [--examples K]
"""

import argparse
import collections
from importlib.metadata import version
from pathlib import Path

import riichienv as rv
from riichienv.hand import Conditions, HandEvaluator, HandEvaluator3P, _to_rust_conditions

DATA = Path("tests/data/riichi-scores")
SUITS = "mpsz"
MELD_TYPES = {"c": rv.MeldType.Chi, "p": rv.MeldType.Pon, "m": rv.MeldType.Daiminkan,
              "s": rv.MeldType.Kakan, "a": rv.MeldType.Ankan}


class Ids:
    """Hands out distinct 136-format ids per tile type; a red five gets copy 0."""

    def __init__(self):
        self.next = collections.defaultdict(lambda: 1)

    def take(self, t, red=False):
        if red:
            return 4 * t
        copy = self.next[t]
        self.next[t] += 1
        return 4 * t + copy if copy < 4 else 4 * t


def tiles_of(text, ids):
    out = []
    digits = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in SUITS:
            for d in digits:
                t = SUITS.index(ch) * 9 + (5 if d == 0 else d) - 1
                out.append(ids.take(t, red=d == 0))
            digits = []
    return out


def check_line(line, sanma):
    cols = line.split("\t")
    hand, melds, win, flags, winds, dora, ura, kita, honba, sticks = cols[:10]
    expected = cols[10:]
    ids = Ids()
    concealed = tiles_of(hand, ids)
    meld_objs = []
    if melds != "-":
        for m in melds.split(","):
            meld_objs.append(rv.Meld(MELD_TYPES[m[0]], sorted(tiles_of(m[1:], ids)), m[0] != "a"))
    win_type = SUITS.index(win[1]) * 9 + int(win[0]) - 1
    win_id = next(i for i in concealed if i // 4 == win_type)
    dora_ids = tiles_of(dora, ids) if dora != "-" else []
    f = set(flags)
    # riichienv counts ura dora it is given even without riichi; Tenhou counts them for
    # riichi hands only, so they are passed for those only.
    ura_ids = tiles_of(ura, ids) if ura != "-" and f & {"r", "d"} else []
    cond = Conditions(tsumo="t" in f, riichi="r" in f, double_riichi="d" in f, ippatsu="i" in f,
                      haitei="h" in f, houtei="H" in f, rinshan="k" in f, chankan="c" in f,
                      tsumo_first_turn="T" in f or "C" in f, player_wind="ESWN".index(winds[1]),
                      round_wind="ESWN".index(winds[0]), riichi_sticks=int(sticks), honba=int(honba),
                      kita_count=int(kita), is_sanma=sanma, num_players=3 if sanma else 4)
    evaluator = (HandEvaluator3P if sanma else HandEvaluator)(concealed, meld_objs)
    # The Rust evaluator directly: the Python wrapper's tile-count check counts a kan as
    # four tiles and adds the winning tile again to hands with two or more kans.
    res = evaluator.calc_rust.calc(win_id, dora_ids, ura_ids, _to_rust_conditions(cond))
    if expected[0].startswith("ERR:"):
        return "agree" if not res.is_win else "riichienv wins where mahjong errs"
    if not res.is_win:
        return "riichienv errs where mahjong wins"
    han, fu, limit, pay = int(expected[0]), int(expected[1]), expected[2], expected[3]
    main, additional, _total = (int(x) for x in pay.split("/"))
    tsumo = "t" in f
    dealer = winds[1] == "E"
    if not tsumo:
        got = (res.ron_agari, 0)
    elif dealer:
        got = (res.tsumo_agari_ko, res.tsumo_agari_ko)
    else:
        got = (res.tsumo_agari_oya, res.tsumo_agari_ko)
    if got != (main, additional):
        doubled = {"Kokushi Musou 13-men", "Su Ankou Tanki", "Junsei Chuuren Poutou", "Dai Suusi"}
        if doubled & {y.name_en for y in res.yaku_list()} and got[0] > main:
            # riichienv's evaluator scores these as double yakuman (Tenhou: single; its
            # GameRule.default_tenhou() says so too, but the evaluator takes no rule).
            return "double yakuman in riichienv"
        return "payments differ"
    if limit != "yakuman" and (res.han != han or res.fu != fu):
        return "han/fu differ (same payments)"
    return "agree"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="check every N-th line")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    print(f"riichienv {version('riichienv')} against the vectors of mahjong (tests/data/riichi-scores)")
    for preset, sanma in [("tenhou-4p", False), ("tenhou-sanma", True), ("majsoul-4p", False), ("majsoul-sanma", True)]:
        lines = [x for x in (DATA / f"{preset}.tsv").read_text().splitlines() if x and not x.startswith("#")]
        outcomes = collections.Counter()
        examples = collections.defaultdict(list)
        for line in lines[:: args.every]:
            try:
                outcome = check_line(line, sanma)
            except BaseException as e:  # noqa: BLE001 (riichienv panics surface as exceptions)
                outcome = f"riichienv raised {type(e).__name__}"
            outcomes[outcome] += 1
            if outcome != "agree" and len(examples[outcome]) < args.examples:
                examples[outcome].append(line)
        print(f"{preset}: {sum(outcomes.values())} lines: {dict(outcomes)}")
        for outcome, lines_ in examples.items():
            for line in lines_:
                print(f"  {outcome}: {line}")


if __name__ == "__main__":
    main()
