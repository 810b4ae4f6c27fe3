"""canasta config / stats / rules / --load / --new / --resume through click's CliRunner and the installed program."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_tui.cli import default_map, main
from canasta_tui.persistence import Autosaver, find_autosave, paths, stats
from canasta_tui.persistence.selfplay import game_over, start, step
from canasta_tui.play.local import attach
from canasta_tui.play.start import choose_start
from canasta_tui.table import COMPUTER, LOCAL, Seat, Table

CORPUS = Path(__file__).parent.parent / "data" / "saves"


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output


def test_config_shows_settings_and_every_path(home: Path) -> None:
    code, out = run("config")
    assert code == 0
    for key in ("rules", "level", "aggression", "delay", "four_color", "name"):
        assert key in out
    assert "settings.toml" in out and "autosave.json" in out and "canasta.db" in out
    assert f"server      {home / 'data' / 'server'}" in out     # canasta serve's host key and tables
    # Every preset in rules/ is named (Samba and Bolivia were missing), however the table wraps it.
    from canasta_tui.presets import preset_names

    words = {w.strip("(),") for w in out.replace("│", " ").replace("|", " ").split()}
    assert {"samba", "bolivia"} <= words and set(preset_names()) <= words


def test_config_set_changes_the_defaults_of_the_next_run(home: Path) -> None:
    assert run("config", "set", "level", "expert")[0] == 0
    assert run("config", "set", "deck", "ascii")[0] == 0
    assert default_map() == {"level": "expert", "ascii_": True}
    code, out = run("config", "set", "level", "godlike")
    assert code == 1 and "level must be one of beginner, advanced, expert, not 'godlike'" in out
    code, out = run("config", "set", "delay", "20000")
    assert code == 1 and "delay must be from 0 to 10000" in out
    assert run("config", "path")[1].strip() == str(paths.settings_path())


def test_load_a_broken_file_says_what_and_where_without_a_traceback() -> None:
    bad = CORPUS / "snapshot-scores.json"
    code, out = run("--load", str(bad))
    assert code == 1
    assert f"cannot load {bad}: the snapshot disagrees with the replayed game (scores)" in out
    assert "Traceback" not in out


def finished_match(seed: int = 2):  # type: ignore[no-untyped-def]
    m = start(seed)
    rules = m.rules.replace(target_score=50)
    m = m._replace(rules=rules, state=m.state._replace(rules=rules))
    while not game_over(m):
        m = step(m, seed)
    return m


def test_stats_tables_history_and_reset_with_confirmation() -> None:
    assert run("stats")[1].strip() == "No finished matches yet."
    m = finished_match()
    stats.record_match_result(m, {0: "Ann"}, "expert")
    code, out = run("stats")
    assert code == 0 and "Ann" in out and "expert" in out and "Win ratio" in out and "High scores" in out
    code, out = run("stats", "--history")
    assert code == 0 and f"{m.scores[0]:,} to {m.scores[1]:,}" in out
    code, out = run("stats", "--reset", input="n\n")
    assert "Nothing was reset" in out and stats.win_ratios() != []
    code, out = run("stats", "--reset", "--yes")
    assert code == 0 and stats.win_ratios() == [] and len(stats.history()) == 1


def test_rules_renders_the_text_and_the_preset_options() -> None:
    code, out = run("rules", "windows")
    assert code == 0
    assert "The rules of Canasta" in out and "pile_initially_frozen" in out and "true *" in out
    code, out = run("rules", "nonsense")
    assert code == 2 and "no rules preset 'nonsense'" in out


def test_rules_options_explains_every_option_from_the_installed_table() -> None:
    """Help pointed at `rules/README.md`, a file of the source tree that ``pip install .`` does not
    put anywhere a player finds it: the texts now point at ``canasta rules --options``, which
    reads the options table installed with the game (``canasta_tui/_rules`` in the wheel)."""
    from canasta_tui.engine import CLASSIC
    from canasta_tui.ui.helppages import options_lines, rules_text

    code, out = run("rules", "--options", "windows")
    assert code == 0 and "The rules of Canasta" not in out
    assert "pile_initially_frozen = true *" in out and "the pile is frozen from the deal, whatever it holds" in out
    assert all(f"\n{k} = " in out for k in CLASSIC.to_dict() if k not in ("name", "description"))
    code, out = run("rules", "windows")
    assert "rules/README.md" not in out and "canasta rules --options" in " ".join(out.split())
    assert "rules/README.md" not in rules_text()
    page = " ".join(line.text.strip() for line in options_lines(CLASSIC, "classic", 76))
    assert "the pile is frozen from the deal, whatever it holds" in page


def test_new_keeps_the_old_game_resume_takes_it_without_asking() -> None:
    m = step(step(start(1), 1), 1)
    Autosaver({"seats": ["human", "computer", "computer", "computer"]}).save(m)
    game, notices = choose_start(resume=True, new=False, load=None)
    assert game is not None and game.match.state == m.state and notices == []
    game, notices = choose_start(resume=False, new=True, load=None)
    assert game is None and "kept as" in notices[0]
    assert len(list(paths.state_dir().glob("autosave.backup-*.json"))) == 1


def test_resume_with_nothing_to_resume_says_a_new_game_starts() -> None:
    """Issue 10 #19: `canasta --resume` with nothing to resume silently started a new game."""
    game, notices = choose_start(resume=True, new=False, load=None)
    assert game is None and notices == ["There is no unfinished game to resume: a new game starts."]
    game, notices = choose_start(resume=False, new=False, load=None)
    assert game is None and notices == []


def test_the_table_is_autosaved_and_the_result_recorded_once_at_the_end() -> None:
    m = finished_match(3)
    # Replay all but the last action at a real table, then play the last one.
    from canasta_tui.engine import replay
    last = m.log[-1][-1]
    before = replay(m.rules, m.decks, (*m.log[:-1], m.log[-1][:-1]), m.first_dealer)
    seats = [Seat(LOCAL, "Ann", "expert")] + [Seat(COMPUTER, "", "expert")] * 3
    session = Table(before.rules, seats, 1, match=before)
    local = attach(session, "game-1")
    assert session.submit(session.state.actor, [last]).ok
    assert find_autosave().game is None  # finished: nothing to resume
    assert local.statistics_outcome() is None     # recorded (off the table's thread)
    [row] = stats.history()
    assert row.player == "Ann" and row.level == "expert"
    # recording the same game again is a no-op:
    assert stats.record_match_result(session.match, {0: "Ann"}, "expert", game_key="game-1") == []


def entry_point() -> str:
    exe = Path(sys.executable).with_name("canasta")
    if not exe.exists():
        pytest.skip("the canasta entry point is not installed next to this python")
    return str(exe)


def test_installed_entry_point(home: Path) -> None:
    env = dict(os.environ, CANASTA_HOME=str(home))
    r = subprocess.run([entry_point(), "--help"], capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0 and "--resume" in r.stdout and "--load FILE" in r.stdout
    r = subprocess.run([entry_point(), "--load", str(CORPUS / "truncated.json")], capture_output=True, text=True,
                       env=env, timeout=30, stdin=subprocess.DEVNULL)
    assert r.returncode == 1 and "the file ends too early" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([entry_point(), "rules", "classic"], capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0 and "INITIAL MELD" in r.stdout.upper()
    r = subprocess.run([entry_point(), "stats"], capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0 and "No finished matches yet." in r.stdout


def test_help_says_what_a_resumed_game_does_with_players_and_level(home: Path) -> None:
    code, out = run("--help")
    flat = " ".join(out.split())
    assert code == 0
    assert "A resumed game keeps its seats." in flat
    assert "given with a resumed game, it sets theirs" in flat


def test_without_a_terminal_canasta_says_it_needs_one_and_touches_nothing(home: Path) -> None:
    """``canasta </dev/null`` printed "Aborted!" (the resume question read end-of-file), and with no
    autosave it started a game on a non-terminal and left an autosave behind."""
    env = dict(os.environ, CANASTA_HOME=str(home))
    for stdin in (subprocess.DEVNULL, None):      # input from /dev/null; output to a pipe
        r = subprocess.run([entry_point()], capture_output=True, text=True, env=env, timeout=30, stdin=stdin)
        assert r.returncode == 1 and "Aborted!" not in r.stderr + r.stdout
        assert "canasta needs a terminal to play" in r.stderr and "canasta stats" in r.stderr
        assert not paths.state_dir().exists()       # no game started, no lock, no autosave
    m = step(step(start(1), 1), 1)
    Autosaver({"seats": ["human", "computer", "computer", "computer"]}).save(m)
    before = paths.autosave_path().read_bytes()
    r = subprocess.run([entry_point()], capture_output=True, text=True, env=env, timeout=30,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 1 and "Aborted!" not in r.stderr and "needs a terminal" in r.stderr
    assert paths.autosave_path().read_bytes() == before
    # Commands that need no table work without a terminal.
    r = subprocess.run([entry_point(), "stats"], capture_output=True, text=True, env=env, timeout=30,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0 and "No finished matches yet." in r.stdout
