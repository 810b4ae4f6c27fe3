"""``canasta bench ui``: how fast the table paints and how many bytes cross the link.

Figures: time to the first full frame, render time of a busy table (p50/p95), bytes
written to the terminal per cursor keypress in the hand and per complete computer turn.
The terminal is a real VT100 output writing into a byte counter at 80x24.
"""

from __future__ import annotations

import asyncio
import io
import statistics
import time
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from ..engine import Phase, parse_action
from ..presets import load_rules
from ..table import Table, local_link, seats_for
from ..ui.app import TableApp
from ..ui.canvas import DEFAULT_OPTIONS
from ..ui.controller import Controller

TARGETS = {"first_frame_s": 0.5, "render_p95_ms": 15.0, "bytes_per_cursor_key": 400}
DEFAULT_DELAY_MS = 400   # canasta's --delay default


class ByteCounter(io.StringIO):
    """A terminal that counts the UTF-8 bytes written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.bytes = 0

    def write(self, s: str) -> int:
        self.bytes += len(s.encode("utf-8"))
        return len(s)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def isatty(self) -> bool:
        return True


def busy_controller(seed: int = 5) -> Controller:
    """A table well into a hand: melds on both sides, red threes, a long log, a selection."""
    t = Table(load_rules("classic"), seats_for(1, "beginner"), seed)
    ctl = Controller(local_link(t))
    while len(t.events) < 60 and t.match.state.phase != Phase.HAND_OVER:
        if ctl.client.my_turn():
            for a in ("draw", "meld K K K"):
                if parse_action(a) in ctl.client.legal():
                    ctl.type_action(a)
            if ctl.client.my_turn():
                if not ctl.client.lit()["discard"]:
                    ctl.key("U")
                ctl.key("c")
        else:
            t.step()
        ctl.message = []
    while not ctl.client.my_turn() and t.match.state.phase != Phase.HAND_OVER:
        t.step()
    ctl.key("d")
    ctl.key("right")
    ctl.key("space")
    return ctl


def render_times(n: int = 300) -> list[float]:
    ctl = busy_controller()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        ctl.paint(80, 24, DEFAULT_OPTIONS).fragments()
        out.append(time.perf_counter() - t0)
    return out


async def _terminal_run(seed: int, delay_ms: int = 0, rounds: int = 5) -> dict[str, Any]:
    t_start = time.perf_counter()
    out = ByteCounter()
    t = Table(load_rules("classic"), seats_for(1, "beginner"), seed)
    figures: dict[str, Any] = {}
    with create_pipe_input() as inp:
        output = Vt100_Output(out, lambda: Size(rows=24, columns=80), term="xterm-256color", enable_cpr=False)
        with create_app_session(input=inp, output=output):
            app = TableApp.local(t, delay_ms=delay_ms, input=inp, output=output)
            ctl = app.controller
            task = asyncio.create_task(app.run_async())
            while app.frames == 0 or out.bytes == 0:
                await asyncio.sleep(0.001)
            figures["first_frame_s"] = time.perf_counter() - t_start
            figures["first_frame_bytes"] = out.bytes
            # With a delay the deal is shown card by card: its bytes, to the last card painted.
            t_deal = time.perf_counter()
            while ctl.client.dealing is not None:
                await asyncio.sleep(0.001)
            figures["deal_s"] = time.perf_counter() - t_deal

            async def settle() -> None:
                # Wait until the screen is painted and nothing is pending.
                last = -1
                while last != out.bytes:
                    last = out.bytes
                    await asyncio.sleep(0.05)

            async def press(key: str) -> None:
                n = ctl.keys_handled
                inp.send_text(key)
                while ctl.keys_handled == n:
                    await asyncio.sleep(0.001)

            while not ctl.client.my_turn():
                await asyncio.sleep(0.005)
            await settle()
            figures["deal_bytes"] = out.bytes - figures["first_frame_bytes"]
            await press("d")
            await settle()
            per_key = []
            for i in range(40):
                before = out.bytes
                await press("l" if (i // 5) % 2 == 0 else "\x1b[D")      # Left: h is the hint
                await settle()
                per_key.append(out.bytes - before)
            figures["bytes_per_cursor_key"] = statistics.mean(per_key)
            figures["bytes_per_cursor_key_max"] = max(per_key)
            def over() -> bool:
                return t.match.state.phase == Phase.HAND_OVER

            # Discard, then count the bytes until it is our turn again (three computer turns).
            turns = 0
            total = 0
            for _ in range(rounds):
                while ctl.message:
                    await press("x")
                if not ctl.client.my_turn() or over():
                    break
                if ctl.client.lit()["draw"]:
                    await press("d")
                await settle()
                before = out.bytes
                seat_turn = t.match.state.turn
                await press("c")
                while t.match.state.turn == seat_turn and not over():
                    await asyncio.sleep(0.001)
                while not ctl.client.my_turn() and not over():
                    await asyncio.sleep(0.002)
                await settle()
                if over():
                    break
                total += out.bytes - before
                turns += 3
            figures["bytes_per_computer_turn"] = total / turns if turns else None
            ctl.quitting = True
            app.app.exit()
            await asyncio.wait_for(task, 5)
    return figures


def run(seed: int = 5, paced_delay_ms: int = DEFAULT_DELAY_MS, paced_rounds: int = 3) -> dict[str, Any]:
    times = sorted(render_times())
    result: dict[str, Any] = {
        "render_p50_ms": statistics.median(times) * 1000,
        "render_p95_ms": times[int(len(times) * 0.95)] * 1000,
    }
    result.update(asyncio.run(_terminal_run(seed)))
    # At the default pace every computer action is painted on its own (at 0 ms several are
    # painted together): what an SSH link carries in play.
    paced = asyncio.run(_terminal_run(seed, paced_delay_ms, rounds=paced_rounds))
    result["bytes_per_computer_turn_paced"] = paced["bytes_per_computer_turn"]
    result["paced_delay_ms"] = paced_delay_ms
    # The deal is shown only with a delay: its bytes (to the first turn) at the default pace.
    result["deal_bytes_paced"] = paced["deal_bytes"]
    result["deal_s_paced"] = paced["deal_s"]
    result["targets"] = TARGETS
    return result


def report(r: dict[str, Any]) -> str:
    def mark(ok: bool) -> str:
        return "ok" if ok else "OVER TARGET"
    lines = [
        f"first full frame       {r['first_frame_s'] * 1000:8.1f} ms   ({r['first_frame_bytes']} bytes)"
        f"  target < {TARGETS['first_frame_s'] * 1000:.0f} ms  {mark(r['first_frame_s'] < TARGETS['first_frame_s'])}",
        f"render busy table p50  {r['render_p50_ms']:8.2f} ms",
        f"render busy table p95  {r['render_p95_ms']:8.2f} ms   target < {TARGETS['render_p95_ms']:.0f} ms"
        f"  {mark(r['render_p95_ms'] < TARGETS['render_p95_ms'])}",
        f"bytes per cursor key   {r['bytes_per_cursor_key']:8.1f}      (max {r['bytes_per_cursor_key_max']})"
        f"  target < {TARGETS['bytes_per_cursor_key']}  {mark(r['bytes_per_cursor_key'] < TARGETS['bytes_per_cursor_key'])}",
        "bytes per computer turn " + (f"{r['bytes_per_computer_turn']:7.0f}" if r["bytes_per_computer_turn"]
                                      else "    n/a") + "      (--delay 0: moves painted together)",
        "bytes per computer turn " + (f"{r['bytes_per_computer_turn_paced']:7.0f}" if r["bytes_per_computer_turn_paced"]
                                      else "    n/a") + f"      (--delay {r['paced_delay_ms']}"
        + (", the default" if r["paced_delay_ms"] == DEFAULT_DELAY_MS else "") + ": each move painted)",
        f"bytes to the first turn {r['deal_bytes']:7d}      (--delay 0: the deal is not shown)",
        f"bytes to the first turn {r['deal_bytes_paced']:7d}      (--delay {r['paced_delay_ms']}: the deal shown card by "
        f"card, {r['deal_s_paced'] * 1000:.0f} ms)",
    ]
    return "\n".join(lines)
