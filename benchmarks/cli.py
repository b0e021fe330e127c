"""Command-line speed, measured side by side in one run against ``python -c pass``.

    .venv/bin/python benchmarks/cli.py [--runs 15] [--events 1000] [--play-commands 60]

Prints, for each contender, the median wall time and its ratio to ``python -c pass``:

* ``rulekeeper roll 3d6`` (goal: under 3x);
* ``pending``, ``damage``, ``log`` and ``status`` on a GURPS campaign of ``--events`` events
  (goal: under 12x each);

and then the time per command inside ``rulekeeper play``, driven through a pseudo-terminal
exactly as a person types (a line, Enter, wait for the next prompt): median and p95
(goal: p95 under 30 ms).

The contenders run in alternating order, so a machine that is busy slows them all alike.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
EXE = str(BIN / "rulekeeper")
ACTORS = ("ingrid", "orc1", "orc2", "orc3", "bran", "wolf")


def _env(tmp: Path) -> dict[str, str]:
    # Start-up as users get it: bytecode caches written on the warm-up run.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RULEKEEPER_CAMPAIGN")}
    env |= {
        "RULEKEEPER_DB": str(tmp / "bench.db"),
        "RULEKEEPER_CONFIG": str(tmp / "selection.json"),
        "RULEKEEPER_HISTORY": str(tmp / "history"),
        "COLUMNS": "80",
    }
    return env


def _build_campaign(env: dict[str, str], events: int) -> None:
    """A GURPS campaign of ``events`` events: six characters, small hits, healing, rounds."""
    from rulekeeper.campaign import Campaign, open_store
    from rulekeeper.cli.context import remember_selection
    from rulekeeper.core import Action

    store = open_store(env["RULEKEEPER_DB"])
    campaign = Campaign.create(store, "bench", "gurps", seed=11)
    for i, actor in enumerate(ACTORS):
        campaign.add_character(actor, {"st": 10 + i % 3, "ht": 11 + i % 2}, npc=actor.startswith(("orc", "wolf")))
    i = 0
    while campaign.version < events:
        actor = ACTORS[(i // 2) % len(ACTORS)]  # each hit is healed by the next command
        if i % 10 == 9:
            campaign.next_round()
        elif i % 2:
            campaign.act(Action("heal", actor, {"amount": 1}))
        else:
            campaign.act(Action("damage", actor, {"amount": 1}))
        i += 1
    store.close()
    os.environ["RULEKEEPER_CONFIG"] = env["RULEKEEPER_CONFIG"]
    remember_selection(env["RULEKEEPER_DB"], "bench", "gurps")


def _time(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def one_shots(env: dict[str, str], runs: int) -> None:
    contenders = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "roll 3d6": [EXE, "roll", "3d6"],
        "pending": [EXE, "pending"],
        "damage": [EXE, "damage", "ingrid", "--amount", "0"],
        "log": [EXE, "log"],
        "status": [EXE, "status"],
    }
    for argv in contenders.values():  # warm the disk cache and the bytecode and parser caches
        _time(argv, env)
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(runs):
        for name, argv in contenders.items():
            samples[name].append(_time(argv, env))
    base = statistics.median(samples["python -c pass"])
    print(f"one-shot commands, median of {runs} runs each, alternating:")
    for name, values in samples.items():
        median = statistics.median(values)
        ratio = median / base
        goal = 3 if name == "roll 3d6" else 12
        verdict = "" if name == "python -c pass" else f"  goal < {goal}x: {'met' if ratio < goal else 'NOT met'}"
        print(f"  {name:<16} {median * 1000:8.1f} ms  {ratio:6.2f}x{verdict}")


class _Pane:
    """``rulekeeper play`` on a pseudo-terminal: write a line, read until the prompt is back."""

    PROMPT = b"pending>"

    def __init__(self, env: dict[str, str]) -> None:
        # No cursor-position requests: nobody on this pty would answer them.
        pane_env = env | {"PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm-256color"}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become rulekeeper play
            os.execve(EXE, [EXE, "play", "bench"], pane_env)
        self.read_until_prompt()

    def read_until_prompt(self, timeout: float = 60.0) -> bytes:
        seen = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if ready:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    break
                seen += chunk
                if self.PROMPT in seen[-4096:]:
                    return seen
        raise RuntimeError(f"rulekeeper play did not show its prompt; last output: {seen[-500:]!r}")

    def run(self, line: str) -> float:
        start = time.perf_counter()
        os.write(self.fd, line.encode() + b"\r")
        self.read_until_prompt()
        return time.perf_counter() - start

    def close(self) -> None:
        os.write(self.fd, b"exit\r")
        # Read to the end: a shell blocked on a full terminal buffer would never exit.
        while select.select([self.fd], [], [], 5.0)[0]:
            try:
                if not os.read(self.fd, 65536):
                    break
            except OSError:  # the other end closed: the shell has exited
                break
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def in_play(env: dict[str, str], commands: int) -> None:
    lines = [
        "damage ingrid --amount 0",
        "status",
        "pending",
        "heal orc1 --amount 1",
        "char show bran",
        "round",
        "log --character wolf --since 0s --until 1s",
        "undo",
    ]
    start = time.perf_counter()
    pane = _Pane(env)
    startup = time.perf_counter() - start
    try:
        pane.run("status")  # warm
        times = sorted(pane.run(lines[i % len(lines)]) for i in range(commands))
    finally:
        pane.close()
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    print(f"inside rulekeeper play ({commands} commands through a pseudo-terminal, start-up paid once):")
    print(f"  start-up to first prompt {startup * 1000:8.1f} ms")
    print(f"  per command: median {statistics.median(times) * 1000:6.1f} ms, p95 {p95 * 1000:6.1f} ms, ", end="")
    print(f"max {times[-1] * 1000:6.1f} ms  goal p95 < 30 ms: {'met' if p95 < 0.030 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--play-commands", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp))
        _build_campaign(env, args.events)
        print(f"campaign 'bench': GURPS, {len(ACTORS)} characters, {args.events} events")
        one_shots(env, args.runs)
        in_play(env, args.play_commands)


if __name__ == "__main__":
    main()
