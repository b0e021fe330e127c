"""An exact distribution as an SVG bar chart, drawn on the server (no chart library, no CDN)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from markupsafe import Markup, escape

__all__ = ["Column", "bar_chart"]

_WIDTH, _HEIGHT, _PAD = 640, 260, 28


@dataclass(frozen=True)
class Column:
    value: int
    p: Fraction
    #: Inside the at-least/at-most range asked about.
    hit: bool = False


def bar_chart(columns: Sequence[Column], title: str) -> Markup:
    """Bars scaled to the likeliest outcome; each carries its exact probability as a tooltip
    (``<title>``), and the whole chart a text alternative for screen readers."""
    if not columns:
        return Markup("")
    top = max(float(c.p) for c in columns) or 1.0
    slot = (_WIDTH - 2 * _PAD) / len(columns)
    label_every = max(1, -(-len(columns) // 12))
    parts = [
        f'<svg class="chart" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" aria-labelledby="chart-title" '
        f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{escape(title)}</title>',
    ]
    base = _HEIGHT - _PAD
    for i, c in enumerate(columns):
        h = (base - 8) * float(c.p) / top
        x = _PAD + i * slot
        cls = "bar hit" if c.hit else "bar"
        parts.append(
            f'<rect class="{cls}" x="{x + slot * 0.1:.1f}" y="{base - h:.1f}" width="{slot * 0.8:.1f}" '
            f'height="{h:.1f}"><title>{c.value}: {float(c.p):.2%} ({c.p})</title></rect>'
        )
        if i % label_every == 0:
            parts.append(
                f'<text x="{x + slot / 2:.1f}" y="{base + 22}" text-anchor="middle" class="axis">{c.value}</text>'
            )
    parts.append(f'<line x1="{_PAD}" y1="{base}" x2="{_WIDTH - _PAD}" y2="{base}" class="axis-line"/>')
    parts.append("</svg>")
    return Markup("".join(parts))
