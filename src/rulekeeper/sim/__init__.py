"""Encounter simulation: many fights through the real engine, odds with confidence intervals.

    >>> from rulekeeper.sim import simulate, bundled
    >>> result = simulate(bundled(bundled_names()[0]), runs=2000, seed=1, workers=0)
    >>> result.to_json()["sides"]["heroes"]            # doctest: +SKIP
    >>> result.plot().savefig("duel.svg")               # doctest: +SKIP

An adapter: fights are ordinary engine calls (``core/engine.py``) chosen by simple tactics.
numpy, Dask and matplotlib are imported only when a simulation runs or a plot is drawn.
"""

from __future__ import annotations

from pathlib import Path

from rulekeeper.sim.api import simulate, sweep
from rulekeeper.sim.encounter import Encounter, Fighter, build_encounter, load_document
from rulekeeper.sim.fight import FightResult, fight
from rulekeeper.sim.result import SimResult, SweepResult

__all__ = [
    "Encounter",
    "FightResult",
    "Fighter",
    "SimResult",
    "SweepResult",
    "build_encounter",
    "bundled",
    "bundled_names",
    "fight",
    "load_document",
    "simulate",
    "sweep",
]

ENCOUNTERS = Path(__file__).resolve().parent / "encounters"


def bundled_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in ENCOUNTERS.glob("*.yaml")))


def bundled(name: str) -> Path:
    """The path of an encounter shipped with rulekeeper, by name (:func:`bundled_names` lists them)."""
    path = ENCOUNTERS / f"{name}.yaml"
    if not path.is_file():
        from rulekeeper.errors import UnknownNameError

        raise UnknownNameError(f"no bundled encounter {name!r}", expected="one of " + ", ".join(bundled_names()))
    return path
