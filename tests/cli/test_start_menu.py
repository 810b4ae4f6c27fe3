"""Issue 12: ``canasta`` with no option that says what to play opens the start menu; ``--players``
and the other play options still start play directly; ``canasta --version``."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from canasta_tui import cli
from canasta_tui.persistence import Autosaver
from canasta_tui.persistence.selfplay import start, step


def launched(monkeypatch: pytest.MonkeyPatch, *args: str, input: str | None = None) -> tuple[dict[str, Any], str]:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("canasta_tui.ui.launch.launch", lambda rules, **kw: seen.update(kw))
    r = CliRunner().invoke(cli.main, list(args), input=input)
    assert r.exit_code == 0, r.output
    return seen, r.output


def test_version_is_the_package_s() -> None:
    from importlib.metadata import version
    r = CliRunner().invoke(cli.main, ["--version"])
    assert r.exit_code == 0 and r.output == f"canasta {version('canasta-tui')}\n"


@pytest.mark.parametrize("args", [(), ("--delay", "0"), ("--ascii", "--sort", "suit"), ("--name", "Ann")])
def test_without_an_option_that_says_what_to_play_the_menu_comes_first(
        monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]) -> None:
    seen, _ = launched(monkeypatch, *args)
    assert seen["table"] is None and seen["home"] is not None
    assert seen["settings"] is seen["home"].settings and seen["stats"] is seen["home"].stats
    if "--name" in args:
        assert seen["home"].names()[0] == "Ann"


@pytest.mark.parametrize("args", [("--players", "2"), ("--seed", "3"), ("--level", "expert"),
                                  ("--rules", "windows"), ("--new",), ("--resume",)])
def test_the_play_options_start_play_directly(monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]) -> None:
    seen, _ = launched(monkeypatch, *args)
    table = seen["table"]
    assert table is not None and [p.table for p in seen["home"].played] == [table]
    if args[0] == "--players":
        assert [s.human for s in table.seats] == [True, False, False, True]


def test_an_unfinished_game_is_a_menu_choice_not_a_question_before_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the menu, canasta asked 'Resume the unfinished game?' on the terminal, before the
    app started; now Resume is the menu's first line."""
    m = step(step(start(1), 1), 1)
    Autosaver({"seats": ["human", "computer", "computer", "computer"]}).save(m)
    seen, out = launched(monkeypatch, input="")
    assert "Resume the unfinished game" not in out and seen["table"] is None
    assert seen["home"].unfinished() == "hand 1, 0 to 0"


def _unfinished() -> Any:
    m = step(step(start(1), 1), 1)
    Autosaver({"seats": ["human", "computer", "computer", "computer"]}).save(m)
    return m


def test_players_with_an_unfinished_game_asks_inside_the_app_not_on_the_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 #8: `canasta --players 2` asked 'Resume the unfinished game? [Y/n]' on the plain
    terminal before the full-screen app; the app asks now (y resumes it)."""
    m = _unfinished()
    seen, out = launched(monkeypatch, "--players", "2", input="")
    assert "Resume the unfinished game" not in out and "[Y/n]" not in out
    assert seen["table"] is None and seen["ask"] is not None and seen["ask"].about == "hand 1, 0 to 0"
    got = seen["ask"].answer(True)
    assert not isinstance(got, str)
    table, _files = got
    assert table.match.state == m.state and [p.table for p in seen["home"].played] == [table]


def test_answering_no_starts_the_command_line_s_game_and_keeps_the_old_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta_tui.persistence import paths

    _unfinished()
    seen, _ = launched(monkeypatch, "--players", "2", input="")
    got = seen["ask"].answer(False)
    assert not isinstance(got, str)
    table, files = got
    assert [s.human for s in table.seats] == [True, False, False, True] and table.match.hand_number == 1
    assert len(list(paths.state_dir().glob("autosave.backup-*.json"))) == 1
    assert any("kept as" in n for n in files.saver.notices)


@pytest.mark.parametrize("args", [("--players", "2", "--resume"), ("--players", "2", "--new")])
def test_resume_and_new_still_answer_it_on_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                                              args: tuple[str, ...]) -> None:
    _unfinished()
    seen, _ = launched(monkeypatch, *args)
    assert seen["table"] is not None and seen["ask"] is None
