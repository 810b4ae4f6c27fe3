"""F3 (load) and F4 (save) at the table, and the autosave failure notice, with the real files.

Every test has its own CANASTA_HOME; the table is driven by key names as the app sends them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_tui.engine import Phase
from canasta_tui.persistence import paths
from canasta_tui.persistence.saves import read_record
from canasta_tui.play.local import attach
from canasta_tui.table import local_link
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import LoadList, SaveName

from .helpers import render, session, table_of


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv("CANASTA_HOME", str(h))
    return h


def table(seed: int = 5) -> Controller:
    s = session(seed=seed)
    local = attach(s, "game-test")
    ctl = Controller(local_link(s), local.files())
    while not ctl.client.my_turn():
        s.step()
    return ctl


def typ(ctl: Controller, text: str) -> None:
    for ch in text:
        ctl.key("space" if ch == " " else ch)


def screen(ctl: Controller) -> str:
    return render(ctl, 80, 24).text()


def test_f4_asks_for_a_name_offers_the_players_and_confirms_with_the_path() -> None:
    ctl = table()
    ctl.key("f4")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, SaveName)
    assert "> [Player 1]" in screen(ctl)       # offered, selected
    for _ in range(len("Player 1")):
        ctl.key("c-h")
    ctl.key("enter")                       # an empty name is not saved: the dialog stays
    assert ctl.client.dialog is not None and "Type a name" in screen(ctl)
    typ(ctl, "ann q?")                     # q and ? are letters here, not quit and help
    ctl.key("enter")
    path = paths.saves_dir() / "ann-q.json"
    assert ctl.client.dialog is None and ctl.message == [f"Saved: {path}"]
    assert read_record(path).match.state == table_of(ctl).state
    assert "Saved:" in screen(ctl)


def test_f4_esc_cancels_and_a_bad_place_says_why() -> None:
    ctl = table()
    ctl.key("f4")
    ctl.key("escape")
    assert ctl.client.dialog is None and not paths.saves_dir().exists()
    blocker = paths.data_dir()
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where the directory should be")
    ctl.key("f4")
    ctl.key("enter")
    assert ctl.message[0] == "Not saved:" and "cannot write here" in ctl.message[1]


def test_f3_lists_the_saves_and_enter_loads_one_in_place_of_the_game() -> None:
    ctl = table()
    ctl.key("f4")
    ctl.key("enter")                       # saved as "Player 1"
    saved = table_of(ctl).state
    ctl.key("x")                           # dismiss "Saved: ..."
    ctl.key("d")                           # play on: the game moves away from the save
    assert table_of(ctl).state != saved
    ctl.key("f3")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, LoadList)
    text = screen(ctl)
    assert "> Player-1" in text and "hand 1, 0 to 0" in text and "Enter: load" in text
    ctl.key("enter")
    assert ctl.client.dialog is None and ctl.message[0] == "Loaded Player-1: hand 1"
    # the game that was being played is kept, and the player is told where (F3 lists it)
    assert ctl.message[1:] and ctl.message[1].startswith("The game you were playing is saved as kept-")
    assert table_of(ctl).state == saved and ctl.client.my_turn()
    # the autosave follows the loaded game, and keeps following it
    assert read_record(paths.autosave_path()).match.state == saved
    ctl.key("x")
    ctl.key("d")
    assert read_record(paths.autosave_path()).match.state == table_of(ctl).state != saved


def test_f3_bad_file_shows_the_reason_and_changes_nothing() -> None:
    ctl = table()
    ctl.key("d")
    before = table_of(ctl).state
    paths.saves_dir().mkdir(parents=True)
    (paths.saves_dir() / "broken.json").write_text('{"format": "canasta-save", "version"')
    ctl.key("f3")
    assert "broken" in screen(ctl)
    ctl.key("enter")
    assert ctl.message[0] == "Not loaded (the game goes on as it was):"
    assert "broken.json" in ctl.message[1] and "ends too early" in ctl.message[1]
    assert table_of(ctl).state is before


def test_f3_arrows_move_esc_and_q_go_back_and_nothing_to_list_says_where() -> None:
    ctl = table()
    ctl.key("f3")
    assert ctl.client.dialog is None and "No saved games yet" in ctl.message[0]
    assert str(paths.saves_dir()) in ctl.message[0]
    ctl.key("x")
    for name in ("one", "two", "three"):
        ctl.key("f4")
        for _ in range(8):
            ctl.key("c-h")
        typ(ctl, name)
        ctl.key("enter")
        ctl.key("x")
    ctl.key("f3")
    d = ctl.client.dialog
    assert d is not None and len(d.items) == 3
    ctl.key("down")
    ctl.key("down")
    ctl.key("down")                        # stops at the last line
    assert d.page == 2 and f"> {d.items[2].name}" in screen(ctl)
    ctl.key("up")
    assert d.page == 1
    ctl.key("q")
    assert ctl.client.dialog is None and not ctl.quitting
    ctl.key("f3")
    ctl.key("escape")
    assert ctl.client.dialog is None


def test_autosave_failure_is_told_once_with_the_reason_and_the_path(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "state").write_text("not a directory")         # the autosave cannot be written
    ctl = table()
    want = "Autosave failed: cannot write here: "
    assert ctl.message and ctl.message[0].startswith(want)
    assert ctl.message[0].endswith(f"({paths.autosave_path()}); F4 saves elsewhere")
    assert "Autosave failed" in screen(ctl)
    ctl.key("x")                                           # dismissed ...
    ctl.key("d")
    while not ctl.client.my_turn() and table_of(ctl).state.phase != Phase.HAND_OVER:
        table_of(ctl).step()
    assert not any("Autosave failed" in m for m in ctl.message)   # ... and not repeated
    # F4 still saves elsewhere
    ctl.key("f4")
    ctl.key("enter")
    assert ctl.message[0].startswith("Saved: ")


def test_quit_says_the_game_is_kept_and_how_to_come_back() -> None:
    """q asks before it quits, and says the game is kept (autosaved) and how to resume it."""
    ctl = table()
    ctl.key("q")
    text = " ".join(screen(ctl).split())
    assert "Quit the game?" in text
    assert "The game is kept: run canasta to resume it" in text and "canasta --resume" in text


def test_f4_the_offered_name_is_selected_the_first_key_typed_replaces_it() -> None:
    """QA: in F4 typing added to the offered name; as in any dialog, the offered name is selected
    and the first character typed replaces it (Enter alone takes it as it is)."""
    ctl = table()
    ctl.key("f4")
    text = screen(ctl)
    assert "> [Player 1]" in text and "typing replaces the name" in text
    typ(ctl, "ann")
    d = ctl.client.dialog
    assert isinstance(d, SaveName) and d.text == "ann" and "> ann_" in screen(ctl)
    ctl.key("escape")
    ctl.key("f4")
    ctl.key("c-h")                         # Backspace on the offer clears it, as a selection
    d = ctl.client.dialog
    assert isinstance(d, SaveName) and d.text == "" and "Type a name" in screen(ctl)
    ctl.key("escape")
    ctl.key("f4")
    ctl.key("right")                       # a move keeps the offer: typing then adds to it
    typ(ctl, " 2")
    d = ctl.client.dialog
    assert isinstance(d, SaveName) and d.text == "Player 1 2"


def test_f4_a_name_longer_than_is_kept_is_refused_with_a_notice() -> None:
    """QA: a name longer than the file name allows was cut without notice: the field holds
    NAME_MAX characters, and a key beyond them is refused and the box says so."""
    from canasta_tui.ui.dialogs import NAME_MAX

    ctl = table()
    ctl.key("f4")
    typ(ctl, "x" * NAME_MAX)
    assert f"at most {NAME_MAX} characters" not in screen(ctl)
    typ(ctl, "yz")
    d = ctl.client.dialog
    assert isinstance(d, SaveName) and d.text == "x" * NAME_MAX
    assert f"A name holds at most {NAME_MAX} characters" in " ".join(screen(ctl).split())
    ctl.key("c-h")                         # room again: the notice goes
    assert f"at most {NAME_MAX} characters" not in screen(ctl)
    ctl.key("enter")
    path = paths.saves_dir() / ("x" * (NAME_MAX - 1) + ".json")
    assert ctl.message == [f"Saved: {path}"] and path.exists()
