"""The benchmark runs and writes its figures (speed itself is measured by running it
in release: `python -m mahjong_engine.bench`)."""

import json

from mahjong_engine import bench


def test_bench_runs_every_environment_and_writes_ratios(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert bench.main(["--seconds", "0.3", "--num-games", "8", "--all-cores", "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    for name in ("aec", "vec", "vec_masks_only", "riichienv", "riichienv_encode", "riichienv_encode_extended"):
        assert r[name]["decisions"] > 0, name
        assert r[name]["hands"] > 0, name
    assert r["vec_masks_only_over_riichienv_decisions_per_s"] > 0
    assert "VecGame" not in capsys.readouterr().err
