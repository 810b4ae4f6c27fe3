"""The ``canasta`` command's first lines: exit cleanly on a signal that comes during start-up.

Python leaves SIGTERM and SIGHUP at their default until the game installs its exit savers, which
happens only after click, prompt-toolkit and the rules are imported and the table is made: on a
busy machine that takes seconds, and a SIGTERM then killed the program outright (exit status
-15, not 143, and no ``finally`` ran).  Before anything else is imported, both signals here
become ``SystemExit(128 + signal)``, the exit the exit savers give; they replace this handler
once there is a game to save.
"""

from __future__ import annotations

import signal
from types import FrameType

#: The signals a terminal or a service manager sends to end the program.
START_UP_SIGNALS = tuple(s for s in (getattr(signal, "SIGHUP", None), signal.SIGTERM) if s is not None)


def exit_during_start_up(signum: int, frame: FrameType | None) -> None:
    """Nothing is saved yet, so there is nothing to save: exit as the exit savers would."""
    raise SystemExit(128 + signum)


def main() -> None:
    for sig in START_UP_SIGNALS:
        if signal.getsignal(sig) is signal.SIG_DFL:    # an ignored SIGHUP (nohup) stays ignored
            signal.signal(sig, exit_during_start_up)
    from .cli import main as cli_main

    cli_main(prog_name="canasta")
