#!/usr/bin/env python3
"""Scaling of `train --broker` with emulated workers (issue 18, item 5).

On a 2-core machine real self-play cannot scale past two workers, so this harness
(1) records one real self-play worker's batches and its samples/s on one thread
(`host-trainer worker --record`), then (2) for each worker count N starts a fresh NATS
server, a learner (`train --broker --no-local-workers`, the default model and PPO
settings) and N workers that replay the recording at the recorded per-thread rate
while sleeping (`worker --emulate`), and measures:

- the learner's samples/s over the updates after the first two (warm-up), against N
  times the recorded rate (linear scaling), and its wait vs update seconds per update;
- bytes moved through the server (its monitoring endpoint's in_bytes/out_bytes), and
  per worker the compressed batch bytes sent and parameter bytes fetched;
- the parameter fan-out: per fetch, the delay from the learner writing a snapshot to a
  worker holding it, and the download time.

(3) With root, `ip` and `tc`, the N = --fanout-workers run is repeated with the workers
in a network namespace behind a veth whose server-to-worker direction is capped by a
token bucket (`tc qdisc ... tbf rate R`), for each rate in --bandwidths, to time the
fan-out when the link is the limit.

Writes <out>/<label>.json (every number, the commands, the git revision),
<out>/<label>.md (the table) and <out>/<label>.log (the processes' output). Usage:

    .venv/bin/python scripts/scale_emulation.py --out models/scaling
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NETNS = "mjscale"
VETH_HOST, VETH_NS = "mjs0", "mjs1"
HOST_IP, NS_IP = "10.78.0.1", "10.78.0.2"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A nats-server with JetStream, a fresh store and the monitoring endpoint."""

    def __init__(self, binary, work, host="127.0.0.1"):
        self.store = Path(tempfile.mkdtemp(prefix="nats-", dir=work))
        self.port, self.mport = free_port(), free_port()
        conf = self.store / "nats.conf"
        conf.write_text(
            f"host: {host}\nport: {self.port}\nhttp_port: {self.mport}\n"
            f"max_payload: {16 * 1024 * 1024}\n"
            f"jetstream {{\n  store_dir: {json.dumps(str(self.store / 'js'))}\n"
            f"  max_file_store: 4G\n  max_memory_store: 64M\n}}\n"
        )
        self.proc = subprocess.Popen(
            [binary, "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=open(self.store / "server.log", "w"),
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                self.varz()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"nats-server did not start: {(self.store / 'server.log').read_text()}")

    def url(self, ip="127.0.0.1"):
        return f"nats://{ip}:{self.port}"

    def varz(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.mport}/varz", timeout=2) as r:
            return json.load(r)

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.store, ignore_errors=True)


TRAIN_ARGS = []


def learner(exe, runs, run_id, url, updates, log):
    args = [
        exe, "train", "--runs", str(runs), "--id", run_id, "--device", "cpu", "--quiet",
        "--broker", url, "--no-local-workers", "--max-updates", str(updates),
        "--eval-every", "100000", "--checkpoint-every", "100000",
    ] + TRAIN_ARGS
    return args, subprocess.Popen(args, stdout=log, stderr=log)


def worker(exe, url, name, extra, log, prefix=()):
    args = list(prefix) + [exe, "worker", "--broker", url, "--name", name, "--patience", "60"]
    args += extra
    return args, subprocess.Popen(args, stdout=log, stderr=log)


def rows(run):
    path = run / "metrics.jsonl"
    if not path.exists():
        return []
    return [json.loads(l) for l in path.read_text().splitlines() if l.endswith("}")]


def wait_all(procs, timeout, what):
    deadline = time.time() + timeout
    for p in procs:
        left = max(1.0, deadline - time.time())
        try:
            p.wait(left)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise RuntimeError(f"{what} did not end within {timeout} s")


def record(exe, nats, work, seconds, log):
    """One real worker, one thread, `seconds` of self-play for a real learner."""
    server = Server(nats, work)
    rec = work / "recording"
    try:
        largs, lp = learner(exe, work / "runs", "record", server.url(), 100000, log)
        wargs, wp = worker(
            exe, server.url(), "recorder",
            ["--threads", "1", "--record", str(rec), "--max-minutes", str(seconds / 60)], log,
        )
        wait_all([wp], seconds + 120, "the recording worker")
        lp.kill()
        lp.wait()
    finally:
        server.stop()
    meta = json.loads((rec / "recording.json").read_text())
    meta.pop("train", None)
    meta["commands"] = [" ".join(largs), " ".join(wargs)]
    return rec, meta


def summary(xs):
    xs = sorted(xs)
    if not xs:
        return {"n": 0}
    at = lambda q: xs[round((len(xs) - 1) * q)]
    return {"n": len(xs), "mean": statistics.fmean(xs), "p50": at(0.5), "p95": at(0.95), "max": xs[-1]}


def emulate(exe, nats, work, rec, n, rate, updates, log, netns=False):
    """A learner and `n` emulating workers to `updates`; the measurements."""
    server = Server(nats, work, host="0.0.0.0" if netns else "127.0.0.1")
    run_id = f"n{n}{'-netns' if netns else ''}-{int(time.time())}"
    runs = work / "runs"
    try:
        largs, lp = learner(exe, runs, run_id, server.url(), updates, log)
        prefix = ["ip", "netns", "exec", NETNS] if netns else []
        url = server.url(HOST_IP if netns else "127.0.0.1")
        workers = []
        for k in range(n):
            stats = work / f"{run_id}-w{k}.json"
            extra = ["--emulate", str(rec), "--emulate-rate", f"{rate:.3f}", "--stats", str(stats)]
            wargs, wp = worker(exe, url, f"e{k}", extra, log, prefix)
            workers.append((stats, wp))
        wait_all([lp], 60 * 30, f"the learner with {n} workers")
        if lp.returncode != 0:
            raise RuntimeError(f"the learner failed with {n} workers (see the log)")
        varz = server.varz()
        wait_all([wp for _, wp in workers], 60, "the emulating workers")
    finally:
        server.stop()
    metrics = rows(runs / run_id)
    warm = metrics[2:] if len(metrics) > 4 else metrics
    span = warm[-1]["elapsed_s"] - (metrics[1]["elapsed_s"] if len(metrics) > 4 else 0.0)
    samples = sum(r["batch"] for r in warm)
    ws = [json.loads(s.read_text()) for s, _ in workers]
    delays = [w["params_delay_ms"] for w in ws if w["params_delay_ms"]["n"]]
    return {
        "workers": n,
        "netns": netns,
        "updates": len(metrics),
        "measured_updates": len(warm),
        "offered_samples_per_s": n * rate,
        "learner_samples_per_s": samples / span,
        "scaling_efficiency": samples / span / (n * rate),
        "wait_s_per_update": statistics.fmean(r["wait_s"] for r in warm),
        "update_s_per_update": statistics.fmean(r["update_s"] for r in warm),
        "server_in_bytes": varz["in_bytes"],
        "server_out_bytes": varz["out_bytes"],
        "batch_bytes_sent": sum(w["bytes_sent"] or 0 for w in ws),
        "params_bytes_fetched": sum(w["params_bytes"] for w in ws),
        "params_fetches": sum(w["params_fetches"] for w in ws),
        "params_snapshot_bytes": (
            sum(w["params_bytes"] for w in ws) / max(1, sum(w["params_fetches"] for w in ws))
        ),
        # Per worker: the delay from the learner writing a snapshot to the worker
        # holding it (the epoch's first snapshot left out: it measures the join).
        "params_delay_ms_p50_median": statistics.median(d["p50"] for d in delays) if delays else None,
        "params_delay_ms_p95_max": max((d["p95"] for d in delays), default=None),
        "params_fetch_ms_mean": statistics.fmean(
            w["params_fetch_ms"]["mean"] for w in ws if w["params_fetch_ms"]["n"]
        ),
        "params_fetch_ms_p95_max": max(w["params_fetch_ms"].get("p95", 0) for w in ws),
        "learner_command": " ".join(largs),
        "worker_stats": ws,
    }


def sh(*args):
    subprocess.run(args, check=True)


def netns_up(rate):
    netns_down()
    sh("ip", "netns", "add", NETNS)
    sh("ip", "link", "add", VETH_HOST, "type", "veth", "peer", "name", VETH_NS)
    sh("ip", "link", "set", VETH_NS, "netns", NETNS)
    sh("ip", "addr", "add", f"{HOST_IP}/24", "dev", VETH_HOST)
    sh("ip", "link", "set", VETH_HOST, "up")
    sh("ip", "netns", "exec", NETNS, "ip", "addr", "add", f"{NS_IP}/24", "dev", VETH_NS)
    sh("ip", "netns", "exec", NETNS, "ip", "link", "set", VETH_NS, "up")
    sh("ip", "netns", "exec", NETNS, "ip", "link", "set", "lo", "up")
    # Server → workers: the direction parameter snapshots travel.
    sh("tc", "qdisc", "add", "dev", VETH_HOST, "root", "tbf", "rate", rate,
       "burst", "64kb", "latency", "2s")


def netns_down():
    subprocess.run(["ip", "netns", "del", NETNS], stderr=subprocess.DEVNULL)
    subprocess.run(["ip", "link", "del", VETH_HOST], stderr=subprocess.DEVNULL)


def can_netns():
    if os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("tc"):
        return False
    try:
        netns_up("1gbit")
        return True
    except subprocess.CalledProcessError:
        return False
    finally:
        netns_down()


def table(results, rate, recorded):
    lines = [
        f"Recorded rate: {recorded:.0f} samples/s per self-play thread (one core); "
        f"each emulated worker offers {rate:.0f} samples/s.",
        "",
        "| workers | offered samples/s | learner samples/s | × linear | wait s/update | "
        "update s/update | server in MB | server out MB | params fetches | "
        "fan-out delay ms (p50 / p95) | fetch ms (mean / p95) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['workers']}{' (' + r['cap'] + ')' if r.get('cap') else ''} "
            f"| {r['offered_samples_per_s']:.0f} | {r['learner_samples_per_s']:.0f} "
            f"| {r['scaling_efficiency']:.2f} | {r['wait_s_per_update']:.2f} "
            f"| {r['update_s_per_update']:.2f} | {r['server_in_bytes'] / 1e6:.1f} "
            f"| {r['server_out_bytes'] / 1e6:.1f} | {r['params_fetches']} "
            f"| {r['params_delay_ms_p50_median'] or 0:.0f} / {r['params_delay_ms_p95_max'] or 0:.0f} "
            f"| {r['params_fetch_ms_mean']:.0f} / {r['params_fetch_ms_p95_max']:.0f} |"
        )
    lines += [
        "",
        "Learner samples/s: over the updates after the first two. Server MB: the server's "
        "in_bytes/out_bytes. Fan-out delay: from the learner writing a snapshot to a worker "
        "holding it (workers poll a 16-byte stamp every 200 ms), the median over workers of "
        "their medians / the largest of their 95th percentiles; fetch: the download alone. "
        "A cap in parentheses: the workers sat in a network namespace whose server-to-worker "
        "link a `tc tbf` token bucket limited to that rate.",
    ]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--exe", default=str(ROOT / "target/release/host-trainer"))
    ap.add_argument("--nats", default=str(ROOT / ".venv/bin/nats-server"))
    ap.add_argument("--workers", default="1,2,4,8", help="worker counts, comma-separated")
    ap.add_argument("--updates", type=int, default=10, help="learner updates per count")
    ap.add_argument("--record-seconds", type=float, default=60.0)
    ap.add_argument("--fanout-workers", type=int, default=4)
    ap.add_argument("--bandwidths", default="100mbit,20mbit", help="tbf rates, comma-separated ('' for none)")
    ap.add_argument("--train-args", default="", help="more `train` options (model size, "
                    "steps per update), for the recording and every learner")
    ap.add_argument("--rate", type=float, default=0.0, help="samples/s per emulated worker "
                    "(default: the recorded rate of one self-play thread)")
    ap.add_argument("--label", default="emulation", help="output files <out>/<label>.{json,md,log}")
    ap.add_argument("--out", default=str(ROOT / "models/scaling"))
    a = ap.parse_args()
    TRAIN_ARGS.extend(a.train_args.split())
    for f in (a.exe, a.nats):
        if not os.access(f, os.X_OK):
            sys.exit(f"{f} is not an executable (cargo build --release -p host-trainer "
                     "--features distributed; scripts/setup)")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="mj-scale-"))
    log = open(out / f"{a.label}.log", "w")
    print(f"work folder {work}; log {out / (a.label + '.log')}", flush=True)
    t0 = time.time()
    rec, meta = record(a.exe, a.nats, work, a.record_seconds, log)
    rate = meta["samples_per_s_per_thread"]
    print(f"recorded {meta['batches']} batches, {rate:.0f} samples/s per thread", flush=True)
    if a.rate > 0:
        rate = a.rate
    results = []
    for n in [int(x) for x in a.workers.split(",") if x]:
        r = emulate(a.exe, a.nats, work, rec, n, rate, a.updates, log)
        print(f"{n} workers: {r['learner_samples_per_s']:.0f} samples/s "
              f"({r['scaling_efficiency']:.2f} × linear), wait {r['wait_s_per_update']:.2f} s, "
              f"update {r['update_s_per_update']:.2f} s", flush=True)
        results.append(r)
    caps = [b for b in a.bandwidths.split(",") if b]
    if caps and not can_netns():
        print("no network namespaces here (needs root, ip, tc): bandwidth runs skipped")
        caps = []
    for cap in caps:
        netns_up(cap)
        try:
            r = emulate(a.exe, a.nats, work, rec, a.fanout_workers, rate, a.updates, log, netns=True)
        finally:
            netns_down()
        r["cap"] = cap
        print(f"{a.fanout_workers} workers behind {cap}: fetch {r['params_fetch_ms_mean']:.0f} ms, "
              f"delay p50 {r['params_delay_ms_p50_median'] or 0:.0f} ms, "
              f"{r['learner_samples_per_s']:.0f} samples/s", flush=True)
        results.append(r)
    git = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    doc = {
        "command": " ".join(sys.argv),
        "git_revision": git.stdout.strip(),
        "machine": f"{os.cpu_count()} cores",
        "train_args": a.train_args,
        "recording": meta,
        "results": results,
        "seconds": time.time() - t0,
    }
    (out / f"{a.label}.json").write_text(json.dumps(doc, indent=2) + "\n")
    (out / f"{a.label}.md").write_text(
        f"`{' '.join(sys.argv)}` (train options: `{a.train_args or 'defaults'}`)\n\n"
        + table(results, rate, meta["samples_per_s_per_thread"])
    )
    print(table(results, rate, meta["samples_per_s_per_thread"]))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
