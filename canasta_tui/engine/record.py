"""The versioned JSON record of a match: rules, deck orders, action log and a snapshot.

Documented in ``docs/save-format.md``; a public interface that other tools and tests
write positions in.  Loading replays the log from the decks and checks the result
against the snapshot, so a record can never smuggle in an impossible position.
Pure conversions only: reading and writing files is the persistence layer's job.
"""

from __future__ import annotations

import json
from typing import Any

from .actions import parse_action
from .cards import card_text, cards_text, parse_card
from .errors import CanastaError, RulesError
from .match import MAX_HAND_ACTIONS, Match, replay
from .rules import rules_from_dict
from .state import GameState, end_text

FORMAT = "canasta-tui-save"
#: 2: the rules of issue 10 (``ask`` only when going out is possible, the pile's rest held
#: aside with ``undo_pile_allowed``, ``end`` with a turned-over stock).  Version 1 files are
#: read too: an ``ask`` the old rule allowed replays as it was played.
#: 3: Samba and Bolivia (issue 19): rule options for three packs and sequences, 162-card decks,
#: the actions ``meld 7h 8h 9h``, ``add 10h to 7h-9h`` and ``join K``, and sequences in the
#: snapshot's melds (``"h: 7h 8h 9h"``).  Versions 1 and 2 are read as before.
#: 4: actions that name the copies a meld of one rank, an add or a pile take uses (``meld 9h 9h
#: 9s``, ``add 9h``, ``pile 9h 9s``): a version 3 reader would misread or refuse them.  Earlier
#: versions are read as before (their rank-only actions mean what they meant).
VERSION = 4


class RecordError(CanastaError):
    """A record that cannot be loaded; the message says what and where."""


def snapshot(s: GameState, scores: tuple[int, ...]) -> dict[str, Any]:
    """The position in plain words, for people and for checking a replay."""
    return {
        "phase": s.phase.word,
        "dealer": s.dealer,
        "turn": s.turn,
        "actor": s.actor,
        "turn_number": s.turn_number,
        "stock": s.stock_size,
        "pile": cards_text(s.pile),
        "frozen": s.frozen,
        "hands": [cards_text(h) for h in s.hands],
        "melds": [[str(m) for m in s.team_melds(t)] for t in range(len(s.melds))],
        "red_threes": [cards_text(r) for r in s.red_threes],
        "penalties": list(s.penalties),
        "scores": list(scores),
        "end_reason": end_text(s.end_reason),
    }


def to_dict(m: Match, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": m.rules.to_dict(),
        "first_dealer": m.first_dealer,
        "hands": [{"deck": cards_text(d), "actions": [str(a) for a in log]} for d, log in zip(m.decks, m.log, strict=False)],
        "snapshot": snapshot(m.state, m.scores),
        "meta": meta or {},
    }


def dumps(m: Match, meta: dict[str, Any] | None = None) -> str:
    return json.dumps(to_dict(m, meta), indent=1, ensure_ascii=False) + "\n"


def from_dict(data: Any, check_snapshot: bool = True) -> Match:
    """Rebuild a match from a record; raises RecordError saying what is wrong."""
    if not isinstance(data, dict):
        raise RecordError("not a Canasta save: the top level must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a Canasta save: format is {data.get('format')!r}, expected {FORMAT!r}")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError("the save has no version number")
    if version > VERSION:
        raise RecordError(f"the save is format version {version}, newer than this program reads ({VERSION}): "
                          "update canasta to load it")
    if version < 1:
        raise RecordError(f"unknown save format version {version}")
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise RecordError("the save's rules must be a table of rule options")
    try:
        rules = rules_from_dict(rules_data)
    except (RulesError, TypeError, ValueError) as exc:
        raise RecordError(f"the save's rules cannot be used: {exc}") from None
    first = data.get("first_dealer", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < rules.players:
        raise RecordError(f"first_dealer must be a seat from 0 to {rules.players - 1}")
    hands = data.get("hands")
    if hands is None or hands == []:
        raise RecordError("the save has no hands")
    if not isinstance(hands, list):
        raise RecordError("the save's hands must be a list of {deck, actions} objects")
    decks = []
    logs = []
    for i, h in enumerate(hands, 1):
        if not isinstance(h, dict) or not isinstance(h.get("deck"), str) or not isinstance(h.get("actions"), list):
            raise RecordError(f"hand {i}: expected an object with a deck (text) and actions (a list)")
        if len(h["actions"]) > MAX_HAND_ACTIONS:
            # Refused unread: a hand never needs this many, and replaying them would take long.
            raise RecordError(f"hand {i} has {len(h['actions'])} actions; a hand holds at most {MAX_HAND_ACTIONS}")
        try:
            decks.append(tuple(parse_card(w) for w in h["deck"].split()))
        except ValueError as exc:
            raise RecordError(f"hand {i}: bad deck: {exc}") from None
        actions = []
        for j, text in enumerate(h["actions"], 1):
            if not isinstance(text, str):
                raise RecordError(f"hand {i}, action {j}: expected text, got {text!r}")
            try:
                actions.append(parse_action(text))
            except CanastaError as exc:
                raise RecordError(f"hand {i}, action {j}: {exc}") from None
        logs.append(tuple(actions))
    try:
        # A game begun before format 2 keeps its old asks when saved again (and one begun before
        # melds down to a card that cannot go were refused keeps those), so they are read
        # whatever the version says.
        m = replay(rules, decks, logs, first, earlier_rules=True)
    except CanastaError as exc:
        raise RecordError(f"the action log does not replay: {exc}") from None
    if check_snapshot and "snapshot" in data:
        got = snapshot(m.state, m.scores)
        want = data["snapshot"]
        if version == 1 and isinstance(want, dict):
            # Format 1 was written under the scoring of its time (a red three left in a hand as a
            # card, the canasta bonus kept without the canastas required): the replay under
            # today's rules is what is played on, so those totals may differ; nothing else may.
            want = want | {k: got[k] for k in ("scores", "penalties") if k in want}
        if got != want:
            raise RecordError("the snapshot disagrees with the replayed game (" + _differences(got, want) + ")")
    return m


def _differences(got: dict[str, Any], want: Any) -> str:
    """The snapshot's fields that differ from the replay, then those it lacks or adds."""
    if not isinstance(want, dict):
        return ", ".join(got)
    parts = [", ".join(k for k in got if k in want and want[k] != got[k])]
    missing = [k for k in got if k not in want]
    if missing:
        parts.append("missing: " + ", ".join(missing))
    extra = [k if len(k) <= 30 else k[:30] + "..." for k in want if k not in got]
    if extra:
        parts.append("unknown: " + ", ".join(repr(k) for k in extra[:5]) + (", ..." if len(extra) > 5 else ""))
    return "; ".join(p for p in parts if p)


def loads(text: str) -> Match:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    return from_dict(data)


__all__ = ["FORMAT", "VERSION", "RecordError", "card_text", "dumps", "from_dict", "loads", "snapshot", "to_dict"]
