"""Special files where a save, the autosave, the settings or a rules file should be (issue 10, items 4 and 5).

A FIFO as the save path hung ``--load``, the resume check and the F3 list forever; a symbolic
link to ``/dev/zero`` read until MemoryError; ``settings.toml`` as a FIFO hung every command,
even ``canasta stats``; ``--rules /dev/zero`` and ``rules = "/bin/ls"`` broke the start.  Every
case here runs in a fresh Python with a time limit and a memory limit, so that a regression
fails the test instead of hanging the suite or eating the machine's memory.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from canasta_tui.persistence import Autosaver, paths
from canasta_tui.persistence.selfplay import start, step

LIMIT_SECONDS = 20
LIMIT_BYTES = 1 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def bounded(code: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` (``python -c``) with CANASTA_HOME=home, at most 20 s and 1 GiB."""
    env = dict(os.environ, CANASTA_HOME=str(home))
    try:
        return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                              timeout=LIMIT_SECONDS, preexec_fn=_limit_memory, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung for {LIMIT_SECONDS} s: {code}")


def ok(code: str, home: Path, *args: str) -> str:
    r = bounded(code, home, *args)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return r.stdout


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def zero_link(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to("/dev/zero")
    return path


LOAD = """
import sys
from canasta_tui.persistence.saves import SaveError, load_file
try:
    load_file(sys.argv[1])
except SaveError as exc:
    print(exc.reason)
"""


@pytest.mark.parametrize(("make", "reason"), [
    (fifo, "is a FIFO (named pipe), not a Canasta save"),
    (zero_link, "is a character device, not a Canasta save"),
])
def test_load_of_a_fifo_or_a_link_to_dev_zero_is_refused_at_once(home: Path, tmp_path: Path, make: object,
                                                                  reason: str) -> None:
    """``canasta --load FIFO`` hung forever; ``--load`` of a link to /dev/zero read until MemoryError."""
    path = make(tmp_path / "game.json")  # type: ignore[operator]
    assert ok(LOAD, home, str(path)).strip() == reason


def test_a_symlinked_save_is_still_a_save(home: Path, tmp_path: Path) -> None:
    """The check is on the file reached: a save kept elsewhere and linked here loads."""
    real = tmp_path / "elsewhere" / "real.json"
    Autosaver({}, path=real).save(step(start(3), 3))
    (tmp_path / "link.json").symlink_to(real)
    assert ok(LOAD, home, str(tmp_path / "link.json")).strip() == ""


RESUME = """
from canasta_tui.persistence.commands import choose_start
game, notices = choose_start(resume=True, new=False, load=None, ask=False)
print(game is None)
print("|".join(notices))
"""


@pytest.mark.parametrize("make", [fifo, zero_link])
def test_an_autosave_that_is_a_fifo_or_dev_zero_is_set_aside_and_a_new_game_starts(home: Path, make: object) -> None:
    """A FIFO as the autosave hung ``canasta`` at start (the resume check read it)."""
    make(paths.autosave_path())  # type: ignore[operator]
    new_game, notices = ok(RESUME, home).splitlines()
    assert new_game == "True"
    assert "The autosaved game could not be loaded" in notices and "not a Canasta save" in notices
    [kept] = paths.state_dir().glob("autosave.corrupt-*.json")
    assert kept.is_symlink() or kept.is_fifo()        # set aside as it was, never read or deleted
    assert not paths.autosave_path().exists()


LIST = """
from canasta_tui.persistence.saves import list_saves
for s in list_saves():
    print(s.name, s.ok, s.summary, sep="|")
"""


def test_the_f3_list_names_a_fifo_and_dev_zero_without_reading_them(home: Path) -> None:
    """A FIFO inside the saves folder hung the F3 list."""
    saves = paths.saves_dir()
    Autosaver({}, path=saves / "good.json").save(step(start(3), 3))
    fifo(saves / "pipe.json")
    zero_link(saves / "zero.json")
    rows = sorted(line.split("|") for line in ok(LIST, home).splitlines())
    assert rows == [["good", "True", "hand 1, 0 to 0"],
                    ["pipe", "False", "is a FIFO (named pipe), not a Canasta save"],
                    ["zero", "False", "is a character device, not a Canasta save"]]


STATS = """
from canasta_tui.cli import main
main(["stats"])
"""


@pytest.mark.parametrize(("make", "what"), [(fifo, "is a FIFO (named pipe)"), (zero_link, "is a character device")])
def test_settings_toml_as_a_fifo_or_dev_zero_does_not_stop_any_command(home: Path, make: object, what: str) -> None:
    """settings.toml as a FIFO hung every command, even ``canasta stats``; /dev/zero read until MemoryError."""
    make(paths.settings_path())  # type: ignore[operator]
    r = bounded(STATS, home)
    assert r.returncode == 0 and "No finished matches yet." in r.stdout, r.stderr
    config = bounded("from canasta_tui.cli import main; main(['config'])", home)
    assert config.returncode == 0, config.stderr
    assert f"settings.toml: {what}, not a settings file; using the defaults" in config.stderr


RULES = """
import sys
from canasta_tui.engine.errors import RulesError
from canasta_tui.presets import load_rules
try:
    load_rules(sys.argv[1])
except RulesError as exc:
    print(exc)
"""


def test_rules_files_that_are_devices_fifos_or_programs_are_refused_with_the_reason(home: Path,
                                                                                      tmp_path: Path) -> None:
    """``--rules /dev/zero`` read until MemoryError; ``rules = "/bin/ls"`` gave UnicodeDecodeError."""
    assert ok(RULES, home, "/dev/zero").strip() == \
        "cannot read rules file /dev/zero: is a character device, not a rules file"
    pipe = fifo(tmp_path / "house.toml")
    assert ok(RULES, home, str(pipe)).strip() == \
        f"cannot read rules file {pipe}: is a FIFO (named pipe), not a rules file"
    binary = tmp_path / "ls"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    assert ok(RULES, home, str(binary)).strip() == f"{binary}: not a rules file: not UTF-8 text (byte 136)"
    if Path("/bin/ls").is_file():
        assert ok(RULES, home, "/bin/ls").startswith("/bin/ls: not a rules file: not UTF-8 text (byte ")


def test_rules_setting_pointing_at_dev_zero_gives_a_message_at_start(home: Path) -> None:
    """``rules = "/dev/zero"`` in settings.toml: ``canasta`` says why instead of reading forever."""
    paths.settings_path().parent.mkdir(parents=True)
    paths.settings_path().write_text('rules = "/dev/zero"\n', encoding="utf-8")
    r = bounded("from canasta_tui.cli import main; main([])", home)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "/dev/zero: is a character device, not a rules file" in r.stderr
