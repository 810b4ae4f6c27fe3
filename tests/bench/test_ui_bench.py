"""canasta bench ui reports the traffic of computer turns at the game's own pace too."""

from __future__ import annotations

from canasta_tui.bench import ui_bench


def test_bench_ui_measures_computer_turns_at_a_real_delay_as_well() -> None:
    """Issue 10 #20: it measured computer turns with delay 0 only (358 B), while over SSH at the
    default 400 ms delay a computer turn sent 1.2-1.8 KB: each move is painted on its own."""
    r = ui_bench.run(seed=5, paced_delay_ms=60, paced_rounds=2)
    assert r["bytes_per_computer_turn"] > 0
    assert r["bytes_per_computer_turn_paced"] > r["bytes_per_computer_turn"]
    text = ui_bench.report(r)
    assert "(--delay 0: moves painted together)" in text and "(--delay 60: each move painted)" in text
