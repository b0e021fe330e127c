"""Equality of plain data that also holds its types: ``1 == 1.0 == True`` is not enough when
two encoders must give the same data."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["same"]


def same(a: Any, b: Any) -> bool:
    """Equal, of the same types all the way down (a float's sign too; NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.copysign(1.0, a) == math.copysign(1.0, b) and a == b
    return bool(a == b)
