"""The chart of the filing PDF: win and hold by table. The one place the report's figures become
floats, to be drawn."""

import io
from typing import Any


def win_and_hold_png(tables: list[dict[str, Any]], *, expected_hold_bp: tuple[int, int]) -> bytes:
    """Win (bars) and hold % (points, the expected range shaded) by table, drawn with matplotlib's
    Agg canvas (no pyplot, no display, no global state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    several_shifts = len({t["shift"] for t in tables}) > 1
    names = [f"{t['table']['name']} {t['shift']}" if several_shifts else t["table"]["name"] for t in tables]
    wins = [(t["win_cents"] or 0) / 100 for t in tables]
    holds = [t["hold_bp"] / 100 if t["hold_bp"] is not None else float("nan") for t in tables]
    figure = Figure(figsize=(10, 3.6), dpi=110)
    FigureCanvasAgg(figure)
    axis = figure.add_subplot(1, 1, 1)
    positions = list(range(len(names)))
    axis.bar(positions, wins, color=["#2e7d32" if w >= 0 else "#c62828" for w in wins], label="win ($)")
    axis.set_ylabel("win ($)")
    axis.set_xticks(
        positions, names, rotation=45 if len(names) > 8 else 0, ha="right" if len(names) > 8 else "center"
    )
    axis.axhline(0, color="#555555", linewidth=0.8)
    hold_axis = axis.twinx()
    low, high = expected_hold_bp
    hold_axis.axhspan(low / 100, high / 100, color="#1565c0", alpha=0.08, label="expected hold")
    hold_axis.plot(positions, holds, "o", color="#1565c0", label="hold %")
    hold_axis.set_ylabel("hold (%)")
    axis.set_title("Win and hold by table")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
