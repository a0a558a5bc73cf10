#!/usr/bin/env python3
"""Riichi scoring vectors from an independent oracle: PyPI `mahjong` (HandCalculator).

Draws random hands from a shuffled physical wall under a fixed seed (regular hands built
from random sets with "themes" that make yaku likely, seven pairs, thirteen orphans,
random melds incl. open, added and closed kans, red fives, dora and ura indicators, kita
in sanma, every win condition, winds, honba and riichi sticks), and a few perturbed
hands that are not wins. Each hand is scored by `mahjong`'s HandCalculator with options
matching Tenhou, and one line per hand is written to
tests/data/riichi-scores/<preset>.tsv (format in tests/data/riichi-scores/README.md).
The Mahjong Soul presets differ only in `has_double_yakuman=True`.

Run from the repository root:
    .venv/bin/python scripts/oracle/gen_riichi_scores.py [--hands N] [--seed S] [--presets P,...]
"""

import argparse
import random
import sys
from importlib.metadata import version
from pathlib import Path

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

OUT_DIR = Path("tests/data/riichi-scores")
SUITS = "mpsz"
WINDS = "ESWN"
RED_IDS = {16, 52, 88}  # the first copy of 5m, 5p, 5s is the red one in 136-format

# The oracle's yaku names -> the engine's stable names (engine::score::Yaku::name).
YAKU_NAMES = {
    "Riichi": "riichi",
    "Double Riichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Menzen Tsumo": "menzen_tsumo",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haitei Raoyue": "haitei",
    "Houtei Raoyui": "houtei",
    "Rinshan Kaihou": "rinshan",
    "Chankan": "chankan",
    "Yakuhai (haku)": "haku",
    "Yakuhai (hatsu)": "hatsu",
    "Yakuhai (chun)": "chun",
    "Sanshoku Doujun": "sanshoku",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Chiitoitsu": "chiitoitsu",
    "Toitoi": "toitoi",
    "San Ankou": "sanankou",
    "Sanshoku Doukou": "sanshoku_doukou",
    "San Kantsu": "sankantsu",
    "Honroutou": "honroutou",
    "Shou Sangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "Kokushi Musou": "kokushi",
    "Kokushi Musou Juusanmen Matchi": "kokushi_13_wait",
    "Suu Ankou": "suuankou",
    "Suu Ankou Tanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "Dai Suushii": "daisuushii",
    "Tsuu Iisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou",
    "Chinroutou": "chinroutou",
    "Chuuren Poutou": "chuuren",
    "Daburu Chuuren Poutou": "junsei_chuuren",
    "Suu Kantsu": "suukantsu",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Dora": "dora",
    "Aka Dora": "aka",
    "Ura Dora": "ura",
}
for w, name in zip(WINDS, ["east", "south", "west", "north"]):
    YAKU_NAMES[f"Yakuhai (seat wind {name})"] = f"seat_wind_{name}"
    YAKU_NAMES[f"Yakuhai (round wind {name})"] = f"round_wind_{name}"

LIMITS = {
    "": "none",
    "mangan": "mangan",
    "haneman": "haneman",
    "baiman": "baiman",
    "sanbaiman": "sanbaiman",
    "kazoe yakuman": "kazoe_yakuman",
}


def tenhou_options(sanma, double_yakuman=False):
    """OptionalRules matching Tenhou (https://tenhou.net/man/); with `double_yakuman`,
    Mahjong Soul's (the same but 13-sided kokushi, suuankou tanki, junsei chuuren and
    daisuushii are double yakuman)."""
    return OptionalRules(
        has_open_tanyao=True,  # kuitan ari
        has_aka_dora=True,  # red fives
        has_double_yakuman=double_yakuman,  # Tenhou: no double yakuman for single patterns
        kazoe_limit=HandConstants.KAZOE_LIMITED,  # 13+ han = (single) yakuman
        kiriage=False,
        fu_for_open_pinfu=True,  # open pinfu shape by ron: 30 fu
        fu_for_pinfu_tsumo=False,  # pinfu tsumo: 20 fu
        renhou_as_yakuman=False,  # no renhou on Tenhou (never set below)
        has_daisharin=False,
        has_daichisei=False,
        has_sashikomi_yakuman=False,
        limit_to_sextuple_yakuman=True,
        paarenchan_needs_yaku=True,
        is_three_player=sanma,
    )


def tile_name(t, red=False):
    return f"{0 if red else t % 9 + 1}{SUITS[t // 9]}"


def mpsz(ids):
    """mpsz of 136-format ids, red fives as 0, canonical order (0 before the 5s)."""
    groups = {s: [] for s in SUITS}
    for i in sorted(ids, key=lambda i: (i // 4, i not in RED_IDS)):
        t = i // 4
        groups[SUITS[t // 9]].append("0" if i in RED_IDS else str(t % 9 + 1))
    return "".join("".join(d) + s for s, d in groups.items() if d) or "-"


class Wall:
    def __init__(self, rng, sanma):
        self.rng = rng
        self.free = {t: [4 * t + k for k in range(4)] for t in range(34)}
        if sanma:
            for t in range(1, 8):
                self.free[t] = []

    def left(self, t):
        return len(self.free[t])

    def take(self, t):
        ids = self.free[t]
        return ids.pop(self.rng.randrange(len(ids)))


THEMES = ["any"] * 12 + ["tanyao"] * 4 + ["honitsu"] * 4 + ["chinitsu"] * 2 + ["terminals"] * 3 + \
    ["pungs"] * 2 + ["honours", "dragons", "winds"]
RARE_THEMES = ["green"]


def theme_tiles(theme, sanma, suit):
    allowed = [t for t in range(34) if not (sanma and 1 <= t <= 7)]
    if theme == "tanyao":
        return [t for t in allowed if t < 27 and t % 9 not in (0, 8)]
    if theme == "honitsu":
        return [t for t in allowed if t // 9 == suit or t >= 27]
    if theme == "chinitsu":
        return [t for t in allowed if t // 9 == suit]
    if theme == "terminals":
        return [t for t in allowed if t >= 27 or t % 9 in (0, 6, 8)]
    if theme == "honours":
        return [t for t in allowed if t >= 27 or t % 9 in (0, 8)]
    if theme == "green":
        return [19, 20, 21, 23, 25, 32]
    if theme == "dragons":
        return [t for t in allowed if t >= 31 or t // 9 == suit]
    if theme == "winds":
        return [t for t in allowed if 27 <= t <= 30 or t // 9 == suit]
    return allowed


def draw_set(rng, wall, tiles, theme, need_four):
    """A (kind, tile) set drawn from `tiles` that the wall can still supply."""
    for _ in range(60):
        t = rng.choice(tiles)
        seq_ok = t < 27 and t % 9 <= 6 and all(wall.left(t + k) > 0 for k in range(3))
        if theme == "tanyao" and seq_ok:
            seq_ok = t % 9 >= 1 and t % 9 <= 5
        want_seq = theme not in ("pungs", "honours", "dragons", "winds") and rng.random() < 0.8
        if theme == "green":
            want_seq = t == 19 and rng.random() < 0.5
        if want_seq and seq_ok and not need_four:
            return ("seq", t, [wall.take(t + k) for k in range(3)])
        if wall.left(t) >= (4 if need_four else 3):
            return ("pung", t, [wall.take(t) for _ in range(4 if need_four else 3)])
    return None


def planned_sets(rng, sanma, suit):
    """A few sets chosen up front so that sanshoku, ittsu, doukou and iipeikou occur."""
    r = rng.random()
    n = rng.randrange(7)
    if r < 0.08 and not sanma:
        return [("seq", s * 9 + n) for s in range(3)]
    if r < 0.16:
        return [("seq", suit * 9 + k) for k in (0, 3, 6)]
    if r < 0.20:
        number = rng.choice([0, 8]) if sanma else rng.randrange(9)
        return [("pung", s * 9 + number) for s in range(3)]
    if r < 0.28:
        return [("seq", suit * 9 + n)] * 2
    return []


def draw_planned(wall, kind, t):
    tiles = [t, t + 1, t + 2] if kind == "seq" else [t] * 3
    if any(wall.left(u) < tiles.count(u) for u in set(tiles)):
        return None
    return (kind, t, [wall.take(u) for u in tiles])


def build_regular(rng, wall, sanma, melds_wanted):
    theme = rng.choice(RARE_THEMES if rng.random() < 0.01 else THEMES)
    suit = rng.choice([1, 2] if sanma else [0, 1, 2])
    tiles = theme_tiles(theme, sanma, suit)
    plan = planned_sets(rng, sanma, suit)
    melds = []  # (type, ids) with type in chi/pon/minkan/shouminkan/ankan
    concealed = []
    for k in range(4):
        as_meld = k < melds_wanted
        kan = as_meld and rng.random() < 0.45
        if k < len(plan):
            s = draw_planned(wall, *plan[k])
            kan = False
        else:
            s = draw_set(rng, wall, tiles, theme, kan)
        if s is None and kan:
            kan = False
            s = draw_set(rng, wall, tiles, theme, False)
        if s is None:
            return None
        kind, _, ids = s
        if not as_meld:
            concealed += ids
        elif kind == "seq":
            if sanma:
                concealed += ids  # no chi in sanma: the sequence stays concealed
            else:
                melds.append(("chi", ids))
        elif kan:
            melds.append((rng.choice(["minkan", "shouminkan", "ankan", "ankan"]), ids))
        else:
            melds.append(("pon", ids))
    pair_candidates = [t for t in tiles if wall.left(t) >= 2]
    if not pair_candidates:
        return None
    p = rng.choice(pair_candidates)
    concealed += [wall.take(p), wall.take(p)]
    return concealed, melds


def build_chiitoitsu(rng, wall, sanma):
    theme = rng.choice(["any", "any", "tanyao", "honitsu", "chinitsu", "honours"])
    tiles = theme_tiles(theme, sanma, rng.choice([1, 2] if sanma else [0, 1, 2]))
    tiles = [t for t in tiles if wall.left(t) >= 2]
    if len(tiles) < 7:
        tiles = [t for t in range(34) if wall.left(t) >= 2]
    ids = []
    for t in rng.sample(tiles, 7):
        ids += [wall.take(t), wall.take(t)]
    return ids, []


def build_kokushi(rng, wall):
    orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    ids = [wall.take(t) for t in orphans]
    ids.append(wall.take(rng.choice(orphans)))
    return ids, []


def build_chuuren(rng, wall, sanma):
    suit = rng.choice([1, 2] if sanma else [0, 1, 2])
    base = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    base[rng.randrange(9)] += 1
    ids = [wall.take(suit * 9 + n) for n in range(9) for _ in range(base[n])]
    return ids, []


def choose_shape(rng, wall, sanma):
    r = rng.random()
    if r < 0.006:
        return build_kokushi(rng, wall)
    if r < 0.01:
        return build_chuuren(rng, wall, sanma)
    if r < 0.08:
        return build_chiitoitsu(rng, wall, sanma)
    melds_wanted = rng.choices([0, 1, 2, 3, 4], weights=[45, 22, 15, 10, 8])[0]
    return build_regular(rng, wall, sanma, melds_wanted)


def conditions(rng, closed, has_kan, dealer, no_melds, win_count_in_hand):
    tsumo = rng.random() < 0.5
    c = dict(is_tsumo=tsumo)
    if no_melds and tsumo and rng.random() < 0.03:
        c["is_tenhou" if dealer else "is_chiihou"] = True
        return c
    if closed:
        r = rng.random()
        if r < 0.06:
            c["is_daburu_riichi"] = True
        elif r < 0.5:
            c["is_riichi"] = True
        if (c.get("is_riichi") or c.get("is_daburu_riichi")) and rng.random() < 0.25:
            c["is_ippatsu"] = True
    if tsumo:
        if has_kan and rng.random() < 0.25:
            c["is_rinshan"] = True
        elif rng.random() < 0.06:
            c["is_haitei"] = True
    else:
        if rng.random() < 0.06:
            c["is_houtei"] = True
        elif win_count_in_hand == 1 and rng.random() < 0.05:
            c["is_chankan"] = True
    return c


FLAG_LETTERS = [("is_tsumo", "t"), ("is_riichi", "r"), ("is_daburu_riichi", "d"), ("is_ippatsu", "i"),
                ("is_haitei", "h"), ("is_houtei", "H"), ("is_rinshan", "k"), ("is_chankan", "c"),
                ("is_tenhou", "T"), ("is_chiihou", "C")]
MELD_LETTERS = {"chi": "c", "pon": "p", "minkan": "m", "shouminkan": "s", "ankan": "a"}


def oracle_melds(melds):
    out = []
    for kind, ids in melds:
        mtype = {"chi": Meld.CHI, "pon": Meld.PON, "minkan": Meld.KAN, "shouminkan": Meld.SHOUMINKAN,
                 "ankan": Meld.KAN}[kind]
        out.append(Meld(meld_type=mtype, tiles=sorted(ids), opened=kind != "ankan"))
    return out


def result_text(res):
    if res.error:
        return f"ERR:{res.error}"
    cost = res.cost
    yaku = []
    for y in res.yaku:
        name = YAKU_NAMES[y.name]
        if y.is_yakuman:
            han = y.han_closed if not res.is_open_hand or not y.han_open else y.han_open
        else:
            han = y.han_open if res.is_open_hand and y.han_open else y.han_closed
        yaku.append(f"{name}:{han}")
    level = cost["yaku_level"]
    if any(y.is_yakuman for y in res.yaku):
        limit = "yakuman"
    elif level.endswith("yakuman"):
        # The oracle labels a counted yakuman "yakuman" too; it has no yakuman yaku.
        limit = "kazoe_yakuman"
    else:
        limit = LIMITS[level]
    main = cost["main"] + cost["main_bonus"]
    additional = cost["additional"] + cost["additional_bonus"]
    return f"{res.han}\t{res.fu}\t{limit}\t{main}/{additional}/{cost['total']}\t{','.join(sorted(yaku))}"


def one_hand(rng, sanma, double_yakuman=False):
    wall = Wall(rng, sanma)
    shape = choose_shape(rng, wall, sanma)
    if shape is None:
        return None
    concealed, melds = shape
    win_id = rng.choice(concealed)
    win = win_id // 4
    if rng.random() < 0.04:
        # Not a win (usually): one concealed tile, not the winning one, swapped.
        others = [i for i in concealed if i != win_id]
        t = rng.choice([t for t in range(34) if wall.left(t) > 0])
        concealed.remove(rng.choice(others))
        concealed.append(wall.take(t))
    seats = WINDS[:3] if sanma else WINDS
    seat = rng.choice(seats)
    round_wind = rng.choices(WINDS[:3] if sanma else WINDS, weights=[45, 45, 10] if sanma else [45, 45, 7, 3])[0]
    closed = all(k == "ankan" for k, _ in melds)
    has_kan = any(k in ("minkan", "shouminkan", "ankan") for k, _ in melds)
    win_count = sum(1 for i in concealed if i // 4 == win)
    cond = conditions(rng, closed, has_kan, seat == "E", not melds, win_count)
    kita = 0
    kita_ids = []
    if sanma:
        kita = min(rng.choices([0, 1, 2, 3, 4], weights=[50, 25, 14, 7, 4])[0], wall.left(30))
        kita_ids = [wall.take(30) for _ in range(kita)]
    kans = sum(1 for k, _ in melds if k != "chi" and k != "pon")
    n_ind = min(5, 1 + kans)
    dora = [wall.take(rng.choice([t for t in range(34) if wall.left(t) > 0])) for _ in range(n_ind)]
    riichi = cond.get("is_riichi") or cond.get("is_daburu_riichi")
    ura = []
    if riichi or rng.random() < 0.2:
        ura = [wall.take(rng.choice([t for t in range(34) if wall.left(t) > 0])) for _ in range(n_ind)]
    honba = rng.choices(range(9), weights=[50, 20, 10, 6, 5, 3, 3, 2, 1])[0]
    sticks = rng.choices(range(5), weights=[55, 25, 12, 5, 3])[0]
    config = HandConfig(player_wind=27 + WINDS.index(seat), round_wind=27 + WINDS.index(round_wind),
                        tsumi_number=honba, kyoutaku_number=sticks, num_nuki_dora=kita,
                        options=tenhou_options(sanma, double_yakuman), **cond)
    all_ids = concealed + [i for _, ids in melds for i in ids]
    res = HandCalculator.estimate_hand_value(all_ids, win_id, melds=oracle_melds(melds),
                                             dora_indicators=dora, ura_dora_indicators=ura, config=config)
    flags = "".join(letter for key, letter in FLAG_LETTERS if cond.get(key)) or "-"
    meld_text = ",".join(MELD_LETTERS[k] + mpsz(ids) for k, ids in melds) or "-"
    fields = [mpsz(concealed), meld_text, tile_name(win), flags, round_wind + seat,
              mpsz(dora).replace("0", "5"), mpsz(ura).replace("0", "5"), str(kita), str(honba), str(sticks)]
    return "\t".join(fields) + "\t" + result_text(res)


# preset name -> (three players, double yakuman for single patterns)
PRESETS = {
    "tenhou-4p": (False, False),
    "tenhou-sanma": (True, False),
    "majsoul-4p": (False, True),
    "majsoul-sanma": (True, True),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=21000, help="hands per preset")
    parser.add_argument("--seed", type=int, default=20240614)
    parser.add_argument("--presets", default=",".join(PRESETS),
                        help="comma-separated presets to write (default: all)")
    args = parser.parse_args()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for preset in args.presets.split(","):
        sanma, double_yakuman = PRESETS[preset]
        rng = random.Random(f"{args.seed}-{preset}")
        lines = []
        while len(lines) < args.hands:
            line = one_hand(rng, sanma, double_yakuman)
            if line is not None:
                lines.append(line)
        header = [
            f"# riichi scoring vectors, preset {preset}: {len(lines)} hands",
            f"# oracle: PyPI mahjong {version('mahjong')} HandCalculator, "
            f"{'Mahjong Soul' if double_yakuman else 'Tenhou'} options (see README.md)",
            f"# generated by: .venv/bin/python scripts/oracle/gen_riichi_scores.py --hands {args.hands}"
            f" --seed {args.seed}",
            "# hand\tmelds\twin\tflags\twinds\tdora\tura\tkita\thonba\tsticks\t"
            "han\tfu\tlimit\tmain/additional/total\tyaku",
        ]
        path = OUT_DIR / f"{preset}.tsv"
        path.write_text("\n".join(header + lines) + "\n")
        errors = sum(1 for line in lines if "\tERR:" in line)
        print(f"{path}: {len(lines)} hands ({errors} oracle errors)", file=sys.stderr)


if __name__ == "__main__":
    main()
