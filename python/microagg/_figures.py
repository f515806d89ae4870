"""Figures from Python in the CLI's style: ``Result.plot`` and ``report``.

The style (size preset, font size, line width, marker size, palette) comes from the Rust
library (``_core.figure_style``), the one ``microagg report --style`` draws with; ``report``
calls the CLI's report code itself, so its table and figures are the CLI's.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Union

from . import _core

STYLES = ("one-column", "two-columns", "slide")


def show_progress(progress: Optional[bool]) -> bool:
    """Progress lines on stderr: when asked, or by default when stderr is a terminal."""
    if progress is None:
        try:
            return sys.stderr.isatty()
        except (AttributeError, ValueError):
            return False
    return bool(progress)


def style(name: str = "one-column", font_size: Optional[float] = None) -> dict:
    """The figure style of a preset: ``width_in``, ``font_pt``, ``line_pt``, ``marker_pt``
    and ``palette`` (Okabe-Ito), as ``microagg report --style NAME --font-size PT``."""
    return json.loads(_core.figure_style(name, font_size))


def _rc(st: dict) -> dict:
    return {
        "font.size": st["font_pt"],
        "axes.titlesize": st["font_pt"] + 1,
        "axes.labelsize": st["font_pt"] + 1,
        "xtick.labelsize": st["font_pt"],
        "ytick.labelsize": st["font_pt"],
        "legend.fontsize": st["font_pt"],
        "lines.linewidth": st["line_pt"],
        "lines.markersize": st["marker_pt"],
        "axes.spines.top": False,
        "axes.spines.right": False,
    }


def plot_result(result: Any, ax: Any = None, style_name: str = "one-column", font_size: Optional[float] = None) -> Any:
    """``Result.plot``: best IL so far against time (log axis), each stage's end marked, the
    lower bound as a dashed black line; legend below the axes; no title (the caption is the
    paper's)."""
    import matplotlib.pyplot as plt

    from matplotlib import ticker

    st = style(style_name, font_size)
    palette = st["palette"]
    with plt.rc_context(_rc(st)):
        if ax is None:
            # Margins in inches (they hold text, so they grow with it), the plot the rest.
            f = st["font_pt"] / 9.0
            w, h = st["width_in"], 2.9 * f
            left, right, bottom, top = 0.65 * f, 0.15, 1.05 * f, 0.12
            fig = plt.figure(figsize=(w, h))
            ax = fig.add_axes((left / w, bottom / h, 1 - (left + right) / w, 1 - (bottom + top) / h))
        lw, ms = st["line_pt"], st["marker_pt"]
        t = 0.0
        ends = []
        for _, s in result.stages.iterrows():
            t += float(s["seconds"])
            ends.append((max(t, 1e-6), float(s["il"]), str(s["name"])))
        # Best IL so far, as the CLI draws a run: stage ends and trace points, running minimum.
        pts = sorted([(x, il) for x, il, _ in ends]
                     + [(max(float(a), 1e-6), float(b)) for a, b in zip(result.trace["seconds"], result.trace["best_il"])])
        xs, ys, best = [], [], float("inf")
        for x, il in pts:
            best = min(best, il)
            xs.append(x)
            ys.append(best)
        if len(xs) > 1:
            ax.step(xs, ys, where="post", color=palette[0], linewidth=lw, label="best IL so far")
        markers = "osD^v<>"
        for i, (x, il, name) in enumerate(ends):
            ax.plot([x], [il], linestyle="none", marker=markers[i % len(markers)], markersize=ms,
                    color=palette[(i + 1) % len(palette)], label=f"end of {name}")
        if result.il_lower_bound is not None:
            method = result.bound_method or "bound"
            ax.axhline(result.il_lower_bound, color="black", linestyle="--", linewidth=lw,
                       label=f"certified LB ({method})" if result.bound_certified else f"lower bound ({method})")
        ax.set_xscale("log")
        # Plain tick labels (0.001, 0.1, 10), as the CLI's figures.
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.set_xlabel("time (s)")
        ax.set_ylabel("best IL so far (%)")
        ax.grid(True, color="black", alpha=0.12, linewidth=0.5)
        # Below the axes: never over the bound line or the curve.
        ax.legend(loc="upper center", bbox_to_anchor=(0.45, -0.3), ncol=2, frameon=False)
    return ax


def _records_dir(records: Any, tmp: str) -> str:
    """A folder holding the records: ``records`` is a folder, a list of record dicts, or the
    DataFrame ``experiment()`` returns (its ``attrs["records"]``)."""
    if isinstance(records, (str, os.PathLike)):
        return os.fspath(records)
    if hasattr(records, "attrs") and "records" in getattr(records, "attrs", {}):
        records = records.attrs["records"]
    if not isinstance(records, (list, tuple)):
        raise TypeError("report(records): a results folder, a list of run records, or the DataFrame of experiment()")
    with open(os.path.join(tmp, "records.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    return tmp


def report(
    records: Any,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    format: str = "md",
    columns: Optional[Sequence[str]] = None,
    style: str = "one-column",
    font_size: Optional[float] = None,
    title: bool = False,
) -> dict:
    """The CLI's ``microagg report``: the table with the Wilcoxon tests after it and every
    figure (SVG, PNG, PDF) of the records, drawn by the same code.

    ``records``: a results folder (figures go to ``FOLDER/figures``), a list of run records
    or the DataFrame ``experiment()`` returns (figures go to ``out/figures``, ``out`` a new
    temporary folder when not given). ``format``: ``md``, ``csv`` or ``latex``; ``columns``:
    table columns to keep (a wrong name lists the available ones); ``style``:
    ``one-column``, ``two-columns`` or ``slide``; ``font_size`` in points; ``title``: draw a
    title over each figure.

    Returns a dict: ``table`` (text), ``figures`` (paths), ``notes`` (figures not drawn and
    why) and ``figures_error`` (None, or why the figures could not be written)."""
    if isinstance(records, (str, os.PathLike)):
        folder = os.fspath(records)
    else:
        folder = os.fspath(out) if out is not None else tempfile.mkdtemp(prefix="microagg-report-")
        os.makedirs(folder, exist_ok=True)
        folder = _records_dir(records, folder)
    cols = None if columns is None else [str(c) for c in columns]
    return json.loads(_core.report(folder, format, cols, style, font_size, bool(title)))
