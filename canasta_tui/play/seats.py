"""Who sits where at a table started here: a new game's seating, and the seats a save was made with."""

from __future__ import annotations

from collections.abc import Sequence

from ..ai import ALL_LEVELS
from ..engine import Rules, player_name
from ..persistence.saves import LoadedGame
from ..table import COMPUTER, LOCAL, Seat
from ..text import BadName, check_name, printable

#: Who is human at a partnership table, by the number of people (the DOS game's "One Human
#: Player" is Player 1; its "Two Human Players" adds Player 4; three and four fill the rest).
HUMANS: dict[int, tuple[int, ...]] = {0: (), 1: (0,), 2: (0, 3), 3: (0, 2, 3), 4: (0, 1, 2, 3)}


def seating(humans: int, rules: Rules, level: str, names: Sequence[str]) -> tuple[Seat, ...]:
    """The seats of a new game with ``humans`` people: partners as the DOS game seats them, or,
    without partnerships, Players 1 to N."""
    who = HUMANS[min(humans, 4)] if rules.partnerships else tuple(range(min(humans, rules.players)))
    named = (list(names) + [""] * 4)[:4]
    return tuple(Seat(LOCAL, named[s], level) if s in who else Seat(COMPUTER, "", level)
                 for s in range(rules.players))


def _shown(value: object) -> str:
    """A value from a file, as a message may quote it: escaped, and short."""
    text = repr(value)
    return printable(text if len(text) <= 40 else text[:37] + "...")


def _column(meta: dict[str, object], key: str, n: int, notices: list[str]) -> list[object]:
    """``meta[key]`` as one entry per seat (None where the save says nothing)."""
    value = meta.get(key)
    if isinstance(value, list) and len(value) == n:
        return value
    if value is not None:
        notices.append(f"The save's {key} ({_shown(value)}) are not one per player; they are not used.")
    return [None] * n


def saved_seats(game: LoadedGame, fallback: Sequence[Seat], source: str) -> tuple[tuple[Seat, ...], list[str]]:
    """The seats ``game`` was saved with, checked, and notices for what could not be used.

    A save's ``meta`` (who is human, the computers' levels, the names) is not part of the
    game the engine replays and checks, so nothing in it is trusted: every value is checked
    here, before anything is built from it, and one that cannot be used is replaced by the
    seat's value in ``fallback`` (the seats ``source``, "the command line" or "this table",
    gives), with a notice that says what and why.  The game itself is never refused for it:
    a label should not cost a good game.
    """
    n = game.match.rules.players
    fb = list(fallback)[:n] + [Seat(COMPUTER)] * max(0, n - len(fallback))
    meta = game.meta
    kinds = meta.get("seats")
    if kinds is None:
        return tuple(fb), []
    notices: list[str] = []
    if not (isinstance(kinds, list) and len(kinds) == n and all(k in ("human", "computer", "remote") for k in kinds)):
        notices.append(f"The save's seats ({_shown(kinds)}) are not {n} of \"human\" or \"computer\"; "
                       f"the players sit as {source} has them.")
        return tuple(fb), notices
    levels = _column(meta, "levels", n, notices)
    names = _column(meta, "names", n, notices)
    seats = []
    for i, kind in enumerate(kinds):
        who = player_name(i)
        human = kind != "computer"     # a seat played over SSH is a human here too
        level = fb[i].level
        saved = levels[i]
        if isinstance(saved, str) and saved.strip().lower() in ALL_LEVELS:
            level = saved.strip().lower()
        elif saved not in (None, "") and not human:   # a human's level is not used: no need to say
            notices.append(f"{who}'s level in the save ({_shown(saved)}) is not a computer level "
                           f"({', '.join(ALL_LEVELS)}); {who} plays at {level}.")
        name = ""
        if names[i] not in (None, ""):
            try:
                name = check_name(names[i])  # type: ignore[arg-type]   # checked: anything from a file
            except BadName as exc:
                notices.append(f"{who}'s name in the save cannot be used: {exc}; {who} is called {who}.")
        seats.append(Seat(LOCAL if human else COMPUTER, name, level))
    return tuple(seats), notices


def seats_of_save(game: LoadedGame, current: Sequence[Seat]) -> tuple[tuple[Seat, ...], list[str]]:
    """F3: the seats a loaded game was saved with (the current seats fill what the save cannot give)."""
    return saved_seats(game, current, "this table")


__all__ = ["HUMANS", "saved_seats", "seating", "seats_of_save"]
