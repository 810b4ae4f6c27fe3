"""Special files where a save, the autosave, the settings or a rules file should be (issue 10, items 4 and 5).

A FIFO as the save path hung ``--load``, the resume check and the F3 list forever; a symbolic
link to ``/dev/zero`` read until MemoryError; ``settings.toml`` as a FIFO hung every command,
even ``canasta stats``; ``--rules /dev/zero`` and ``rules = "/bin/ls"`` broke the start.  Every
case here runs in a fresh Python with a time limit and a memory limit, so that a regression
fails the test instead of hanging the suite or eating the machine's memory.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from canasta_tui.persistence import Autosaver, paths
from canasta_tui.persistence.lock import AutosaveLock, claim_autosave, release_all
from canasta_tui.persistence.saves import remove_stale_temps
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
from canasta_tui.play.start import choose_start
game, notices = choose_start(resume=True, new=False, load=None)
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


# --------------------------------------------------------------------------- the lock (item 5)

def test_a_lock_file_that_is_a_symlink_never_touches_its_target(home: Path, tmp_path: Path) -> None:
    """``state/autosave.json.lock`` as a symlink to a user's file: that file was truncated and got a PID.
    Now the link is left alone, the game plays on unlocked, and the player is told."""
    victim = tmp_path / "thesis.txt"
    victim.write_text("three years of work\n", encoding="utf-8")
    lock = paths.autosave_path().with_name("autosave.json.lock")
    lock.parent.mkdir(parents=True)
    lock.symlink_to(victim)
    try:
        path, notes = claim_autosave()
    finally:
        release_all()
    assert victim.read_text(encoding="utf-8") == "three years of work\n"
    assert path == paths.autosave_path() and lock.is_symlink()
    assert notes == [f"The lock file {lock} is a symbolic link, not a lock file; it is left alone, so this game is "
                     f"not protected from a second canasta autosaving to {path}. Remove it to fix this."]


def test_a_lock_file_that_is_a_fifo_or_a_dangling_link_is_refused(home: Path, tmp_path: Path) -> None:
    lock = AutosaveLock(paths.autosave_path())
    fifo(lock.path)
    assert lock.acquire() is None and lock.problem == "is a FIFO (named pipe), not a lock file"
    lock.path.unlink()
    lock.path.symlink_to(tmp_path / "not-yet")      # O_CREAT through a dangling link would create the target
    assert lock.acquire() is None and lock.problem == "is a symbolic link, not a lock file"
    assert not (tmp_path / "not-yet").exists()
    assert lock.holder() == ""


# --------------------------------------------------------------------------- stale temporary files (item 13)

def old(path: Path, age: float = 3600) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{half a save", encoding="utf-8")
    t = path.stat().st_mtime - age
    os.utime(path, (t, t))
    return path


def test_temporary_files_left_by_kill_9_are_removed_when_the_autosave_is_claimed(home: Path) -> None:
    """``.autosave.json.*.tmp`` files left by ``kill -9`` were never cleaned up.  Only ours go: only
    the names the atomic write gives, only old ones (a write in progress is milliseconds old), only
    for the autosave this game holds the lock of."""
    state = paths.state_dir()
    stale = old(state / ".autosave.json.k3j_x9ab.tmp")
    fresh = old(state / ".autosave.json.q1w2e3r4.tmp", age=0)
    other_game = old(state / ".autosave-2.json.zz99yy88.tmp")     # autosave-2's: another game's business
    not_ours = old(state / ".autosave.json.notours.tmp")
    try:
        claim_autosave()
    finally:
        release_all()
    assert not stale.exists()
    assert fresh.exists() and other_game.exists() and not_ours.exists()


HOLD = """
import sys, time
from canasta_tui.persistence.lock import claim_autosave
print(claim_autosave()[0], flush=True)
time.sleep(60)
"""


def test_a_second_game_leaves_the_first_games_temporary_files_alone(home: Path) -> None:
    """Two games at once: the second one (autosave-2.json) cleans its own leftovers, never the first's."""
    state = paths.state_dir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD], env=dict(os.environ, CANASTA_HOME=str(home)),
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == str(paths.autosave_path())
        # The first game is running: its temporary file may be a write in progress, however old it looks.
        first_games = old(state / ".autosave.json.aaaaaaaa.tmp")
        second_games = old(state / ".autosave-2.json.bbbbbbbb.tmp")
        try:
            path, _ = claim_autosave()
        finally:
            release_all()
        assert path == paths.autosave_path(2)
        assert first_games.exists() and not second_games.exists()
    finally:
        holder.kill()
        holder.wait(10)


def test_remove_stale_temps_ignores_directories_and_links(tmp_path: Path) -> None:
    target = tmp_path / "autosave.json"
    (tmp_path / ".autosave.json.dir12345.tmp").mkdir()
    keep = tmp_path / "keep.txt"
    keep.write_text("mine", encoding="utf-8")
    link = tmp_path / ".autosave.json.link1234.tmp"
    link.symlink_to(keep)
    os.utime(link, (0, 0), follow_symlinks=False)
    assert remove_stale_temps(target) == []
    assert keep.read_text(encoding="utf-8") == "mine"


def test_the_bounded_reader_refuses_files_over_the_limit_even_when_they_claim_to_be_small(tmp_path: Path) -> None:
    from canasta_tui.persistence.safe_io import Unreadable, read_regular

    f = tmp_path / "s.json"
    f.write_text(json.dumps({"a": "b" * 100}), encoding="utf-8")
    with pytest.raises(Unreadable, match="too large to be a Canasta save"):
        read_regular(f, "a Canasta save", 50)
    assert read_regular(f, "a Canasta save", 1000) == f.read_bytes()
    # /proc files are regular and report size 0: only the bounded read notices they are bigger.
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(Unreadable, match="more than 10 bytes"):
        read_regular("/proc/self/status", "a Canasta save", 10)
    with pytest.raises(Unreadable) as caught:
        read_regular(tmp_path / "none.json", "a Canasta save", 1000)
    assert caught.value.missing and caught.value.reason == "no such file"
