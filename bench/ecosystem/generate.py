"""Generate (or extend) the stored ground truth: every model of a package, each in its own process.

``python bench/ecosystem/generate.py PACKAGE [--only base,fp16] [--jobs 2] [--force]``
runs ``record.py`` for every model of PACKAGE (two processes at a time, OMP_NUM_THREADS=1,
seeded, an inactivity timeout per model) with the bench venv's python and merges the rows into
``truth/PACKAGE.jsonl`` as each model finishes. Models that already have rows for the selected
variants are skipped, so an interrupted run resumes where it stopped. Models run in a fixed
pseudo-random order (sha1 of the name), so a partial run is an even sample. A model whose
process crashes or hangs gets ``crash``/``timeout`` rows for its missing variants.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from truth import TRUTH_DIR, load_runs, run_id, save_runs  # noqa: E402

BENCH_PYTHON = HERE / ".venv" / "bin" / "python"


def bench_env() -> dict[str, str]:
    """The environment every recorded process runs in: offline, one thread, seeded hashing."""
    env = dict(os.environ)
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0",
               TOKENIZERS_PARALLELISM="false", PYTHONWARNINGS="ignore")
    return env


def list_models(python: str, package: str) -> list[str]:
    out = subprocess.run([python, str(HERE / "record.py"), package, "--list"], env=bench_env(),
                         capture_output=True, text=True, timeout=600, check=True)
    return [m for m in out.stdout.split() if m]


def order(models: list[str]) -> list[str]:
    return sorted(models, key=lambda m: hashlib.sha1(m.encode()).hexdigest())


def matches(variant: str, only: list[str] | None) -> bool:
    return not only or any(variant == w or variant.startswith(w + "-") for w in only)


def run_model(python: str, package: str, model: str, only: list[str] | None, timeout: float,
              extra: list[str] = (), env_extra: dict | None = None, planned: list[str] = ()) -> list[dict]:
    """Rows of one model's process; crash/timeout rows for the variants it did not finish (those it
    announced, else ``planned``, else ``base``)."""
    cmd = [python, str(HERE / "record.py"), package, model, *extra]
    if only:
        cmd += ["--only", ",".join(only)]
    env = bench_env()
    env.update(env_extra or {})
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rows: list[dict] = []
    expected: list[str] = []
    last = [time.monotonic()]
    stderr_tail: list[str] = []

    def drain_stderr():
        for line in proc.stderr:
            stderr_tail.append(line.rstrip())
            del stderr_tail[:-20]

    threading.Thread(target=drain_stderr, daemon=True).start()
    timed_out = [False]

    def watchdog():
        while proc.poll() is None:
            if time.monotonic() - last[0] > timeout:
                timed_out[0] = True
                proc.kill()
                return
            time.sleep(1)

    threading.Thread(target=watchdog, daemon=True).start()
    for line in proc.stdout:
        last[0] = time.monotonic()
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "variants" in obj and "model" not in obj:
            expected = obj["variants"]
        else:
            rows.append(obj)
    proc.wait()
    done = {r["variant"] for r in rows}
    status = "timeout" if timed_out[0] else "crash"
    error = f"{status} (exit {proc.returncode}): " + " | ".join(stderr_tail[-3:])[-300:]
    for variant in expected or list(planned) or ([] if rows else ["base"]):
        if variant not in done:
            rows.append({"package": package, "model": model, "variant": variant, "status": status, "error": error})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package")
    parser.add_argument("--only", help="variant names or prefixes, comma-separated (e.g. base,fp16,train,head or rope)")
    parser.add_argument("--models", help="comma-separated models (default: all the builder lists)")
    parser.add_argument("--models-from", help="a file of models, one per line (for names with commas)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300, help="seconds without a finished variant before a model is killed")
    parser.add_argument("--limit", type=int, help="run at most this many models")
    parser.add_argument("--force", action="store_true", help="re-run models that already have rows")
    parser.add_argument("--retry-failed", action="store_true", help="re-run models none of whose variants ran")
    parser.add_argument("--python", default=str(BENCH_PYTHON))
    parser.add_argument("--truth", default=str(TRUTH_DIR))
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    path = Path(args.truth) / f"{args.package}.jsonl"
    runs = load_runs(path)
    if args.models_from:
        models = [line.strip() for line in open(args.models_from) if line.strip()]
    elif args.models:
        models = args.models.split(",")
    else:
        models = order(list_models(args.python, args.package))
    have = {r["model"] for r in runs.values() if matches(r["variant"], only)}
    failed = {m for m in have if all(r["status"] != "ok" for r in runs.values() if r["model"] == m and matches(r["variant"], only))}
    todo = [m for m in models if args.force or m not in have or (args.retry_failed and m in failed)]
    if args.limit:
        todo = todo[: args.limit]
    print(f"{args.package}: {len(models)} models, {len(todo)} to run, {len(runs)} runs stored", flush=True)
    lock = threading.Lock()
    start = time.monotonic()
    done = [0]

    def one(model: str) -> None:
        t = time.monotonic()
        rows = run_model(args.python, args.package, model, only, args.timeout)
        with lock:
            for row in rows:
                runs[run_id(row)] = row
            save_runs(path, runs)
            done[0] += 1
            summary = " ".join(f"{r['variant']}:{r['status'] if r['status'] != 'ok' else len(r.get('breaks', []))}" for r in rows)
            print(f"[{done[0]}/{len(todo)} {time.monotonic() - start:.0f}s] {model} ({time.monotonic() - t:.0f}s) {summary}", flush=True)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, todo))
    print(f"wall time {time.monotonic() - start:.0f} s for {len(todo)} models", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
