"""Settings the table uses: aggression (Expert), sort order, colour mode, the default delay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from prompt_toolkit.output import ColorDepth

from canasta_tui import cli
from canasta_tui.engine.cards import parse_card
from canasta_tui.persistence import settings
from canasta_tui.play.start import start_table
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.app import TableApp
from canasta_tui.ui.controller import sort_hand
from canasta_tui.ui.style import color_depth


def session(seed: int = 5) -> Table:
    r = load_rules("classic")
    return Table(r, seats_for(1, "beginner"), seed)


def codes(text: str) -> list[int]:
    return [int(parse_card(t)) for t in text.split()]


def labels(cs: list[int]) -> str:
    from canasta_tui.engine.cards import card_text
    return " ".join(card_text(c) for c in cs)


def test_aggression_setting_reaches_the_expert_computers(home: Path) -> None:
    settings.set_value("aggression", "85")
    s = start_table(load_rules("classic"), resume=False, new=True, load=None, players=1, seed=4,
                    level="expert", name="").table
    assert [s.computers[i].aggression for i in (1, 2, 3)] == [85, 85, 85]
    settings.unset_value("aggression")
    s = start_table(load_rules("classic"), resume=False, new=True, load=None, players=1, seed=4,
                    level="expert", name="").table
    assert s.computers[1].aggression == 50


def test_sort_orders_rank_as_the_dos_game_and_suit() -> None:
    hand = codes("2c JK Kh 3s Ac 7d Kc 4h As")
    assert labels(sort_hand(hand, "rank")) == "Ac As 3s 4h 7d Kc Kh 2c JK"
    assert labels(sort_hand(hand, "suit")) == "Ac Kc 7d 4h Kh As 3s 2c JK"


def test_the_sort_option_reaches_the_hand_on_screen() -> None:
    from canasta_tui.ui.controller import Controller
    s = session(seed=5)
    by_rank = Controller(local_link(s), sort="rank").client.hand()
    by_suit = Controller(local_link(s), sort="suit").client.hand()
    assert sorted(by_rank) == sorted(by_suit) and by_rank != by_suit
    assert by_suit == sort_hand(by_rank, "suit")


@pytest.mark.parametrize(("mode", "env", "want"), [
    ("auto", {}, None),
    ("auto", {"NO_COLOR": "1"}, ColorDepth.DEPTH_1_BIT),
    ("never", {}, ColorDepth.DEPTH_1_BIT),
    ("always", {"NO_COLOR": "1"}, ColorDepth.DEPTH_8_BIT),
    ("always", {"NO_COLOR": "1", "TERM": "dumb"}, ColorDepth.DEPTH_8_BIT),
    ("always", {"TERM": "linux"}, ColorDepth.DEPTH_4_BIT),
    ("always", {"PROMPT_TOOLKIT_COLOR_DEPTH": "DEPTH_24_BIT"}, ColorDepth.DEPTH_24_BIT),
])
def test_color_modes(mode: str, env: dict[str, str], want: ColorDepth | None,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("NO_COLOR", "TERM", "PROMPT_TOOLKIT_COLOR_DEPTH"):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert color_depth(mode) == want
    from prompt_toolkit.output import DummyOutput
    app = TableApp.local(session(), color=mode, output=DummyOutput())
    assert app.app.color_depth == (want or DummyOutput().get_default_color_depth())


def launched_with(monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def fake_launch(rules: Any, **kw: Any) -> None:
        seen.update(kw)
    monkeypatch.setattr("canasta_tui.ui.launch.launch", fake_launch)
    r = CliRunner().invoke(cli.main, ["--new", *args])
    assert r.exit_code == 0, r.output
    return seen


def test_default_delay_is_400_and_the_settings_file_and_options_reach_launch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings.Settings().delay == 400
    seen = launched_with(monkeypatch)
    assert (seen["delay_ms"], seen["color"], seen["sort"]) == (400, "auto", "rank")
    settings.set_value("sort", "suit")
    settings.set_value("color", "always")
    seen = launched_with(monkeypatch)
    assert (seen["color"], seen["sort"]) == ("always", "suit")
    seen = launched_with(monkeypatch, "--color", "never", "--sort", "rank", "--delay", "0")
    assert (seen["delay_ms"], seen["color"], seen["sort"]) == (0, "never", "rank")


def saved_game() -> None:
    from canasta_tui.persistence import Autosaver
    from canasta_tui.persistence.selfplay import start, step
    m = step(step(start(1), 1), 1)
    Autosaver({"seats": ["human", "computer", "computer", "computer"],
               "levels": ["beginner"] * 4, "names": ["Ann", "", "", ""]}).save(m)


def resumed_with(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[Any, str]:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("canasta_tui.ui.launch.launch", lambda rules, **kw: seen.update(kw))
    r = CliRunner().invoke(cli.main, ["--resume", *args])
    assert r.exit_code == 0, r.output
    return seen["table"], r.output


def test_resume_keeps_the_saved_seats_and_says_so_but_level_sets_the_computers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    saved_game()
    s, out = resumed_with(monkeypatch)
    assert [(x.human, x.level) for x in s.seats] == [(True, "beginner")] + [(False, "beginner")] * 3
    assert out == ""
    s, out = resumed_with(monkeypatch, "--players", "2", "--level", "expert")
    assert [x.human for x in s.seats] == [True, False, False, False] and s.seats[0].name == "Ann"
    assert [x.level for x in s.seats[1:]] == ["expert"] * 3
    assert "--players 2 is ignored: the saved game keeps its seats (human: Player 1)" in out
    assert "computer players play at expert level (--level)" in out
    assert s.computers[1].__class__.__name__ == "ExpertPlayer"
