"""The one place colours live: ``class:`` names -> a prompt-toolkit Style.

Nothing relies on colour alone: suits are glyphs or letters, lit commands carry
brackets around their hotkey, canastas are written out.  With ``NO_COLOR`` (or
``--no-color``) only bold, reverse and underline remain.
"""

from __future__ import annotations

import functools
import locale
import os
import sys
from collections.abc import Mapping
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
    # The frame of each side's quadrants: one side drawn double, the other single, so that the
    # two quadrants of a partnership read as one side without colour.
    side_frames: tuple[tuple[str, str, str], ...] = (("═", "║", "╔╗╚╝"), ("─", "│", "┌┐└┘"))
    #: Beside the name of a person a server knows by their SSH key.
    verified: str = "✓"


UNICODE = Glyphs("♣♦♥♠", "●", "○", "★", "─", "│", "┌┐└┘", "▲", "+", "‹", "›", "—", "…")
ASCII = Glyphs("cdhs", "*", "o", "*", "-", "|", "++++", "^", "+", "<", ">", "-", "...",
               (("=", "|", "++++"), ("-", ":", "....")), "+")


#: The variables that choose the locale for characters, strongest first (POSIX: LC_ALL wins over
#: LC_CTYPE, which wins over LANG; an empty value does not count).
LOCALE_VARS = ("LC_ALL", "LC_CTYPE", "LANG")


def _startup_value(var: str) -> str | None:
    """``var`` as the program was started with (Linux keeps the original environment in /proc), or
    None if it was unset; raises OSError where that cannot be read."""
    prefix = var.encode() + b"="
    with open("/proc/self/environ", "rb") as f:
        for entry in f.read().split(b"\0"):
            if entry.startswith(prefix):
                return os.fsdecode(entry[len(prefix):])
    return None


def locale_name(environ: Mapping[str, str] | None = None) -> str:
    """The locale for characters: the first of LC_ALL, LC_CTYPE, LANG that is set and not empty ("C" if none).

    Under the C locale Python rewrites LC_CTYPE to C.UTF-8 in its own environment at start
    (PEP 538) and turns on its UTF-8 mode: then the value the program was started with counts.
    """
    env = dict(os.environ if environ is None else environ)
    if environ is None and sys.flags.utf8_mode and env.get("LC_CTYPE") == "C.UTF-8":
        try:
            original = _startup_value("LC_CTYPE")
        except OSError:
            original = "C"        # UTF-8 mode came on by itself: the program started in the C locale
        if original is None:
            env.pop("LC_CTYPE")
        else:
            env["LC_CTYPE"] = original
    for var in LOCALE_VARS:
        if env.get(var):
            return env[var]
    return "C"


def locale_codeset(name: str) -> str:
    """The character set of a locale: the one its name states (``en_US.UTF-8``), else the C library's."""
    if name in ("C", "POSIX"):
        return "ANSI_X3.4-1968"
    base = name.split("@", 1)[0]
    if "." in base:
        return base.split(".", 1)[1]
    previous = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, name)
        return locale.nl_langinfo(locale.CODESET)
    except (locale.Error, AttributeError):
        return "ANSI_X3.4-1968"    # not on this system: the C library falls back to the C locale
    finally:
        locale.setlocale(locale.LC_CTYPE, previous)


def _is_utf8(codeset: str) -> bool:
    return codeset.lower().replace("-", "").replace("_", "") == "utf8"


def wants_ascii(environ: Mapping[str, str] | None = None) -> bool:
    """Suit symbols and box lines need UTF-8: letters and ASCII lines when the locale is not UTF-8
    (``LANG=C``, ``en_US.ISO-8859-1``), or when standard output cannot write UTF-8."""
    if not _is_utf8(locale_codeset(locale_name(environ))):
        return True
    encoding = getattr(sys.stdout, "encoding", None) or ""
    return bool(encoding) and not _is_utf8(encoding)


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
    "side.0": "#5f87d7",
    "side.1": "#d7875f",
    "side.0.title": "bold #5f87d7",
    "side.1.title": "bold #d7875f",
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
    "side.0.title": "bold",
    "side.1.title": "bold",
}


@functools.cache
def make_style(color: bool = True) -> Style:
    """The game's style, in colour or not: one of each for every app (a style is never changed,
    and each app's own was 250 objects more for every connection to a server)."""
    table = _COLOUR if color else _MONO
    return Style([(k, v) for k, v in table.items() if v])
