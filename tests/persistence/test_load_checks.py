"""Loading checks everything before it changes anything (issue 10, items 1 and 2).

F3 said "Not loaded (the game goes on as it was)" while ``Session.replace_match`` (today
``Table.replace_match``) had already put in the file's rules and seats: a 2-player file with an
unknown computer level then crashed the next paint (IndexError in ``session.name``), a 4-player
one played on and autosaved the bad level, after which every ``--resume`` crashed.  What a save's ``meta`` says about its seats is
now checked first; what cannot be used (an unknown level, a name with a lone surrogate) is
replaced by the table's value with a notice, and the swap happens in one step.

``--load FILE`` overwrote an unfinished autosave with no backup, even when the loaded match
was already over: now the unfinished game is kept (and the player told where), and a finished
match is refused before anything is touched.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from canasta_tui import cli
from canasta_tui.engine import Match, record
from canasta_tui.persistence import Autosaver, find_autosave, load_file, paths, write_save
from canasta_tui.persistence.selfplay import game_over, start, step
from canasta_tui.play.local import attach
from canasta_tui.play.start import start_table
from canasta_tui.presets import load_rules
from canasta_tui.table import COMPUTER, LOCAL, Seat, Table, local_link, seats_for
from canasta_tui.ui.canvas import DEFAULT_OPTIONS
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import LoadList

FOUR = ["human", "computer", "computer", "computer"]


@pytest.fixture(autouse=True)
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("canasta_tui.cli.has_terminal", lambda: True)


def two_player_match(seed: int = 3, actions: int = 4) -> Match:
    s = Table(load_rules("two-player"), seats_for(0, "beginner")[:2], seed)
    for _ in range(actions):
        s.step()
    return s.match


def four_player_match(seed: int = 3) -> Match:
    return step(step(start(seed), seed), seed)


def save(name: str, match: Match, meta: dict[str, Any]) -> Path:
    return write_save(paths.saves_dir() / f"{name}.json", match, meta)


def save_by_hand(path: Path, match: Match, meta: dict[str, Any]) -> Path:
    """A save as a text editor may leave it: JSON escapes may spell text that is not Unicode ("\\ud800")."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record.to_dict(match, meta)), encoding="ascii")
    return path


def table(seed: int = 5) -> Controller:
    s = Table(load_rules("classic"), seats_for(1, "advanced"), seed)
    ctl = Controller(local_link(s), attach(s, "game-test").files())
    while not ctl.client.my_turn():
        s.step()
    return ctl


def table_of(ctl: Controller) -> Table:
    t = ctl.client.link._table
    assert isinstance(t, Table)
    return t


def f3_load(ctl: Controller, name: str) -> None:
    ctl.key("f3")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, LoadList)
    ctl.client.dialog.page = [i.name for i in ctl.client.dialog.items].index(name)
    ctl.key("enter")


def told(ctl: Controller) -> str:
    """What the player was told (the message after loading holds every notice)."""
    return "\n".join(ctl.message)


# --------------------------------------------------------------------------- item 2

def test_a_failed_swap_leaves_the_table_exactly_as_it_was() -> None:
    """replace_match put in the new rules and seats, then failed on the level: nothing may change."""
    ctl = table()
    s = table_of(ctl)
    before = (s.rules, s.seats, s.match, s.computers, list(s.events))
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        s.replace_match(two_player_match(), [Seat(LOCAL, "", "advanced"), Seat(COMPUTER, "", "grandmaster")])
    assert (s.rules, s.seats, s.match, s.computers, list(s.events)) == before
    ctl.paint(80, 24, DEFAULT_OPTIONS)                       # the next paint works


def test_f3_two_player_file_with_unknown_levels_loads_at_the_tables_level_and_says_so() -> None:
    """A 2-player file with levels "grandmaster" and 7: F3 said "Not loaded", then the next paint
    raised IndexError in session.name.  Now it loads, at this table's level, with a notice."""
    m = two_player_match()
    save("odd", m, {"seats": ["human", "computer"], "levels": ["advanced", "grandmaster"], "names": ["Ann", ""]})
    save("numbers", m, {"seats": ["human", "computer"], "levels": [1, 7], "names": ["", ""]})
    for name, shown in (("odd", "'grandmaster'"), ("numbers", "7")):
        ctl = table()
        f3_load(ctl, name)
        s = table_of(ctl)
        assert ctl.message[0] == f"Loaded {name}: hand 1"
        assert s.match.state == m.state and len(s.seats) == 2
        assert [(x.human, x.level) for x in s.seats] == [(True, "advanced"), (False, "advanced")]
        assert f"Player 2's level in the save ({shown}) is not a computer level" in told(ctl)
        assert "plays at advanced" in told(ctl)
        assert "Player 2" in ctl.paint(80, 24, DEFAULT_OPTIONS).text()
        # The autosave now holds a game every later --resume can start.
        assert load_file(paths.autosave_path()).meta["levels"] == ["advanced", "advanced"]


def test_f3_name_with_a_lone_surrogate_or_escape_is_replaced_and_the_table_still_paints() -> None:
    m = four_player_match()
    save_by_hand(paths.saves_dir() / "names.json", m,
                 {"seats": FOUR, "levels": ["expert"] * 4, "names": ["\ud800", "\x1b[2J", "Bo", "x" * 30]})
    ctl = table()
    f3_load(ctl, "names")
    s = table_of(ctl)
    assert [x.name for x in s.seats] == ["", "", "Bo", ""]
    assert [x.level for x in s.seats] == ["expert"] * 4
    log = told(ctl)
    assert "Player 1's name in the save cannot be used: a name may not hold control characters (\\ud800)" in log
    assert "Player 2's name in the save cannot be used: a name may not hold control characters (\\x1b)" in log
    assert "Player 4's name in the save cannot be used: a name may be at most 20 characters long" in log
    assert "\x1b" not in log
    ctl.paint(80, 24, DEFAULT_OPTIONS).text().encode("utf-8")       # nothing unencodable reaches the terminal


def test_f3_four_player_file_with_a_bad_level_never_autosaves_it_and_resume_works() -> None:
    """A 4-player file with "grandmaster" played on and autosaved the bad level, after which
    every --resume crashed."""
    save("gm", four_player_match(), {"seats": FOUR, "levels": ["advanced", "grandmaster", "expert", "Beginner"]})
    ctl = table()
    f3_load(ctl, "gm")
    assert [x.level for x in table_of(ctl).seats] == ["advanced", "advanced", "expert", "beginner"]
    assert load_file(paths.autosave_path()).meta["levels"] == ["advanced", "advanced", "expert", "beginner"]


@pytest.mark.parametrize("meta", [
    {"seats": FOUR, "levels": ["advanced", "grandmaster", "expert", "advanced"]},
    {"seats": FOUR, "levels": [1, 2, 3, 4], "names": ["\ud800", "", "", ""]},
    {"seats": ["human", "robot", "computer", "computer"], "levels": ["x"] * 4},
    {"seats": FOUR, "levels": "expert", "names": {"a": 1}},
])
def test_resume_of_an_autosave_with_bad_seats_starts_and_says_what_it_replaced(meta: dict[str, Any]) -> None:
    """--resume crashed (ValueError: unknown level) on an autosave holding a bad level."""
    m = four_player_match()
    save_by_hand(paths.autosave_path(), m, meta)
    s = start_table(load_rules("classic"), resume=True, new=False, load=None, players=1, seed=1,
                    level="beginner", name="Ann").table
    assert s.match.state == m.state
    assert len(s.seats) == 4 and all(x.level in ("beginner", "advanced", "expert") for x in s.seats)
    assert sorted(s.computers) == [i for i, x in enumerate(s.seats) if not x.human]


# --------------------------------------------------------------------------- item 1

def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def launched(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, dict[str, Any]]:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("canasta_tui.ui.launch.launch", lambda rules, **kw: seen.update(kw))
    r = CliRunner().invoke(cli.main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output, seen


def finished() -> Match:
    m = start(2)
    rules = m.rules.replace(target_score=50)
    m = m._replace(rules=rules, state=m.state._replace(rules=rules))
    while not game_over(m):
        m = step(m, 2)
    return m


def test_resume_notices_reach_the_player_and_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    Autosaver({"seats": FOUR, "levels": ["advanced", "grandmaster", "expert", "advanced"]}).save(four_player_match())
    code, out, seen = launched(monkeypatch, "--resume")
    assert code == 0, out
    notice = "Player 2's level in the save ('grandmaster') is not a computer level"
    assert notice in out
    assert any(notice in n for n in seen["files"].notices())
    assert [x.level for x in seen["table"].seats] == ["advanced", "advanced", "expert", "advanced"]


def unfinished_autosave() -> Match:
    m = step(step(step(start(8), 8), 8), 8)
    Autosaver({"seats": FOUR}).save(m)
    return m


def test_load_keeps_the_unfinished_autosave_and_says_where(monkeypatch: pytest.MonkeyPatch) -> None:
    """--load FILE overwrote the unfinished autosave with no backup."""
    unfinished = unfinished_autosave()
    other = four_player_match(5)
    path = save("other", other, {"seats": FOUR})
    code, out, seen = launched(monkeypatch, "--load", str(path))
    assert code == 0, out
    [kept] = paths.state_dir().glob("autosave.backup-*.json")
    assert f"The unfinished game in the autosave was kept as {kept} (canasta --load {kept} plays it on)." in out
    assert load_file(kept).match.state == unfinished.state
    assert load_file(paths.autosave_path()).match.state == other.state == seen["table"].match.state


def test_load_of_a_finished_match_says_it_is_over_and_touches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished match given to --load was "played", overwriting the unfinished autosave.  A player
    who loads a finished match learns it is over (who won, the score); nothing is started or written."""
    unfinished_autosave()
    before = digest(paths.autosave_path())
    m = finished()
    path = save("done", m, {"seats": FOUR})
    code, out, seen = launched(monkeypatch, "--load", str(path))
    assert code == 1 and seen == {}
    totals = " to ".join(f"{s:,}" for s in m.scores)
    assert f"{path}: this match is over (Players " in out and f" won, {totals}); there is nothing to play on" in out
    assert digest(paths.autosave_path()) == before
    assert not list(paths.state_dir().glob("autosave.backup-*.json"))


def test_load_of_the_autosave_itself_plays_it_on_without_a_backup(monkeypatch: pytest.MonkeyPatch) -> None:
    unfinished = unfinished_autosave()
    code, out, seen = launched(monkeypatch, "--load", str(paths.autosave_path()))
    assert code == 0 and "kept as" not in out
    assert seen["table"].match.state == unfinished.state
    assert not list(paths.state_dir().glob("autosave.backup-*.json"))
    assert find_autosave().game is not None


def test_load_with_a_finished_autosave_replaces_it_without_a_backup(monkeypatch: pytest.MonkeyPatch) -> None:
    Autosaver({"seats": FOUR}).save(finished())
    path = save("other", four_player_match(5), {"seats": FOUR})
    code, out, _ = launched(monkeypatch, "--load", str(path))
    assert code == 0 and "kept as" not in out
    assert not list(paths.state_dir().glob("autosave.backup-*.json"))


def test_text_that_is_not_unicode_is_a_save_error_not_a_crash(tmp_path: Path) -> None:
    """A name holding a lone surrogate (loaded by hand, or an undecodable byte on the command line)
    made the autosave's write raise UnicodeEncodeError out of the game."""
    saver = Autosaver({"names": ["\udcff"]}, path=tmp_path / "autosave.json")
    assert saver.save(four_player_match()) is False
    assert saver.error is not None and "\\udcff, which is not Unicode text" in saver.error
    assert list(tmp_path.iterdir()) == []


def test_f3_keeps_the_game_being_played_where_f3_lists_it() -> None:
    """As --load and --new keep the unfinished game, so does F3: the autosave follows the loaded game,
    and the game being played is saved among the named saves first (the player is told under what name)."""
    other = four_player_match(6)
    save("other", other, {"seats": FOUR})
    ctl = table()
    ctl.key("d")
    playing = table_of(ctl).match
    f3_load(ctl, "other")
    assert table_of(ctl).match.state == other.state
    [kept] = paths.saves_dir().glob("kept-*.json")
    assert load_file(kept).match.state == playing.state
    assert f"The game you were playing is saved as {kept.stem} (F3 lists it)." in told(ctl)
    ctl.key("x")
    ctl.key("f3")
    assert ctl.client.dialog is not None and kept.stem in [i.name for i in ctl.client.dialog.items]


def test_f3_before_any_play_or_of_a_broken_file_keeps_nothing() -> None:
    save("other", four_player_match(6), {"seats": FOUR})
    ctl = table()
    assert not any(table_of(ctl).match.log)          # Player 1 leads: nothing played yet, nothing to keep
    f3_load(ctl, "other")
    assert not list(paths.saves_dir().glob("kept-*.json"))
    ctl.key("x")
    ctl.key("d")
    (paths.saves_dir() / "broken.json").write_text("{", encoding="utf-8")
    f3_load(ctl, "broken")
    assert ctl.message[0] == "Not loaded (the game goes on as it was):"
    assert not list(paths.saves_dir().glob("kept-*.json"))
