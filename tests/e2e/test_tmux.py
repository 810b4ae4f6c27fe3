"""End to end: the installed ``canasta`` in tmux at 80x24, typed at with send-keys.

Each test has its own tmux server (``-L``) and always kills it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CANASTA = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "canasta"
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None or not CANASTA.exists(),
                                reason="needs tmux and the installed canasta")


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        """The pane's text; empty once the game has quit and its tmux session ended."""
        try:
            return self.run("capture-pane", "-p", "-t", "t")
        except subprocess.CalledProcessError:
            return ""

    def wait(self, pred: Callable[[str], bool], timeout: float = 10) -> str:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.screen()
            if pred(text):
                return text
            time.sleep(0.1)
        raise AssertionError("screen never matched:\n" + text)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Callable[[str], Tmux]]:
    socket = f"canasta-e2e-{uuid.uuid4().hex[:8]}"
    t = Tmux(socket)

    def start(args: str) -> Tmux:
        # A fresh home: no saved game to resume, no settings of the person running the tests.  Every
        # variable is set here: a tmux server started elsewhere would not pass on the test's own.
        dirs = " ".join(f"{v}={tmp_path / v.lower()}" for v in
                        ("CANASTA_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"))
        env = f"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color HOME={tmp_path} {dirs}"
        t.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", f"{env} {CANASTA} {args}")
        return t
    try:
        yield start
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)


SUITS = "♣♦♥♠"


def hand_rows(text: str) -> list[str]:
    return text.splitlines()[19:21]


def test_privacy_screen_hides_every_hand_and_lights_follow_the_phase(tmux: Callable[[str], Tmux]) -> None:
    t = tmux("--players 2 --seed 7 --delay 0")
    screen = t.wait(lambda s: "is up" in s)
    # The privacy screen: blank but for the prompt, no card anywhere.
    assert "Player 1 is up" in screen
    assert not any(ch in screen for ch in SUITS)
    assert "Draw" not in screen
    t.keys("Enter")
    # Now the hand shows (waiting for the whole frame: tmux may be read between two writes).
    screen = t.wait(lambda s: "[D]raw" in s and "(press any key)" not in s
                    and any(ch in "".join(hand_rows(s)) for ch in SUITS))
    assert " Discard " in screen and "Dis[c]ard" not in screen        # discard is off before drawing
    t.keys("d")
    screen = t.wait(lambda s: "Dis[c]ard" in s)
    assert " Draw " in screen and "[D]raw" not in screen               # drawn: draw goes dark
    t.keys("c")
    # The turn is over: the hand is hidden and the computers play; Player 4 is next up.
    screen = t.wait(lambda s: "Player 4 is up" in s)
    assert not any(ch in screen for ch in SUITS) and "Stock" not in screen and "hand (" not in screen
    # "At the conclusion of the play a bell will sound" (DOS manual): tmux saw the bell.
    assert t.run("display-message", "-p", "-t", "t", "#{window_bell_flag}").strip() == "1"
    t.keys("Enter")
    # Player 4's hand, and what the others did since (public information: "drew", never the card).
    screen = t.wait(lambda s: "Player 4's hand" in s and "Since your last turn" in s)
    # One line per player's moves: "Player 1 drew, discarded 5♣"; a drawn card is never named.
    assert re.search(r"Player 1 drew, discarded (10|[A2-9JQK])[♣♦♥♠]", screen), screen
    assert re.search(r"drew (10|[A2-9JQK])[♣♦♥♠]", screen) is None
    assert any(ch in "".join(hand_rows(screen)) for ch in SUITS)
    # Any key dismisses the message, q included (it does not quit from under a message):
    # wait for it to go before quitting, or the check races the game.
    t.keys("q")
    screen = t.wait(lambda s: "Since your last turn" not in s and "Player 4's hand" in s)
    assert "Quit the game?" not in screen
    t.keys("q")
    t.wait(lambda s: "Quit the game?" in s)
    t.keys("y")
    t.wait(lambda s: "Player 4's hand" not in s)


def test_too_small_and_quit_asks_first(tmux: Callable[[str], Tmux]) -> None:
    t = tmux("--seed 3 --delay 0")
    t.wait(lambda s: "CANASTA" in s)
    t.run("resize-window", "-t", "t", "-x", "60", "-y", "20")
    t.wait(lambda s: "terminal too small (need 80x24)" in s)
    t.run("resize-window", "-t", "t", "-x", "80", "-y", "24")
    t.wait(lambda s: "CANASTA" in s)
    t.keys("C-c")
    t.wait(lambda s: "Quit the game?" in s)
    t.keys("n")
    t.wait(lambda s: "Quit the game?" not in s and "CANASTA" in s)
    t.keys("q")
    t.wait(lambda s: "Quit the game?" in s)
    t.keys("y")
    t.wait(lambda s: "CANASTA" not in s)


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Tmux]:
    """An interactive shell in a tmux pane at 80x24 (job control needs one), in a fresh home."""
    t = Tmux(f"canasta-e2e-{uuid.uuid4().hex[:8]}")
    t.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
          f"env -i PATH=/usr/bin:/bin HOME={tmp_path} CANASTA_HOME={tmp_path / 'home'} LANG=C.UTF-8 "
          "TERM=xterm-256color PS1='$ ' bash --norc --noprofile -i")
    try:
        yield t
    finally:
        subprocess.run(["tmux", "-L", t.socket, "kill-server"], capture_output=True, timeout=10)


def test_ctrl_z_suspends_to_the_shell_and_fg_redraws(shell: Tmux) -> None:
    """Issue 10 #19: Ctrl-Z did nothing; terminal programs suspend, and redraw on fg."""
    t = shell
    t.wait(lambda s: "$" in s)
    t.keys(f"{CANASTA} --seed 3 --delay 0", "Enter")
    t.wait(lambda s: "[Q]uit" in s)
    t.keys("C-z")
    screen = t.wait(lambda s: "Stopped" in s or "stopped" in s)
    assert "[Q]uit" not in screen
    t.keys("fg", "Enter")
    screen = t.wait(lambda s: "[Q]uit" in s and "CANASTA" in s)
    assert "Stopped" not in screen      # the whole screen was painted again
    t.keys("q")
    t.wait(lambda s: "Quit the game?" in s)
    t.keys("y")
    # Issue 10 #19: quitting printed nothing; now the shell is told the game is kept and how to go on.
    screen = t.wait(lambda s: "[Q]uit" not in s and "The game is saved" in s)
    assert "autosave.json" in screen and "canasta --resume" in screen


def _key_for(screen: str) -> str | None:
    """What a patient human presses on this screen (None: wait, the computers are playing)."""
    if "May I go out, partner?" in screen:
        return "n"
    if "press Enter" in screen:                       # "Player N is up", "... is asked a question"
        return "Enter"
    if "(press any key)" in screen:
        return "x"
    if "How do you want to take the pile?" in screen:
        return "1"
    if "Enter: the score sheet" in screen or "Enter: next hand" in screen or "Enter: continue" in screen:
        return "Enter"
    for lit, key in (("[D]raw", "d"), ("[E]nd", "e"), ("Dis[c]ard", "c"), ("[P]ile", "p")):
        if lit in screen:
            return key
    return None


def test_start_menu_two_human_players_a_turn_each_and_play_again(tmux: Callable[[str], Tmux]) -> None:
    """Issue 12: canasta with an empty home opens the start menu; the match's target is set low on
    the Rules screen; Two Human Players; a turn for each human through "Player N is up"; at the
    end of the match, Play again deals a new match without quitting."""
    t = tmux("--delay 0")
    screen = t.wait(lambda s: "CANASTA — Start menu" in s)
    assert "Resume" not in screen and "2  Two Human Players" in screen
    # Rules: the fifth option below the preset is the game's score (target_score), named in words.
    t.keys("u")
    t.wait(lambda s: "CANASTA — Rule options" in s)
    t.keys("Down", "Down", "Down", "Down", "Down")
    t.wait(lambda s: "> Game: points to win the match" in s)
    t.keys("Enter", "C-u", "50", "Enter")
    t.wait(lambda s: "Saved: Game: points to win the match = 50" in s and "new games: classic + 1 change" in s)
    t.keys("q")
    t.wait(lambda s: "the rule options: classic + 1 change" in s)
    t.keys("2")
    # Player 1's turn, through the privacy screen.
    t.wait(lambda s: "Player 1 is up" in s and not any(ch in s for ch in SUITS))
    t.keys("Enter")
    t.wait(lambda s: "[D]raw" in s and "(press any key)" not in s)
    t.keys("d")
    t.wait(lambda s: "Dis[c]ard" in s)
    t.keys("c")
    # The computers play; then Player 4's turn, through the privacy screen.
    t.wait(lambda s: "Player 4 is up" in s)
    t.keys("Enter")
    screen = t.wait(lambda s: "Player 4's hand" in s)
    if "(press any key)" in screen:
        t.keys("x")
    t.wait(lambda s: "[D]raw" in s and "(press any key)" not in s)
    t.keys("d")
    t.wait(lambda s: "Dis[c]ard" in s)
    t.keys("c")
    t.wait(lambda s: "Player 4's hand" not in s)
    # Play on, a patient human at each seat, until the (short) match is over.
    end = time.monotonic() + 240
    screen = t.screen()
    while "Game over" not in screen:
        assert time.monotonic() < end, "the match never ended:\n" + screen
        key = _key_for(screen)
        if key is None:
            time.sleep(0.1)
            screen = t.screen()
            continue
        t.keys(key)
        before = screen
        screen = t.wait(lambda s, b=before: s != b, timeout=10)    # type: ignore[misc]
    assert "win the match!" in screen and "a or Enter: Play again" in screen
    t.keys("a")
    t.wait(lambda s: "Player 1 is up" in s)
    t.keys("Enter")
    screen = t.wait(lambda s: "[D]raw" in s or "Player 1's hand" in s)
    assert "classic + 1 change rules — hand 1" in screen and "1&3: 0   2&4: 0" in screen
    t.keys("q")
    t.wait(lambda s: "Quit the game?" in s)
    t.keys("y")
    t.wait(lambda s: "CANASTA" not in s)
