"""Dice throughput and exact-odds timings.

    python benchmarks/dice.py

Compares rolling ``3d6`` *with* its explanation text against the ``d20`` library (also with
its text) and against a bare ``random.randint`` loop, then times exact distributions. d20 is
optional: ``pip install d20 --no-deps cachetools`` (its declared ``lark-parser`` dependency
would replace the ``lark`` that rulekeeper uses).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

try:
    import rulekeeper.dice  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rulekeeper.dice import SeededSource, roll
from rulekeeper.dice.exact_odds import _distribution
from rulekeeper.dice.notation import parse


def batch_rate(fn: Callable[[], object], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(250):
            fn()
        n += 250
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def rates(contenders: dict[str, Callable[[], object]], rounds: int = 7, seconds: float = 0.15) -> dict[str, float]:
    """Calls per second for each contender, best batch of several.

    Batches alternate between contenders so that a busy machine slows all of them alike
    and the ratios stay meaningful.
    """
    for fn in contenders.values():
        for _ in range(1000):
            fn()
    best = dict.fromkeys(contenders, 0.0)
    for _ in range(rounds):
        for name, fn in contenders.items():
            best[name] = max(best[name], batch_rate(fn, seconds))
    return best


def main() -> None:
    source = SeededSource(2024)
    rng = random.Random(2024)
    randint = rng.randint
    contenders: dict[str, Callable[[], object]] = {
        "rulekeeper": lambda: str(roll("3d6", source)),
        "randint": lambda: randint(1, 6) + randint(1, 6) + randint(1, 6),
    }
    try:
        import d20  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        d20 = None
    else:
        contenders["d20"] = lambda: str(d20.roll("3d6"))
    found = rates(contenders)
    ours = found["rulekeeper"]
    print(f"rulekeeper  3d6 + explanation: {ours:10,.0f} rolls/s")
    print(
        f"randint     3d6, no text     : {found['randint']:10,.0f} rolls/s   "
        f"rulekeeper/randint = {ours / found['randint']:.2f}x"
    )
    if d20 is None:
        print("d20 is not installed; skipping that comparison (pip install d20 --no-deps cachetools)")
    else:
        print(
            f"d20         3d6 + explanation: {found['d20']:10,.0f} rolls/s   "
            f"rulekeeper/d20 = {ours / found['d20']:.2f}x"
        )

    start = time.perf_counter()
    import icepool  # noqa: F401

    elapsed = (time.perf_counter() - start) * 1000
    print(f"\nicepool import: {elapsed:.1f} ms (paid once, on the first distribution)")
    for text in ("3d6", "10d6", "20d6[icons]", "4d6kh3"):
        expr = parse(text)
        _distribution.cache_clear()
        start = time.perf_counter()
        dist = _distribution(expr)
        cold = time.perf_counter() - start
        times = []
        for _ in range(21):
            _distribution.cache_clear()
            start = time.perf_counter()
            _distribution(expr)
            times.append(time.perf_counter() - start)
        typical = statistics.median(times)
        print(
            f"exact distribution {text:<12} first {cold * 1000:7.2f} ms, "
            f"median of 21 {typical * 1000:7.2f} ms  "
            f"({len(dist.outcomes())} totals, mean {float(dist.mean):.3f})"
        )


if __name__ == "__main__":
    main()
