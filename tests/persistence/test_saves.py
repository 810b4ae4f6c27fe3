"""Saves: atomic writes, round trips at random points, the autosave, named saves, signals."""

from __future__ import annotations

import json
import os
import random
import signal
from pathlib import Path

import pytest

from canasta_tui.engine import Match, record
from canasta_tui.persistence import (
    Autosaver,
    SaveError,
    attach_autosave,
    backup_autosave,
    find_autosave,
    install_exit_savers,
    list_saves,
    load_file,
    paths,
    save_named,
    write_save,
)
from canasta_tui.persistence.selfplay import actions_done, game_over, start, step


def game(m: Match) -> dict[str, object]:
    d = record.to_dict(m)
    d.pop("meta")
    return d


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_save_at_random_points_load_and_continue_identically(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    m = start(seed)
    points = set(rng.sample(range(1, 400), 8))
    n = 0
    while n < 400 and not game_over(m):
        m = step(m, seed)
        n += 1
        if n in points:
            path = write_save(tmp_path / f"at-{n}.json", m, {"seed": seed})
            loaded = load_file(path)
            assert game(loaded.match) == game(m)
            assert loaded.meta["seed"] == seed and "saved_at" in loaded.meta
            a, b = m, loaded.match
            for _ in range(25):
                if game_over(a):
                    break
                a, b = step(a, seed), step(b, seed)
                assert a.state == b.state and a.sheet == b.sheet


def test_atomic_write_leaves_the_old_file_when_the_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_save(tmp_path / "g.json", start(1))
    before = path.read_bytes()

    def broken(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(SaveError, match="No space left on device"):
        write_save(path, step(start(1), 1))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left behind


def test_unwritable_directory_is_a_clear_error_and_the_game_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    errors: list[str] = []
    saver = Autosaver(path=blocker / "state" / "autosave.json", on_error=errors.append)
    assert saver.save(start(1)) is False
    assert saver.save(step(start(1), 1)) is False
    assert len(errors) == 1 and str(blocker / "state" / "autosave.json") in errors[0]
    assert saver.error is not None and "cannot write here" in saver.error


def test_read_only_directory_is_refused_with_the_reason() -> None:
    """A directory without write permission: the save is refused, saying why and where.

    Root writes anywhere, so as root the write runs with the effective user ``nobody``
    (and root is restored after it).
    """
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="canasta-ro-", dir="/tmp"))
    ro = base / "ro"
    try:
        base.chmod(0o755)
        ro.mkdir()
        ro.chmod(0o555)
        match = start(1)
        root = os.geteuid() == 0
        if root:
            os.setegid(65534)
            os.seteuid(65534)
        try:
            with pytest.raises(SaveError) as caught:
                write_save(ro / "g.json", match)
        finally:
            if root:
                os.seteuid(0)
                os.setegid(0)
        assert "Permission denied" in str(caught.value) and str(ro) in str(caught.value)
        assert not (ro / "g.json").exists()
    finally:
        ro.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


class FakeSession:
    """What attach_autosave needs from the UI's Session: match, add_observer, meta."""

    def __init__(self, m: Match) -> None:
        self.match = m
        self.observers: list[object] = []

    def add_observer(self, fn: object) -> None:
        self.observers.append(fn)

    def meta(self) -> dict[str, object]:
        return {"seats": ["human", "computer", "computer", "computer"], "names": ["Ann"]}

    def act(self) -> None:
        self.match = step(self.match, 9)
        for fn in self.observers:
            fn(self)  # type: ignore[operator]


def test_attach_autosave_saves_after_every_action_and_resume_offers_it() -> None:
    s = FakeSession(start(9))
    saver = attach_autosave(s)
    assert find_autosave().game is not None
    for _ in range(30):
        s.act()
        assert game(load_file(paths.autosave_path()).match) == game(s.match)
    assert saver.saves == 31
    found = find_autosave()
    assert found.game is not None and found.game.meta["names"] == ["Ann"] and found.notices == []


def test_new_keeps_the_old_autosave_as_a_backup() -> None:
    Autosaver().save(start(3))
    kept = backup_autosave()
    assert kept is not None and kept.name.startswith("autosave.backup-") and kept.exists()
    assert not paths.autosave_path().exists()
    assert find_autosave().game is None
    assert backup_autosave() is None


def test_a_finished_match_is_not_offered_for_resume() -> None:
    m = start(5)
    m = m._replace(rules=m.rules.replace(target_score=50))
    while not game_over(m):
        m = step(m, 5)
    Autosaver().save(m)
    assert find_autosave().game is None


def test_named_saves_are_listed_newest_first_with_a_summary() -> None:
    a = save_named(start(1), {}, "first game")
    b = save_named(step(start(2), 2), {}, "second")
    (paths.saves_dir() / "junk.json").write_text("{")
    os.utime(a, (1, 1))
    os.utime(paths.saves_dir() / "junk.json", (2, 2))
    infos = list_saves()
    assert [i.name for i in infos] == ["second", "junk", "first-game"]
    assert infos[0].path == b and infos[0].ok and infos[0].summary == "hand 1, 0 to 0"
    assert not infos[1].ok
    assert save_named(start(1), {}, "second") == b  # our own save may be replaced


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_exit_savers_save_then_exit(sig: int) -> None:
    saved: list[int] = []
    restore = install_exit_savers(lambda: saved.append(1))
    try:
        with pytest.raises(SystemExit) as info:
            os.kill(os.getpid(), sig)
            for _ in range(1000):  # the handler runs between bytecodes
                pass
        assert info.value.code == 128 + sig and saved == [1]
    finally:
        restore()


def test_the_save_file_is_the_documented_record(tmp_path: Path) -> None:
    m = start(4)
    for _ in range(12):
        m = step(m, 4)
    data = json.loads(write_save(tmp_path / "x.json", m, {"level": "expert"}).read_text())
    assert data["format"] == record.FORMAT and data["version"] == record.VERSION
    assert sum(len(h["actions"]) for h in data["hands"]) == actions_done(m) == 12
