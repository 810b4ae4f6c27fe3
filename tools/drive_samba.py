"""Play Samba as a person in a real terminal: ``canasta`` (or ``ssh`` to ``canasta serve``) in tmux
at 80x24, driven by keys (issue 19's "Done means").

The driver reads the screen with ``tmux capture-pane -p`` and types with ``tmux send-keys``.
For its seat's moves it asks an Advanced computer player, which sees only the seat's view: the
view is rebuilt from the game's own save file (the local autosave after every move, or the
server's table file), checked against the hand the screen shows, and the action is typed as a
person types it (``tests/ui/keys_for.py``: Home, Right to a card, Space, then the command).

Local (from the start menu: Rules page to samba, Options to a computer delay of 0, then "One
Human Player"; a fresh home in ``--home``)::

    python tools/drive_samba.py local --home /tmp/samba-home --hands 0 --screens /tmp/screens

Over SSH (a server started beforehand with its CANASTA_HOME; this creates a Samba table in the
lobby, starts it and plays)::

    python tools/drive_samba.py ssh --port 2222 --key /tmp/id_ann --server-home /tmp/srv --hands 1

``--hands 0`` plays the match to its end.  Screens worth keeping (the first sequence melded, the
first samba, every hand's summary, the match's end) are written to ``--screens``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from canasta_tui.ai import make_player  # noqa: E402
from canasta_tui.engine import Phase, view_for  # noqa: E402
from canasta_tui.persistence.saves import SaveError, read_record  # noqa: E402
from tests.ui.keys_for import hand_on_screen, hand_order, keys_for, tmux_keys  # noqa: E402


class Pane:
    """One tmux server (``-L socket``) with one session ``t`` at 80x24."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def start(self, command: str) -> None:
        self.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", command)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *tmux_keys(list(keys)))

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait(self, pred: str | re.Pattern[str], timeout: float = 20) -> str:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.screen()
            if (pred.search(text) if isinstance(pred, re.Pattern) else pred in text):
                return text
            time.sleep(0.05)
        raise SystemExit(f"the screen never showed {pred!r}:\n{text}")

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


class Driver:
    def __init__(self, pane: Pane, save: Path, seat: int, screens: Path | None) -> None:
        self.pane = pane
        self.save = save
        self.seat = seat
        self.screens = screens
        self.person = make_player("advanced", 19)
        self.kept: dict[str, str] = {}
        self.summaries: list[str] = []
        self.moves = 0
        self.stuck = 0

    def keep(self, name: str, text: str) -> None:
        if name in self.kept and not name.startswith("summary"):
            return
        self.kept[name] = text
        if self.screens is not None:
            self.screens.mkdir(parents=True, exist_ok=True)
            (self.screens / f"{len(self.kept):02d}-{name}.txt").write_text(text, encoding="utf-8")
        print(f"--- {name}\n{text}", flush=True)

    def state(self):  # type: ignore[no-untyped-def]
        try:
            return read_record(self.save).match.state
        except (SaveError, OSError, ValueError):
            return None

    def play(self, hands: int, timeout: float) -> None:
        end = time.monotonic() + timeout
        last = ""
        still = 0.0
        while time.monotonic() < end:
            text = self.pane.screen()
            if re.search(r"wins? the match!|The match is over", text):
                self.keep("match-over", text)
                return
            if re.search(r"Hand \d+ is over", text):
                self.summaries.append(text)
                self.keep(f"summary-{len(self.summaries)}", text)
                if "samba" in text and re.search(r" \d samba[s]? +\d+", text):
                    self.keep("summary-with-samba", text)
                if hands and len(self.summaries) >= hands:
                    return
                self.pane.keys("enter")
                self.pane.wait(re.compile(r"^(?!.*Hand \d+ is over)", re.S), timeout=10)
                continue
            if "Enter: next hand" in text or "Enter: continue" in text:
                self.pane.keys("enter")
                time.sleep(0.2)
                continue
            if 'asks: "May I go out, partner?"' in text:
                st = self.state()
                if st is not None and st.phase == Phase.PERMISSION:
                    a = self.person.choose(view_for(st, self.seat))
                    self.pane.keys("y" if a.kind == "yes" else "n")
                    time.sleep(0.2)
                continue
            if text != last:
                last, still = text, time.monotonic()
            if "Your hand (" not in text:
                time.sleep(0.05)
                continue
            if time.monotonic() - still < 0.15:
                time.sleep(0.05)           # let the screen and the save settle
                continue
            self.move(text)
        raise SystemExit("timed out")

    def move(self, text: str) -> None:
        st = self.state()
        shown = hand_on_screen(text)
        hand = None if shown is None or st is None else hand_order(shown, st.hands[self.seat])
        if self.stuck >= 3:
            self.pane.keys("x")            # a message the person reads and dismisses
            self.stuck = 0
        if st is None or hand is None or st.actor != self.seat or st.phase == Phase.HAND_OVER \
                or len(hand) != len(st.hands[self.seat]):
            time.sleep(0.1)                # the save and the screen disagree for a moment
            return
        v = view_for(st, self.seat)
        a = self.person.choose(v)
        keys = keys_for(a, hand, v)
        if keys is None:
            print(f"no keys for {a}: a simple key instead", flush=True)
            keys = ["c"] if v.phase == Phase.MELD else ["d"]
        row = st.melds[st.team_of(self.seat)]
        seqs = sum(1 for m in row if m is not None and m.is_sequence)
        sambas = sum(1 for m in row if m is not None and m.is_sequence and m.is_canasta)
        self.pane.keys(*keys)
        self.moves += 1
        time.sleep(0.1)
        after = self.pane.screen()
        st2 = self.state()
        self.stuck = self.stuck + 1 if st2 == st else 0
        if st2 is not None and st2.phase != Phase.HAND_OVER:
            row2 = st2.melds[st2.team_of(self.seat)]
            if sum(1 for m in row2 if m is not None and m.is_sequence) > seqs:
                self.keep("sequence-melded", f"(the person played: {a})\n{after}")
            if sum(1 for m in row2 if m is not None and m.is_sequence and m.is_canasta) > sambas:
                self.keep("samba-completed", f"(the person played: {a})\n{after}")


def local(args: argparse.Namespace) -> Driver:
    home = Path(args.home)
    home.mkdir(parents=True, exist_ok=True)
    dirs = " ".join(f"{v}={home / v.lower()}" for v in
                    ("CANASTA_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"))
    pane = Pane(args.socket)
    color = "NO_COLOR=1 " if args.no_color else ""
    seeded = f" --seed {args.seed} --rules samba --delay 0" if args.seed is not None else ""
    pane.start(f"env {color}LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color HOME={home} {dirs} "
               f"{ROOT / '.venv' / 'bin' / 'canasta'}{seeded}")
    if args.seed is not None:
        # canasta --seed deals its game at once (no start menu): the rules and delay come along.
        pane.wait("CANASTA — samba rules — hand 1")
        return Driver(pane, home / "canasta_home" / "state" / "autosave.json", 0,
                      Path(args.screens) if args.screens else None)
    pane.wait("Start menu")
    pane.keys("u")
    pane.wait("Rule options")
    for _ in range(12):
        if "new games: samba" in pane.screen():
            break
        pane.keys("right")
        time.sleep(0.1)
    pane.wait("new games: samba")
    pane.keys("q")
    pane.wait("Start menu")
    pane.keys("o")
    pane.wait("Computer delay")
    pane.keys("down", "down")
    for _ in range(10):
        pane.keys("left")
    pane.wait(re.compile(r"Computer delay +0 ms"))
    pane.keys("q")
    menu = pane.wait("rules: samba")
    print(menu, flush=True)
    pane.keys("1")
    pane.wait("CANASTA — samba rules — hand 1")
    save = home / "canasta_home" / "state" / "autosave.json"
    return Driver(pane, save, 0, Path(args.screens) if args.screens else None)


def ssh(args: argparse.Namespace) -> Driver:
    pane = Pane(args.socket)
    cmd = (f"ssh -F /dev/null -p {args.port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
           f"-o LogLevel=ERROR -o IdentitiesOnly=yes -i {args.key} -o PreferredAuthentications=publickey "
           f"{args.user}@127.0.0.1")
    color = "NO_COLOR=1 " if args.no_color else ""
    pane.start(f"env -i {color}PATH=/usr/bin:/bin HOME={Path(args.key).parent} LANG=C.UTF-8 TERM=xterm-256color {cmd}")
    lobby = pane.wait(re.compile(r"Lobby|samba rules — hand"), timeout=30)
    print(lobby, flush=True)
    save = Path(args.server_home) / "data" / "server" / "tables" / f"{args.table}.json"
    if "Lobby" not in lobby:
        # Back at the table this person left (the server keeps the seat): play on there.
        return Driver(pane, save, 0, Path(args.screens) if args.screens else None)
    pane.keys("n")
    text = pane.wait("New table")
    for _ in range(12):
        if re.search(r"Rules:\s+< samba >", pane.screen()):
            break
        pane.keys("right")
        time.sleep(0.2)
    text = pane.wait(re.compile(r"Rules:\s+< samba >"))
    print(text, flush=True)
    pane.keys("enter")
    text = pane.wait("is yours")
    print(text, flush=True)
    pane.keys("s")
    text = pane.wait("CANASTA — samba rules — hand 1", timeout=30)
    print(text, flush=True)
    return Driver(pane, save, 0, Path(args.screens) if args.screens else None)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="where", required=True)
    lo = sub.add_parser("local")
    lo.add_argument("--home", required=True)
    lo.add_argument("--seed", type=int, default=None,
                    help="canasta --seed N --rules samba --delay 0: a seeded game at once, without the start menu")
    sh = sub.add_parser("ssh")
    sh.add_argument("--port", type=int, required=True)
    sh.add_argument("--key", required=True)
    sh.add_argument("--user", default="ann")
    sh.add_argument("--server-home", required=True)
    sh.add_argument("--table", type=int, default=1, help="the number the server gives the new table")
    for q in (lo, sh):
        q.add_argument("--socket", default="drive-samba")
        q.add_argument("--hands", type=int, default=0, help="stop after this many hands' summaries (0: the match)")
        q.add_argument("--screens", default="")
        q.add_argument("--timeout", type=float, default=1800)
        q.add_argument("--no-color", action="store_true")
        q.add_argument("--keep", action="store_true", help="leave the tmux server running")
    args = p.parse_args()
    try:
        d = local(args) if args.where == "local" else ssh(args)
    except BaseException:
        Pane(args.socket).kill()
        raise
    try:
        d.play(args.hands, args.timeout)
        print(f"moves typed: {d.moves}; summaries: {len(d.summaries)}; kept: {', '.join(d.kept)}")
    finally:
        if not args.keep:
            d.pane.kill()


if __name__ == "__main__":
    main()
