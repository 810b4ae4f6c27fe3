"""What the cluster's tests read of a table's screen."""

from __future__ import annotations

import re

from canasta_tui.ui.render import table_layout


def public_part(screen: str) -> str:
    """What every player of a table sees alike on an 80x24 screen: the title line (the hand and the
    scores), the four seats' boxes (whose cards count, melds, red threes, scores; "you" read as any
    person), stock, pile and upcard, and the latest move (the log's window above it scrolls as each
    screen's own moves coalesce, so it is left out)."""
    lines = screen.split("\n")
    if len(lines) < 24:
        return ""
    layout = table_layout(80, 24)
    c = layout.centre
    top = next((i for i, line in enumerate(lines) if "─ log ─" in line), layout.log_row)
    kept = [line if i < top else line[:c.x] + " " * c.w + line[c.x + c.w:] for i, line in enumerate(lines[:layout.log_row])]
    kept.append(lines[layout.log_row][:60])
    return "\n".join(re.sub(" +", " ", line.replace("you ✓", "human ✓")).strip() for line in kept)


def stock_of(screen: str) -> int | None:
    """The stock's count a table's screen shows, if it shows one."""
    m = re.search(r"Stock +(\d+)", screen)
    return int(m.group(1)) if m else None
