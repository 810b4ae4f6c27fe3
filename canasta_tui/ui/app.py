"""The prompt-toolkit application: one full-screen window painted from the controller.

Keys go to :meth:`Controller.key`; the table tells the controller when anything changed
and ``invalidate()`` repaints only then (no clocks, no periodic repaints).  In a local
game the app also drives the table (its computers think in a worker thread, paced by
``delay_ms``); at a server the server drives it and the app is one of its clients.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import signal
import threading
import time
from collections.abc import Callable, Coroutine, Hashable
from concurrent.futures import Executor
from typing import Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase, KeyPressEvent
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings
from prompt_toolkit.key_binding.bindings.page_navigation import load_page_navigation_bindings
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import (
    DEFAULT_ATTRS,
    Attrs,
    BaseStyle,
    DummyStyle,
    DynamicStyle,
    Style,
    default_pygments_style,
    default_ui_style,
)

from ..engine import Rules
from ..table import Link, Table, local_link
from .canvas import DEFAULT_OPTIONS, Canvas, Options, too_small
from .controller import Controller
from .files import Files
from .keys import KEYS
from .style import color_depth, make_style
from .terminal import CanvasRenderer, CanvasWindow

_NAMES = {"c-m": "enter", "c-j": "enter", " ": "space", "c-i": "tab", "s-tab": "s-tab",
          Keys.SIGINT.value: "c-c"}

#: Signals that end the game from outside: the terminal went away (SIGHUP), kill (SIGTERM).
EXIT_SIGNALS = tuple(s for s in (getattr(signal, "SIGHUP", None), signal.SIGTERM) if s is not None)

#: Key events the terminal (not the player) produces: replies to queries, mouse reports while the
#: mouse is off, scrolling, pasted text, sequences prompt-toolkit marks as "ignore".  The
#: ``Keys.Any`` binding sees them all; none of them may dismiss a message or press a button.
NOT_USER_KEYS = frozenset({Keys.CPRResponse, Keys.Ignore, Keys.Vt100MouseEvent, Keys.WindowsMouseEvent,
                           Keys.ScrollUp, Keys.ScrollDown, Keys.BracketedPaste})


#: prompt-toolkit's own handler of mouse reports (clicks reach the canvas's handlers through it).
_MOUSE_HANDLER = next(b.handler for b in load_mouse_bindings().bindings if b.keys == (Keys.Vt100MouseEvent,))


def is_user_key(ev: KeyPressEvent) -> bool:
    """Did a person press this key (as opposed to the terminal reporting something)?"""
    kp = ev.key_sequence[0]
    return kp.key not in NOT_USER_KEYS and not (kp.key == Keys.Any and not kp.data)


def _key_name(ev: KeyPressEvent) -> str:
    kp = ev.key_sequence[0]
    key = kp.key
    if key == Keys.Any:
        return _NAMES.get(kp.data, kp.data)
    name = key.value if isinstance(key, Keys) else str(key)
    return _NAMES.get(name, name)


class Screen(Protocol):
    """One full-screen view of the app: the table's client, the start menu, the SSH lobby.

    The app tells it the keys (names as :mod:`.keys` writes them) and paints what
    ``paint`` draws; the screen calls ``on_change`` after anything changed, and sets
    ``finished`` when the app should go on to the next screen (or end).
    """

    on_change: Callable[[], None]
    on_suspend: Callable[[], None] | None
    keys_handled: int
    bell: bool
    too_small: bool

    @property
    def finished(self) -> bool: ...

    def key(self, name: str) -> None: ...

    def paint(self, width: int, height: int, opts: Options) -> Canvas: ...


#: The most keys kept while the app changes screens (:attr:`ScreenApp.typeahead`): a burst a person
#: types or pastes fits many times over; more (a flood over SSH while a table opens) is refused
#: with the bell rather than held in memory.
MAX_TYPEAHEAD = 256


#: Over SSH, a terminal asked to paint more often than this many times a second (someone holding
#: a key down; a table whose players type as fast as they can) is painted at most this often
#: while that lasts: its frames are gathered (each shows the latest state, at most 0.1 s late),
#: never a key dropped, and the other tables keep their share of the server ("no table slower
#: because another one is busy": at 20 a second a busy table still cost the server 8 points of a
#: core, at 10 it costs 4).  A person at a human pace asks for a few paints a second and is
#: never held back.
HOT_PAINTS_PER_S = 10


@functools.cache
def _default_bindings() -> tuple[KeyBindingsBase, KeyBindingsBase]:
    """prompt-toolkit's default key bindings (Emacs, Vi, mouse, terminal replies) and its page
    navigation, one set for every app: each Application loaded its own, 3,300 objects, nine
    tenths of what a connection to a server holds, which every full garbage collection walked
    and every closed connection left for the collector.  They find the app they serve through
    the key event and ``get_app()``, never keep one."""
    return load_key_bindings(), load_page_navigation_bindings()


@functools.lru_cache(maxsize=4)
def _merged(style: BaseStyle) -> Style:
    """prompt-toolkit's default styles with ``style`` (the game's) over them, merged once for every
    app: each Application merged them into a Style of its own, 900 objects for every connection."""
    return Style([*default_ui_style().style_rules, *default_pygments_style().style_rules, *style.style_rules])


_NO_STYLE = DummyStyle()


class _AppStyle(BaseStyle):
    """The style an app paints with (prompt-toolkit's merged style, shared: :func:`_merged`); it
    follows the app's ``style``, which the options screen may change."""

    def __init__(self, own: Callable[[], BaseStyle | None]) -> None:
        self._own = own

    def _style(self) -> Style:
        own = self._own()
        if isinstance(own, DynamicStyle):
            own = own.get_style()
        return _merged(own if own is not None else _NO_STYLE)

    def get_attrs_for_style_str(self, style_str: str, default: Attrs = DEFAULT_ATTRS) -> Attrs:
        return self._style().get_attrs_for_style_str(style_str, default)

    @property
    def style_rules(self) -> list[tuple[str, str]]:
        return self._style().style_rules

    def invalidation_hash(self) -> Hashable:
        return self._style().invalidation_hash()


class _Application(Application[None]):
    """prompt-toolkit's Application, painting with :class:`~.terminal.CanvasRenderer`, keeping one
    stand-in buffer, and sharing the default key bindings (:func:`_default_bindings`) and the
    merged style (:class:`_AppStyle`).  No text field ever has the focus here, and
    ``current_buffer`` then made a new Buffer each time it was asked, twice per key: a seventh of
    a busy server's CPU (``canasta bench serve``)."""

    _stand_in: Buffer | None = None

    def _create_merged_style(self, include_default_pygments_style: Filter) -> BaseStyle:
        # (prompt-toolkit's own leaves out its Pygments style when told to; these apps never do.)
        return _AppStyle(lambda: self.style)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._default_bindings, self._page_navigation_bindings = _default_bindings()
        r = self.renderer
        self.renderer = CanvasRenderer(r.style, r.output, full_screen=r.full_screen, mouse_support=r.mouse_support,
                                       cpr_not_supported_callback=r.cpr_not_supported_callback)

    @property
    def current_buffer(self) -> Buffer:
        focused = self.layout.current_buffer
        if focused is not None:
            return focused
        if self._stand_in is None:
            self._stand_in = Buffer(name="dummy-buffer")
        return self._stand_in


#: Every named key the screens use (single characters reach them through ``Keys.Any``).
_BOUND = {"enter", "escape", "pageup", "pagedown", "tab", "s-tab", "up", "down", "left", "right", "home", "end",
          "delete", "c-h", "c-c", "c-l", "c-z", "c-u", "backspace", *(f"f{i}" for i in range(1, 13))}


class ScreenApp:
    """The prompt-toolkit application: it shows one :class:`Screen` at a time, in one full-screen
    window, and runs a *flow* (a coroutine showing screens in turn: the table; the start menu,
    then the table; the lobby, then a table ...)."""

    def __init__(self, *, options: Options = DEFAULT_OPTIONS, color: bool | str = True, input: Input | None = None,
                 output: Output | None = None, remote: bool = False) -> None:
        # color: True/False (colours or monochrome), or a --color mode (auto, always, never).
        depth = color_depth(color) if isinstance(color, str) else (None if color else ColorDepth.DEPTH_1_BIT)
        self.color_depth = depth
        colour = depth != ColorDepth.DEPTH_1_BIT
        self.options = options
        self.remote = remote                          # over SSH: no Ctrl-Z, no signals of our own
        self.screen: Screen | None = None
        self._shown: asyncio.Event | None = None      # set when the current screen finishes
        #: Keys typed while no screen takes them (before the first, or after one finished and before
        #: the flow shows the next): prompt-toolkit hands a whole burst to :meth:`_on_key` before the
        #: flow runs again, so the keys after a menu's choice came while the menu was still up.
        self.typeahead: collections.deque[str] = collections.deque()
        self.frames = 0
        self.render_times: collections.deque[float] = collections.deque(maxlen=10000)   # the latest paints
        self._painted_at: collections.deque[float] = collections.deque(maxlen=HOT_PAINTS_PER_S)
        self.gathering = False                        # over SSH: painting at most HOT_PAINTS_PER_S a second
        self.signalled: int | None = None             # SIGHUP or SIGTERM that ended the app
        #: Where the coach's work runs (None: the loop's worker threads; a server's computer workers).
        self.executor: Executor | None = None
        self._replaced: dict[int, Any] = {}           # the handlers the loop replaced while it ran
        kb = KeyBindings()
        names = set(_BOUND)
        for k in KEYS:
            names.update(n for n in k.keys if len(n) > 1 or n in "?")
        for n in sorted(names):
            key = {"enter": "c-m", "space": " ", "backspace": "c-h"}.get(n, n)
            kb.add(key)(self._on_key)
        kb.add(Keys.Any)(self._on_key)
        kb.add(Keys.Vt100MouseEvent)(self._on_mouse)
        self.style = make_style(colour)
        # Read at every paint, so the options screen changes them while the app runs.
        self.app: Application[None] = _Application(
            layout=Layout(CanvasWindow(self._paint)),
            key_bindings=kb,
            style=DynamicStyle(lambda: self.style),
            full_screen=True,
            mouse_support=Condition(lambda: self.options.mouse),
            color_depth=lambda: self.color_depth,
            input=input,
            output=output,
            erase_when_done=True,
            # Paint as soon as the loop is free: prompt-toolkit's default postpones a paint while other
            # callbacks wait (up to 10 ms), rescheduling it again and again; a server's loop always
            # has some.  Over SSH the size comes with the channel's resize requests, never polled.
            max_render_postpone_time=None,
            terminal_size_polling_interval=None if remote else 0.5,
        )
        self.app.ttimeoutlen = 0.05

    # ------------------------------------------------------------------ screens
    async def show(self, screen: Screen) -> None:
        """Show ``screen`` until it is finished."""
        self.screen = screen
        screen.on_change = self._changed
        if isinstance(screen, Controller):
            screen.client.coach.run = self.run_off
        if hasattr(signal, "SIGTSTP") and not self.remote:
            screen.on_suspend = self._suspend
        self._shown = asyncio.Event()
        self.app.renderer.clear()
        self.app.invalidate()
        # The keys typed during the switch, in order, until one of them finishes this screen too
        # (the rest wait for the next one).
        while self.typeahead and not screen.finished:
            self._deliver(screen, self.typeahead.popleft())
        if not screen.finished:
            await self._shown.wait()

    def show_deals(self, ctl: Controller) -> None:
        """Deal the cards on screen one by one whenever ``ctl`` starts showing a deal (now, if it has)."""
        client = ctl.client

        async def deal() -> None:
            while client.dealing is not None and not ctl.finished:
                await asyncio.sleep(client.deal_pace)
                ctl.deal_step()

        client.on_deal = lambda: self.background(deal())
        if client.dealing is not None:
            client.on_deal()

    def run_off(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``work`` off the screen's thread (:attr:`executor`), then ``done`` with its answer (None
        if it failed) on the loop, and paint: the coach's thinking never blocks a key or a table."""
        async def go() -> None:
            try:
                answer = await asyncio.get_running_loop().run_in_executor(self.executor, work)
            except Exception:
                answer = None
            done(answer)
            self._changed()
        self.background(go())

    def background(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` while the app runs (the table's computers in a local game)."""
        self.app.create_background_task(coro)

    # ------------------------------------------------------------------ painting
    def _paint(self, width: int, height: int) -> Canvas | None:
        screen = self.screen
        if screen is None:
            return None
        t0 = time.perf_counter()
        cv = screen.paint(width, height, self.options)
        if screen.bell:
            screen.bell = False
            self.app.output.bell()
        self.frames += 1
        self.render_times.append(time.perf_counter() - t0)
        self._pace_paints(t0)
        return cv

    def _pace_paints(self, now: float) -> None:
        """Gather this terminal's frames while it is asked for more than HOT_PAINTS_PER_S a second
        (the last that many paints within one second); paint at once again below half that.
        Only over SSH: a terminal of its own shares the machine with nobody."""
        if not self.remote:
            return
        times = self._painted_at
        times.append(now)
        if len(times) < HOT_PAINTS_PER_S:
            return
        span = now - times[0]
        if not self.gathering and span < 1.0:
            self.gathering = True
            self.app.min_redraw_interval = 1 / HOT_PAINTS_PER_S
        elif self.gathering and span > 2.0:
            self.gathering = False
            self.app.min_redraw_interval = None

    def _changed(self) -> None:
        if self.screen is not None and self.screen.finished and self._shown is not None:
            self._shown.set()
        self.app.invalidate()

    def _on_key(self, ev: KeyPressEvent) -> None:
        if not is_user_key(ev):
            return
        name = _key_name(ev)
        screen = self.screen
        if screen is None or screen.finished or self.typeahead:
            # No screen takes keys now: the next one gets them (:meth:`show`), after those before.
            if len(self.typeahead) >= MAX_TYPEAHEAD:
                self.app.output.bell()       # refused, and said so: a paste far longer than any play
                return
            self.typeahead.append(name)
            return
        self._deliver(screen, name)

    def _deliver(self, screen: Screen, name: str) -> None:
        size = self.app.output.get_size()
        screen.too_small = too_small(size.columns, size.rows)
        if name == "c-l":
            # Ctrl-L: forget what is on the terminal and paint every cell again.
            self.app.renderer.clear()
        screen.key(name)

    def _on_mouse(self, ev: KeyPressEvent) -> object:
        """A mouse report: a click when the mouse is on; else nothing.  ESC [ 3 1 m (a colour
        sequence typed or pasted) parses as a report that prompt-toolkit's handler cannot read:
        it raised, and prompt-toolkit stopped the table to say "Press ENTER"; it is ignored."""
        if not self.options.mouse:
            return None
        try:
            return _MOUSE_HANDLER(ev)
        except (ValueError, KeyError, IndexError, TypeError):
            return None

    def _suspend(self) -> None:
        """Ctrl-Z: stop like any terminal program; on ``fg`` prompt-toolkit takes the terminal
        back and the whole screen is painted again."""
        self.app.suspend_to_background()

    # ------------------------------------------------------------------ running
    async def flow(self) -> None:
        """What this app shows, screen after screen (a subclass's)."""

    def _start_flow(self) -> None:
        async def flow() -> None:
            try:
                await self.flow()
            finally:
                if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
                    self.app.exit()
        self.background(flow())

    def _catch_exit_signals(self) -> None:
        """SIGHUP and SIGTERM while the app runs end the app on the event loop.

        A Python signal handler runs between two bytecodes of the main thread, which here runs
        the event loop: the exit saver's SystemExit could land inside a task (the computer-player
        pump, in the middle of an autosave), and prompt-toolkit reported it as "Unhandled exception
        in event loop ... SystemExit: 143".  On the loop the signal only asks the app to exit; the
        handler it replaced (the exit saver: save, then exit with 128 + signal) gets the signal
        once the loop is done and the terminal is restored (:meth:`run`).
        """
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for sig in EXIT_SIGNALS:
            previous = signal.getsignal(sig)
            if previous in (signal.SIG_IGN, None):
                continue
            try:
                loop.add_signal_handler(sig, self._exit_on_signal, sig)
            except (ValueError, RuntimeError, NotImplementedError):
                continue
            self._replaced[sig] = previous

    def _exit_on_signal(self, sig: int) -> None:
        if self.signalled is None:
            self.signalled = sig
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit()

    def run(self) -> None:
        """Run the flow until it ends; SIGHUP/SIGTERM end the app first, then reach their handler."""
        self._replaced.clear()
        self.signalled = None

        def pre_run() -> None:
            self._catch_exit_signals()
            self._start_flow()
        try:
            self.app.run(pre_run=pre_run)
        finally:
            for sig, handler in self._replaced.items():   # closing the loop left SIG_DFL there
                signal.signal(sig, handler)
            if self.signalled is not None:
                signal.raise_signal(self.signalled)       # the exit saver runs now, outside the loop

    async def run_async(self, set_exception_handler: bool = True) -> None:
        """Run the flow in the running event loop.  ``set_exception_handler`` False leaves the loop's
        exception handler alone (a server: prompt-toolkit's would stop one player's screen to show
        an error, and it is the loop's, shared by every player).  Over SSH the app takes none of
        the process's signals: prompt-toolkit's SIGINT handler, removed when the app ended, took
        the server's own with it (Ctrl-C no longer stopped a server one player had left)."""
        try:
            await self.app.run_async(pre_run=self._start_flow, set_exception_handler=set_exception_handler,
                                     handle_sigint=not self.remote)
        finally:
            if self.remote:
                _forget_ended_resize_handler()


def _forget_ended_resize_handler() -> None:
    """prompt-toolkit's Application takes SIGWINCH while it runs and puts back, when it ends, the
    handler it found: apps of one server's loop end in any order, and the handler put back was
    then the resize of an app that had ended, which kept that app and its connection alive.  An
    app over SSH learns its size from its channel, never from the signal: such a handler goes."""
    sigwinch = getattr(signal, "SIGWINCH", None)
    if sigwinch is None:
        return
    loop = asyncio.get_running_loop()
    handle = getattr(loop, "_signal_handlers", {}).get(sigwinch)
    app = getattr(getattr(handle, "_callback", None), "__self__", None)
    if isinstance(app, Application) and not app.is_running:
        loop.remove_signal_handler(sigwinch)


#: How long the deal takes on screen at a local table (any key skips it; none at delay 0).
DEAL_SECONDS = 0.8


def deal_pace(rules: Rules, delay_ms: int) -> float:
    """Seconds per card of the deal shown at a local table: the whole deal in :data:`DEAL_SECONDS`,
    or 0 (not shown) when the computers play without a delay."""
    return DEAL_SECONDS / (rules.hand_size * rules.players) if delay_ms > 0 else 0.0


class TableApp(ScreenApp):
    """The table's client (one seat, several in hot-seat, or none to watch) as the whole app."""

    def __init__(self, link: Link, *, drive: Table | None = None, delay_ms: int = 500,
                 files: Files | None = None, sort: str = "rank", remote: bool = False, **kw: Any) -> None:
        """``link`` is what this client may read and play; ``drive`` is the table to drive (its
        computers) when this app is the table's only client, as in a local game."""
        super().__init__(remote=remote, **kw)
        self.link = link
        self.table = drive
        if drive is not None:
            drive.delay = delay_ms / 1000
        pace = deal_pace(link.rules, delay_ms) if drive is not None and not remote else 0.0
        self.controller = Controller(link, files, sort=sort, remote=remote, deal_pace=pace)

    @classmethod
    def local(cls, table: Table, **kw: Any) -> TableApp:
        """The app of a game at this terminal: its players' link, and it drives the table."""
        return cls(local_link(table), drive=table, **kw)

    async def flow(self) -> None:
        if self.table is not None:
            self.background(self.table.run())
        self.show_deals(self.controller)
        await self.show(self.controller)
