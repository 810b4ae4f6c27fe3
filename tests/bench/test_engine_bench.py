"""``canasta bench engine``: random legal self-play; Samba and Bolivia stand beside classic."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main


@pytest.mark.parametrize("rules", ["samba", "bolivia"])
def test_samba_and_bolivia_report_hands_per_second_beside_classics_and_no_stuck_state(rules: str) -> None:
    r = CliRunner().invoke(main, ["bench", "engine", "--rules", rules, "--seconds", "0.3", "--json"])
    assert r.exit_code == 0, r.output
    figures = json.loads(r.output)
    assert figures["rules"] == rules and figures["hands"] > 0 and figures["stuck_states"] == 0
    assert figures["classic_hands_per_second"] > 0
    text = CliRunner().invoke(main, ["bench", "engine", "--rules", rules, "--seconds", "0.1"]).output
    assert "classic rules:" in text and "stuck states:   0" in text


def test_classic_is_not_run_twice() -> None:
    r = CliRunner().invoke(main, ["bench", "engine", "--seconds", "0.1", "--json"])
    assert r.exit_code == 0 and "classic_hands_per_second" not in json.loads(r.output)
