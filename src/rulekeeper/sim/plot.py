"""Plots of simulation results (matplotlib, imported only here, with the file-only Agg backend)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.errors import InputError
from rulekeeper.sim.status import STATUSES, health_name

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from rulekeeper.sim.result import SimResult, SweepResult

__all__ = ["plot_result", "plot_sweep", "save"]

FORMATS = (".svg", ".png")
STATUS_COLOURS = {
    "dead": "#444444",
    "dying": "#b2182b",
    "unconscious": "#ef8a62",
    "wounded": "#fddbc7",
    "unhurt": "#67a9cf",
}


def _figure(*args: Any, **kwargs: Any) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError("plots need matplotlib", expected="the sim extra: pip install 'rulekeeper[sim]'") from None
    # A bare Figure draws without pyplot's global state or a display.
    return Figure(*args, **kwargs)


def plot_result(result: SimResult) -> Figure:
    t = result.tally
    fig = _figure(figsize=(12, 4.2), layout="constrained")
    ax_win, ax_status, ax_len = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 2, 1.6]})
    names = [*result.sides, "draw"]
    wins = [t.win(s) for s in names]
    ax_win.bar(
        names,
        [w.value for w in wins],
        yerr=[[w.value - w.low for w in wins], [w.high - w.value for w in wins]],
        capsize=4,
        color="#4575b4",
    )
    ax_win.set_ylim(0, 1)
    ax_win.set_title("P(side wins), 95% CI")
    ids = [fid for fid, _ in result.fighters]
    bottom = [0.0] * len(ids)
    for st in STATUSES:
        values = [t.status_of(i, st).value for i in range(len(ids))]
        ax_status.barh(ids, values, left=bottom, label=st, color=STATUS_COLOURS[st])
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax_status.set_xlim(0, 1)
    ax_status.invert_yaxis()
    ax_status.legend(loc="lower right", fontsize="small", ncols=5, bbox_to_anchor=(1, -0.25))
    health = ", ".join(f"{fid} {t.health_of(i).value:.1f}" for i, fid in enumerate(ids[:6]))
    ax_status.set_title(f"how each ends; mean {health_name(result.system)} left: {health}", fontsize="small")
    hist = t.length_histogram()
    ax_len.bar(list(hist), [n / max(1, t.runs) for n in hist.values()], color="#91bfdb")
    ax_len.set_xlabel("rounds")
    mean = t.length()
    ax_len.set_title(f"fight length: mean {mean.value:.2f} ({mean.low:.2f}-{mean.high:.2f})")
    partial = " (PARTIAL: stopped early)" if result.partial else ""
    fig.suptitle(f"{result.title}: {t.runs} fights{partial}")
    return fig


def plot_sweep(result: SweepResult) -> Figure:
    """One axis: win-probability curves with their intervals. Two: a heatmap of the first side's odds."""
    fig = _figure(figsize=(8, 5), layout="constrained")
    ax = fig.subplots()
    side = result.sides[0]
    if len(result.axes) == 1:
        path, values = result.axes[0]
        xs = list(range(len(values)))
        for s in result.sides:
            est = [r.tally.win(s) for _, r in result.cells]
            ax.plot(xs, [e.value for e in est], marker="o", label=s)
            ax.fill_between(xs, [e.low for e in est], [e.high for e in est], alpha=0.2)
        ax.set_xticks(xs, [str(v) for v in values])
        ax.set_xlabel(path)
        ax.set_ylabel("P(win), 95% CI")
        ax.set_ylim(0, 1)
        ax.legend()
    else:
        (path_y, ys), (path_x, xs_v) = result.axes[0], result.axes[1]
        grid = [[0.0] * len(xs_v) for _ in ys]
        # Cells are in product order of the axes; a third axis and beyond average into the two shown.
        counts = [[0] * len(xs_v) for _ in ys]
        for values, r in result.cells:
            i, j = ys.index(values[0]), xs_v.index(values[1])
            grid[i][j] += r.tally.win(side).value
            counts[i][j] += 1
        grid = [[g / max(1, c) for g, c in zip(row, crow, strict=True)] for row, crow in zip(grid, counts, strict=True)]
        image = ax.imshow(grid, origin="lower", vmin=0, vmax=1, cmap="RdYlBu", aspect="auto")
        for i in range(len(ys)):
            for j in range(len(xs_v)):
                ax.text(j, i, f"{grid[i][j]:.2f}", ha="center", va="center", fontsize="small")
        ax.set_xticks(range(len(xs_v)), [str(v) for v in xs_v])
        ax.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax.set_xlabel(path_x)
        ax.set_ylabel(path_y)
        fig.colorbar(image, ax=ax, label=f"P({side} wins)")
    partial = " (PARTIAL)" if result.partial else ""
    ax.set_title(f"{result.title}{partial}")
    return fig


def save(fig: Figure, path: str) -> None:
    if not path.lower().endswith(FORMATS):
        raise InputError(
            f"cannot write a plot to {path!r}", expected="a file name ending in .svg or .png", where="--plot"
        )
    try:
        fig.savefig(path)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}", expected="a writable path", where="--plot") from None
