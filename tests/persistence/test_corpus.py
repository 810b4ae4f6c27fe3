"""The broken-save corpus: each hostile file gets its own clear message, never a traceback.

The files in ``tests/data/saves/`` are real saves (``make_corpus.py``) broken in one way.
The message must say what is wrong and where the file is, and the file must stay as it was.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from canasta_tui.persistence import SaveError, find_autosave, load_file, paths, save_named
from canasta_tui.persistence.selfplay import reference

CORPUS = Path(__file__).parent.parent / "data" / "saves"

EXPECTED = [
    ("action-not-text.json", "hand 1, action 5: expected text, got 42"),
    ("bad-card-in-deck.json", "hand 1: bad deck: not a card: 'ZZ'"),
    ("bad-first-dealer.json", "first_dealer must be a seat from 0 to 3"),
    ("binary.json", "not a Canasta save: not UTF-8 text (byte 0)"),
    ("blank.json", "the file is empty"),
    ("corrupt-json.json", "not valid JSON (line 59, column 16): Expecting ':' delimiter"),
    ("deep-nesting.json", "not a Canasta save: the JSON is nested too deeply"),
    ("empty.json", "the file is empty"),
    ("hands-not-a-list.json", "the save's hands must be a list"),
    ("huge-number.json", "not a Canasta save: unreadable JSON (Exceeds the limit"),
    ("illegal-action.json", "the action log does not replay: hand 1, action 2 (draw): You have already drawn"),
    ("illegal-last-action.json", "the action log does not replay: hand 1, action 41 (meld A A A A A A A A A)"),
    ("nan-version.json", "the save has no version number"),
    ("newer-version.json", "the save is format version 99, newer than this program reads (4): update canasta"),
    ("no-hands.json", "the save has no hands"),
    ("no-version.json", "the save has no version number"),
    ("nul-bytes.json", "the file holds only zero bytes"),
    ("rules-bad-type.json", "the save's rules cannot be used: rule option 'hand_size' must be a whole number"),
    ("rules-five-players.json", "the save's rules cannot be used: rules 'classic': players must be 2, 3 or 4"),
    ("rules-not-a-table.json", "the save's rules must be a table of rule options"),
    ("rules-unknown-option.json", "the save's rules cannot be used: unknown rule option 'jokers_wild_on_tuesdays'"),
    ("short-deck.json", "the action log does not replay: a deck must hold the 108 Canasta cards"),
    ("snapshot-hands.json", "the snapshot disagrees with the replayed game (hands)"),
    ("snapshot-not-object.json", "the snapshot disagrees with the replayed game (phase, dealer"),
    ("snapshot-scores.json", "the snapshot disagrees with the replayed game (scores)"),
    ("top-level-list.json", "not a Canasta save: the top level must be a JSON object"),
    ("truncated-at-end.json", "the file ends too early (truncated at line 161"),
    ("truncated.json", "the file ends too early (truncated at line 62"),
    ("unreadable-action.json", "hand 1, action 5: cannot read 'dance a jig'"),
    ("version-zero.json", "unknown save format version 0"),
    ("wrong-format.json", "not a Canasta save: format is 'chess-pgn', expected 'canasta-tui-save'"),
    ("wrong-hand-size.json", "the action log does not replay: hand 1, action 2"),
    ("wrong-rules.json", "the action log does not replay: hand 1, action 42 (pile 4 2): The pile is frozen"),
]


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_the_table_covers_the_whole_corpus() -> None:
    assert len(EXPECTED) >= 20
    assert sorted(p.name for p in CORPUS.glob("*.json")) == sorted(name for name, _ in EXPECTED)


@pytest.mark.parametrize(("name", "message"), EXPECTED)
def test_bad_save_gets_its_message_and_is_left_alone(name: str, message: str) -> None:
    path = CORPUS / name
    before = digest(path)
    with pytest.raises(SaveError) as info:
        load_file(path)
    assert info.value.reason.startswith(message), info.value.reason
    assert str(info.value).startswith(str(path) + ": ")
    assert "Traceback" not in str(info.value)
    assert digest(path) == before


@pytest.mark.parametrize("name", [n for n, _ in EXPECTED[::4]])
def test_corrupt_autosave_is_kept_aside_and_the_game_goes_on(name: str) -> None:
    auto = paths.autosave_path()
    auto.parent.mkdir(parents=True)
    shutil.copy(CORPUS / name, auto)
    found = find_autosave()
    assert found.game is None
    assert len(found.notices) == 1
    kept = list(auto.parent.glob("autosave.corrupt-*.json"))
    assert len(kept) == 1 and digest(kept[0]) == digest(CORPUS / name)
    assert str(auto) in found.notices[0] and str(kept[0]) in found.notices[0]
    assert not auto.exists()


@pytest.mark.parametrize("name", ["truncated.json", "newer-version.json"])
def test_a_named_save_that_we_cannot_read_is_never_overwritten(name: str) -> None:
    target = paths.saves_dir() / name
    target.parent.mkdir(parents=True)
    shutil.copy(CORPUS / name, target)
    with pytest.raises(SaveError, match="not overwriting it"):
        save_named(reference(2, 10), {}, name.removesuffix(".json"))
    assert digest(target) == digest(CORPUS / name)


def test_too_large_and_directories_and_missing_files(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(20 * 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(SaveError, match="too large to be a Canasta save"):
        load_file(big)
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(SaveError, match="is a directory"):
        load_file(tmp_path / "dir.json")
    with pytest.raises(SaveError, match="no such file"):
        load_file(tmp_path / "nothing.json")
