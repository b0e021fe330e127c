"""Falling damage and Body Control relief (seed 001, VIII.3 "Falling damage").

A fall of h metres does 1 damage per metre from the third on, so h - 2 when h is 3 or more
and nothing for 1 or 2 metres. A successful Body Control ARCT takes off the amount by which its
result beats the threshold. The seed suggests the metres fallen as the threshold band: 3-5 m
trivial (3), 6-8 m easy (6), and so on, i.e. 3 x floor(h / 3) (rules brief, "Falling").
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FREE_METRES", "FallResult", "fall_damage", "fall_result", "fall_threshold", "relief"]

FREE_METRES = 2  # falls of 1 or 2 metres do no damage


def fall_damage(metres: int) -> int:
    """Damage before any relief: h - 2 from 3 metres on, else 0."""
    return metres - FREE_METRES if metres > FREE_METRES else 0


def fall_threshold(metres: int) -> int:
    """The Body Control threshold for a fall: its 3-metre band, 3 x floor(h / 3)."""
    return 3 * (metres // 3)


def relief(result: int, threshold: int) -> int:
    """What a Body Control ARCT takes off: the positive difference between result and threshold."""
    return max(0, result - threshold)


@dataclass(frozen=True)
class FallResult:
    metres: int
    base: int
    threshold: int
    relief: int
    damage: int


def fall_result(metres: int, check_result: int | None = None, threshold: int | None = None) -> FallResult:
    """The whole fall: base damage, threshold, relief from an ARC result (if any) and damage, never below 0."""
    base = fall_damage(metres)
    band = fall_threshold(metres) if threshold is None else threshold
    off = 0 if check_result is None else relief(check_result, band)
    return FallResult(metres=metres, base=base, threshold=band, relief=off, damage=max(0, base - off))
