"""The one place colours live: ``class:`` names -> a prompt-toolkit Style.

Nothing relies on colour alone: suits are glyphs or letters, lit commands carry
brackets around their hotkey, canastas are written out.  With ``NO_COLOR`` (or
``--no-color``) only bold, reverse and underline remain.
"""

from __future__ import annotations

import locale
import os
import sys
from typing import NamedTuple

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style


class Glyphs(NamedTuple):
    suits: str        # clubs, diamonds, hearts, spades
    light_on: str
    light_off: str
    star: str
    hline: str
    vline: str
    corners: str      # top-left, top-right, bottom-left, bottom-right
    cursor: str
    new: str
    left_more: str
    right_more: str
    dash: str
    ellipsis: str


UNICODE = Glyphs("♣♦♥♠", "●", "○", "★", "─", "│", "┌┐└┘", "▲", "+", "‹", "›", "—", "…")
ASCII = Glyphs("cdhs", "*", "o", "*", "-", "|", "++++", "^", "+", "<", ">", "-", "...")


def wants_ascii() -> bool:
    """Suit symbols need a UTF-8 terminal; fall back to letters otherwise."""
    enc = (getattr(sys.stdout, "encoding", None) or locale.getpreferredencoding(False) or "").lower()
    lang = " ".join(os.environ.get(v, "") for v in ("LC_ALL", "LC_CTYPE", "LANG")).lower()
    if "utf" not in enc.replace("-", "") and "utf" not in lang.replace("-", ""):
        return True
    return False


def no_color() -> bool:
    """https://no-color.org: a non-empty NO_COLOR turns colour off."""
    return bool(os.environ.get("NO_COLOR"))


COLOR_MODES = ("auto", "always", "never")


def color_depth(mode: str = "auto") -> ColorDepth | None:
    """The colour depth for ``--color MODE`` (None: let prompt-toolkit decide from TERM).

    * ``auto``: colours unless NO_COLOR is set (prompt-toolkit also goes monochrome for TERM=dumb);
    * ``never``: monochrome (bold, reverse, underline);
    * ``always``: colours even with NO_COLOR set or TERM=dumb: $PROMPT_TOOLKIT_COLOR_DEPTH if
      set, 16 colours on the Linux console, else 256 colours.
    """
    if mode == "never" or (mode == "auto" and no_color()):
        return ColorDepth.DEPTH_1_BIT
    if mode == "always":
        env = os.environ.get("PROMPT_TOOLKIT_COLOR_DEPTH", "")
        if env in {d.value for d in ColorDepth} and env != ColorDepth.DEPTH_1_BIT.value:
            return ColorDepth(env)
        if os.environ.get("TERM", "") in ("linux", "eterm-color"):
            return ColorDepth.DEPTH_4_BIT
        return ColorDepth.DEPTH_8_BIT
    return None


_COLOUR = {
    "header": "reverse bold",
    "light.on": "bold #00d700",
    "light.off": "",
    "name": "bold",
    "name.active": "bold underline",
    "dim": "#808080",
    "heading": "bold #5f87d7",
    "suit.red": "#d70000",
    "suit.black": "",
    "suit.d": "#0087ff",
    "suit.c": "#00af00",
    "wild": "bold #d7af00",
    "canasta.natural": "bold #d70000",
    "canasta.mixed": "bold",
    "frozen": "bold #d75f00",
    "cursor": "reverse",
    "selected": "bold",
    "new": "underline",
    "bar.on": "bold",
    "bar.key": "reverse bold",
    "bar.off": "#6c6c6c",
    "message": "bold",
    "box": "",
    "box.title": "bold reverse",
    "error": "bold #d70000",
    "hint": "italic",
    "count": "bold",
}

_MONO = {
    "header": "reverse bold",
    "light.on": "bold",
    "name": "bold",
    "name.active": "bold underline",
    "heading": "bold",
    "wild": "bold",
    "canasta.natural": "bold",
    "canasta.mixed": "bold",
    "frozen": "bold",
    "cursor": "reverse",
    "selected": "bold",
    "new": "underline",
    "bar.on": "bold",
    "bar.key": "reverse bold",
    "message": "bold",
    "box.title": "bold reverse",
    "error": "bold",
    "count": "bold",
}


def make_style(color: bool = True) -> Style:
    table = _COLOUR if color else _MONO
    return Style([(k, v) for k, v in table.items() if v])
