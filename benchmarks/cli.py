"""Start-up time of ``rulekeeper roll 3d6`` against ``python -c pass``, measured side by side.

Runs the two commands in alternating order, many times, and prints medians and their ratio.
Goal: under 3x.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 30
BIN = Path(sys.executable).parent


# Measure start-up as users get it: with bytecode caches written on the first (warm-up) run.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - start


def main() -> None:
    contenders = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "rulekeeper roll 3d6": [str(BIN / "rulekeeper"), "roll", "3d6"],
        "rulekeeper --help": [str(BIN / "rulekeeper"), "--help"],
    }
    for argv in contenders.values():  # warm the disk cache and the parser-table cache
        _time(argv)
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(RUNS):
        for name, argv in contenders.items():
            samples[name].append(_time(argv))
    base = statistics.median(samples["python -c pass"])
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"{name:<22} median {median * 1000:7.1f} ms   ratio {median / base:5.2f}x")
    ratio = statistics.median(samples["rulekeeper roll 3d6"]) / base
    print(f"goal: roll 3d6 under 3x python -c pass -> {'met' if ratio < 3 else 'not met'} ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
