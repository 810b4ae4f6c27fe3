"""Text from outside the program (names, file names, chat, saved games) made safe for a terminal.

Anything a user or a file supplies may hold control characters: an escape sequence
would repaint or retitle another player's terminal, a newline would break the table's
layout.  Two tools:

* :func:`printable` shows such text with every control character written out
  (``\\x1b``, ``\\n``), so it can be printed anywhere and still says what it held;
* :func:`check_name` refuses a player name that holds any, or is too long.

And :func:`points`, a score as a person reads it ("1,500"), :func:`span`, a stretch of time
in words ("2 hours"), and :func:`side_name`, a side as its players know it ("ann & bob"): the
screens and the server's table both say them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .engine import Rules, player_name, team, team_name

#: Longest player name (the table's panels show names in full up to here).
NAME_MAX = 20

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _unsafe(ch: str) -> bool:
    """Control characters (C0, DEL, C1), lone surrogates, line and paragraph separators, and the
    bidirectional overrides that reorder what a terminal shows."""
    cat = unicodedata.category(ch)
    return cat in ("Cc", "Cs", "Zl", "Zp") or ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b[2J`` stays visible
    as those characters and does nothing)."""
    if not any(_unsafe(ch) for ch in text):
        return text
    out = []
    for ch in text:
        if not _unsafe(ch):
            out.append(ch)
        elif ch in _NAMED:
            out.append(_NAMED[ch])
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    return "".join(out)


class BadName(ValueError):
    """A player name that cannot be used; the message says why."""


def check_name(name: str) -> str:
    """The name with surrounding spaces removed, or BadName saying what is wrong with it."""
    if not isinstance(name, str):
        raise BadName(f"a name must be text, not {type(name).__name__}")
    clean = name.strip()
    bad = [ch for ch in clean if _unsafe(ch)]
    if bad:
        raise BadName(f"a name may not hold control characters ({printable(''.join(dict.fromkeys(bad)))})")
    if len(clean) > NAME_MAX:
        raise BadName(f"a name may be at most {NAME_MAX} characters long, not {len(clean)}")
    return clean


def points(n: int) -> str:
    """A score (a total, a target, a rating) as a person reads it, thousands grouped: "1,500",
    "12,345", "-1,250", "980".  Only for what a person reads: saves, logs, the notation, ``--json``
    and what a person types (an option's value) keep plain digits."""
    return f"{n:,}"


def span(seconds: float) -> str:
    """A stretch of time in words: ``30 days``, ``2 hours``, ``45 minutes``, ``20 s``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= 2 * size or (seconds >= size and seconds % size == 0):
            n = round(seconds / size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{round(seconds, 1):g} s" if seconds < 10 else f"{round(seconds)} s"


def side_name(t: int, rules: Rules, names: Sequence[str] | None = None, width: int = 0) -> str:
    """A side as the players know it: its players' names (``ann & Player 3``), ``Players 1 & 3``
    while nobody at it has a name of their own; cut to ``width`` (if given), each name alike."""
    seats = [s for s in range(rules.players) if team(s, rules) == t]
    if names is None or all(names[s] == player_name(s) for s in seats):
        text = team_name(t, rules)
        return text if not width or len(text) <= width else text[:width]
    parts = [names[s] for s in seats]
    text = " & ".join(parts)
    if width and len(text) > width:
        room = max(1, (width - 3 * (len(parts) - 1)) // len(parts))
        parts = [p if len(p) <= room else p[: max(1, room - 1)] + "~" for p in parts]
        text = " & ".join(parts)[:width]
    return text


__all__ = ["NAME_MAX", "BadName", "check_name", "points", "printable", "side_name", "span"]
