"""A whole room on this machine, as the tests start it (issue 32): PostgreSQL, NATS and HAProxy as
plain processes in a temporary directory on free ports of 127.0.0.1, and ``canasta serve --role …``
nodes as processes of their own; ``canasta cluster try`` starts them all and ``tests/engines.py``'s
fixtures are these same functions.  Never the machine's own services.

:func:`postgres_server` runs ``initdb`` and ``postgres`` from Debian's ``postgresql`` package
(``/usr/lib/postgresql/*/bin``) as the ``postgres`` user where we run as root (PostgreSQL refuses
to run as root), in a directory of its own made with :func:`tempfile.mkdtemp` and given to that
user.  It listens on 127.0.0.1 and a Unix socket in that directory only, on a free port,
durability off (``fsync=off``: a trial's database is thrown away).  It is stopped by its PID in a
``finally``: a fast shutdown (SIGINT), then SIGKILL to its process group after :data:`STOP_WAIT`
seconds; should the process that started it be killed, the kernel kills it too
(``PR_SET_PDEATHSIG``).

:func:`nats_server` runs Debian's ``nats-server`` (with JetStream) the same way, on a port it picks
itself (``-p -1``) and writes to a ports file (no race for a free port).

:func:`haproxy_server` runs Debian's ``haproxy -db -f CONFIG`` in TCP mode on 127.0.0.1 and a free
port, in front of the given backends with ``send-proxy-v2`` and health checks
(:func:`haproxy_config`, the configuration ``docs/cluster.md`` shows).

:func:`node` runs one ``canasta serve --role ROLE`` in a directory of its own, ready when it says so
on stderr; :func:`try_room` all of it: the engines, owners and fronts, HAProxy in front.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

import psycopg

#: How long the server may take to accept connections (initdb and start on a busy 2-core machine).
START_WAIT = 60.0
#: How long a fast shutdown may take before the server's processes are killed.
STOP_WAIT = 15.0
#: The OS user PostgreSQL runs as where the tests run as root.
PG_USER = "postgres"


class EngineMissing(RuntimeError):
    """An engine's program is not installed: says which package to install."""


def pg_bin() -> Path:
    """The directory of Debian's PostgreSQL programs (the newest version installed)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    if not found:
        raise EngineMissing("PostgreSQL is not installed: apt-get install postgresql (.ci/run installs it)")
    return found[-1].parent


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the engine binds it a moment later; a clash is retried)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Postgres:
    """A running throwaway PostgreSQL: where it listens, its PID, its directory and log."""

    port: int
    pid: int
    root: Path
    user: str

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"

    def dsn(self, dbname: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user={self.user} dbname={dbname}"

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _as_postgres() -> dict[str, object]:
    """Popen's arguments that run a program as the postgres user where we are root (its PID is the
    program's own, so it is stopped by that PID; runuser or su would stand between)."""
    if os.geteuid() != 0:
        return {}
    try:
        pw = pwd.getpwnam(PG_USER)
    except KeyError:
        raise EngineMissing(f"no {PG_USER} user: apt-get install postgresql (.ci/run installs it)") from None
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LC_ALL": "C", "LANG": "C"}
    return {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": [], "env": env}


class _Engine(Protocol):
    def log_tail(self, lines: int = 20) -> str: ...


_E = TypeVar("_E", bound=_Engine)
_Proc = subprocess.Popen[bytes]


def _start_until_ready(what: str, start: Callable[[int], tuple[_Proc, _E]], ready: Callable[[_E, _Proc, float], bool],
                       stop: Callable[[_Proc], None], port: int | None = None) -> tuple[_Proc, _E]:
    """Start an engine on a free port (``start(port)``) until it is ``ready`` within :data:`START_WAIT`
    (``port`` given: on that one, once).  A start that fails is most likely a port taken between
    :func:`free_port` and the engine's bind: it is stopped and another port tried, five at most.
    The engine that answers is returned; none: :class:`RuntimeError` with the log's last lines."""
    deadline = time.monotonic() + START_WAIT
    tail = "(no log)"
    for _attempt in range(5 if port is None else 1):
        proc, server = start(free_port() if port is None else port)
        try:
            if ready(server, proc, deadline):
                return proc, server
        except BaseException:
            stop(proc)
            raise
        stop(proc)
        tail = server.log_tail()
        if time.monotonic() > deadline:
            break
    raise RuntimeError(f"{what} did not start within {START_WAIT:g} s:\n{tail}")


def _die_with_parent() -> None:
    """In the engine's process before it starts (after it became the postgres user, which would
    clear it): the kernel kills it when the test process that started it dies, even by SIGKILL
    (an xdist worker killed mid-test), where no ``finally`` runs."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)       # PR_SET_PDEATHSIG


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server by its PID: a fast shutdown, then SIGKILL to its process group."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGINT)
        try:
            proc.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            pass
    # (its backends are in the group it leads: none outlives it, even after a SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_WAIT)


@contextlib.contextmanager
def postgres_server() -> Iterator[Postgres]:
    """A throwaway PostgreSQL on 127.0.0.1 and a free port, stopped by its PID when the block ends,
    however it ends; its directory is removed."""
    bindir = pg_bin()
    as_pg = _as_postgres()
    root = Path(tempfile.mkdtemp(prefix="canasta-pg-"))
    proc: subprocess.Popen[bytes] | None = None
    try:
        data, sock = root / "data", root / "sock"
        sock.mkdir()
        if as_pg:
            for p in (root, sock):
                os.chown(p, int(str(as_pg["user"])), int(str(as_pg["group"])))
        user = PG_USER if as_pg else pwd.getpwuid(os.geteuid()).pw_name
        init = subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", user, "-A", "trust", "-E", "UTF8",
                               "--locale=C", "--no-sync"], capture_output=True, timeout=START_WAIT, check=False,
                              **as_pg)  # type: ignore[call-overload]
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed ({init.returncode}): {init.stderr.decode(errors='replace')[-2000:]}")

        def start(port: int) -> tuple[_Proc, Postgres]:
            with open(root / "postgres.log", "ab") as log:
                started: _Proc = subprocess.Popen(
                    [str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(sock),
                     "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                     "-c", "full_page_writes=off", "-c", "max_connections=60", "-c", "shared_buffers=16MB"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                    preexec_fn=_die_with_parent, **as_pg)  # type: ignore[call-overload]
            return started, Postgres(port, started.pid, root, user)

        proc, server = _start_until_ready("PostgreSQL", start, _ready, _stop)
        yield server
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(root, ignore_errors=True)


def _ready(server: Postgres, proc: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait (bounded) until the server accepts connections; False if it stopped or the time ran out."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with psycopg.connect(server.dsn(), connect_timeout=2):
                return True
        except psycopg.OperationalError:
            time.sleep(0.1)
    return False


# ---------------------------------------------------------------------------------------- NATS
#: Debian's nats-server (package ``nats-server``).
NATS_BIN = "nats-server"


@dataclass
class Nats:
    """A running throwaway nats-server: its address, its PID, its directory and log."""

    port: int
    pid: int
    root: Path
    #: Its monitoring address (``http://127.0.0.1:PORT``) when started with ``monitor=True``, else "".
    monitor: str = ""

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.root / "nats.log"

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _nats_stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop nats-server by its PID: SIGTERM (it closes at once), then SIGKILL."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(STOP_WAIT)


@contextlib.contextmanager
def nats_server(port: int | None = None, *, monitor: bool = False) -> Iterator[Nats]:
    """A throwaway nats-server with JetStream on 127.0.0.1 (``port``, or one it picks), stopped by
    its PID when the block ends, however it ends; its directory is removed.  (``port`` given: a
    test that restarts the bus where its clients will reconnect.)  ``monitor``: its HTTP monitoring
    on 127.0.0.1 too, on a port it picks (:attr:`Nats.monitor`; the bench reads each node's message
    counts there)."""
    exe = shutil.which(NATS_BIN) or next((p for p in ("/usr/sbin/nats-server", "/usr/bin/nats-server")
                                          if os.path.exists(p)), None)
    if exe is None:
        raise EngineMissing("nats-server is not installed: apt-get install nats-server (.ci/run installs it)")
    root = Path(tempfile.mkdtemp(prefix="canasta-nats-"))
    proc: subprocess.Popen[bytes] | None = None
    try:
        with open(root / "nats.log", "ab") as log:
            proc = subprocess.Popen(
                [exe, "-a", "127.0.0.1", "-p", str(port if port is not None else -1), "--jetstream",
                 "--store_dir", str(root / "jetstream"), "--ports_file_dir", str(root),
                 *(["-m", "-1"] if monitor else [])],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=_die_with_parent)
        server = _nats_ready(proc, root, time.monotonic() + START_WAIT, monitor)
        yield server
    finally:
        if proc is not None:
            _nats_stop(proc)
        shutil.rmtree(root, ignore_errors=True)


def _nats_ready(proc: subprocess.Popen[bytes], root: Path, deadline: float, monitor: bool = False) -> Nats:
    """Wait (bounded) for the ports file the server writes once it listens, and for its greeting."""
    ports = root / f"nats-server_{proc.pid}.ports"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            said = json.loads(ports.read_text())
            url = said["nats"][0]
            watch = str(said["monitoring"][0]) if monitor else ""
        except (OSError, ValueError, KeyError, IndexError):
            time.sleep(0.05)
            continue
        server = Nats(int(url.rsplit(":", 1)[1]), proc.pid, root, watch)
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
                if s.recv(4).startswith(b"INFO"):
                    return server
        except OSError:
            pass
        time.sleep(0.05)
    tail = Nats(0, proc.pid, root).log_tail()
    raise RuntimeError(f"nats-server did not start within {START_WAIT:g} s:\n{tail}")


# ---------------------------------------------------------------------------------------------- HAProxy
#: HAProxy's program (Debian's ``haproxy`` package).
HAPROXY = "haproxy"


@dataclass
class HAProxy:
    """A running throwaway HAProxy in TCP mode: the one address (``port``) in front of ``backends``,
    its PID, directory, log, and its admin socket (``servers()`` says which backends it sees up)."""

    port: int
    pid: int
    root: Path
    backends: tuple[int, ...]

    @property
    def log(self) -> Path:
        return self.root / "haproxy.log"

    @property
    def admin_socket(self) -> Path:
        return self.root / "admin.sock"

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def ask(self, command: str) -> str:
        """A command on the admin socket (``show info``, ``show servers state``), its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(str(self.admin_socket))
            s.sendall(command.encode() + b"\n")
            out = bytearray()
            while chunk := s.recv(65536):
                out += chunk
        return out.decode(errors="replace")

    def servers(self) -> dict[int, bool]:
        """Each backend's port, and whether HAProxy's health check sees it up."""
        state: dict[int, bool] = {}
        lines = self.ask("show servers state fronts").splitlines()
        # "be_id be_name srv_id srv_name srv_addr srv_op_state ... srv_port ...": the header names the fields
        header = next((ln.lstrip("# ").split() for ln in lines if ln.startswith("# be_id")), [])
        if not header:
            return state
        op, port = header.index("srv_op_state"), header.index("srv_port")
        for ln in lines:
            fields = ln.split()
            if len(fields) == len(header) and fields[0].isdigit():
                state[int(fields[port])] = fields[op] == "2"        # SRV_ST_RUNNING
        return state

    def sessions(self) -> dict[int, int]:
        """Each backend's port, and the connections HAProxy holds open to it now (``show stat``'s scur)."""
        lines = self.ask("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",") if lines else []
        if "svname" not in header or "scur" not in header:
            return {}
        name, cur = header.index("svname"), header.index("scur")
        ports = {f"front{i + 1}": p for i, p in enumerate(self.backends)}     # (haproxy_config's names)
        counts: dict[int, int] = {}
        for ln in lines[1:]:
            fields = ln.split(",")
            if len(fields) > max(name, cur) and fields[name] in ports and fields[cur].isdigit():
                counts[ports[fields[name]]] = int(fields[cur])
        return counts


def haproxy_config(port: int, backends: tuple[int, ...], root: Path, *, proxy: str = "send-proxy-v2",
                   check_ms: int = 200) -> str:
    """HAProxy in TCP mode on 127.0.0.1:``port``, balancing ``backends`` (ports on 127.0.0.1) with
    ``proxy`` (``send-proxy-v2``, ``send-proxy``, or "" for none) and a health check every
    ``check_ms`` (a backend is down after one failed check, and a connection that fails to reach
    one is sent to another: ``option redispatch``).  The config docs/cluster.md shows, on free ports."""
    servers = "\n".join(f"    server front{i + 1} 127.0.0.1:{p} {proxy} check inter {check_ms} fall 1 rise 1"
                        for i, p in enumerate(backends))
    return f"""global
    maxconn 1000
    log stderr format raw local0 info
    stats socket {root / "admin.sock"} mode 600 level admin

defaults
    mode tcp
    log global
    option tcplog
    option redispatch 1
    retries 2
    timeout connect 2s
    timeout client 2h
    timeout server 2h
    timeout check 2s

frontend door
    bind 127.0.0.1:{port}
    default_backend fronts

backend fronts
    balance roundrobin
{servers}
"""


@contextlib.contextmanager
def haproxy_server(backends: tuple[int, ...] | list[int], *, proxy: str = "send-proxy-v2",
                   check_ms: int = 200, port: int | None = None) -> Iterator[HAProxy]:
    """A throwaway HAProxy (``haproxy -db -f CONFIG``, a plain process) on 127.0.0.1 and a free port
    in front of ``backends``, stopped by its PID when the block ends, however it ends."""
    program = shutil.which(HAPROXY) or shutil.which(HAPROXY, path="/usr/sbin:/sbin")
    if program is None:
        raise EngineMissing("HAProxy is not installed: apt-get install haproxy (.ci/run installs it)")
    root = Path(tempfile.mkdtemp(prefix="canasta-haproxy-"))
    proc: subprocess.Popen[bytes] | None = None
    backends = tuple(backends)
    try:

        def start(at: int) -> tuple[_Proc, HAProxy]:
            cfg = root / "haproxy.cfg"
            cfg.write_text(haproxy_config(at, backends, root, proxy=proxy, check_ms=check_ms))
            with open(root / "haproxy.log", "ab") as log:
                started = subprocess.Popen([program, "-db", "-f", str(cfg)], stdin=subprocess.DEVNULL, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True, cwd=root,
                                           preexec_fn=_die_with_parent)
            return started, HAProxy(at, started.pid, root, backends)

        proc, server = _start_until_ready("HAProxy", start, _haproxy_ready, _stop_haproxy, port)
        yield server
    finally:
        if proc is not None:
            _stop_haproxy(proc)
        shutil.rmtree(root, ignore_errors=True)


def _haproxy_ready(server: HAProxy, proc: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait (bounded) until HAProxy answers on its admin socket (it binds its ports before); False if
    it stopped or the time ran out."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            if "Pid:" in server.ask("show info"):
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


def _stop_haproxy(proc: subprocess.Popen[bytes]) -> None:
    """Stop HAProxy by its PID (SIGTERM: a hard stop, connections closed), then SIGKILL its group."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(STOP_WAIT)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_WAIT)


# ---------------------------------------------------------------------------------------------- nodes
#: How long a node may take to start (imports and worker processes on a busy 2-core machine).
NODE_START_WAIT = 90.0
NODE_STOP_WAIT = 20.0


@dataclass
class Node:
    """A running ``canasta serve --role ROLE``: its name, role, process, directory and SSH port (a
    front's; 0 for an owner)."""

    name: str
    role: str
    proc: subprocess.Popen[bytes]
    root: Path
    port: int = 0

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def log(self) -> Path:
        return self.root / "node.log"

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        """``kill -9``: the node dies at once, nothing of it runs after."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(NODE_STOP_WAIT)


def _stop_node(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(NODE_STOP_WAIT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(NODE_STOP_WAIT)


def canasta_command() -> list[str]:
    """The ``canasta`` command of this Python."""
    return [sys.executable, "-c", "import sys; from canasta_tui.entry import main; sys.argv[0] = 'canasta'; main()"]


@contextlib.contextmanager
def node(root: Path, name: str, role: str, *, database: str, bus: str, room: str,
         args: tuple[str, ...] = ("--open", "--port", "0", "--delay", "0", "--seed", "1")) -> Iterator[Node]:
    """``canasta serve --role ROLE`` as a process of its own in ``root/name``, stopped by its PID when
    the block ends (SIGTERM, then SIGKILL), killed with the process that started it."""
    home = root / name
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CANASTA_HOME=str(home), PYTHONUNBUFFERED="1")
    cmd = [*canasta_command(), "serve", "--role", role, "--database", database, "--bus", bus, "--room", room,
           "--node", name, *args]
    proc: subprocess.Popen[bytes] | None = None
    try:
        with open(home / "node.log", "ab") as log:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                                    start_new_session=True, preexec_fn=_die_with_parent)
        n = Node(name, role, proc, home)
        _node_ready(n)
        yield n
    finally:
        if proc is not None:
            _stop_node(proc)


def _node_ready(n: Node) -> None:
    """Wait (bounded) for the node to say it is ready: an owner its tables, a front its port."""
    deadline = time.monotonic() + NODE_START_WAIT
    while time.monotonic() < deadline:
        text = n.log_text()
        if n.proc.poll() is not None:
            raise RuntimeError(f"node {n.name} ended ({n.proc.returncode}) before it was ready:\n{text[-3000:]}")
        if n.role == "owner" and "canasta serve: owner " in text:
            return
        m = re.search(r"ssh -p (\d+) ", text)
        if n.role in ("front", "both") and m:
            n.port = int(m.group(1))
            if n.role == "front" or "canasta serve: owner " in text:
                return
        time.sleep(0.05)
    raise RuntimeError(f"node {n.name} was not ready within {NODE_START_WAIT:g} s:\n{n.log_text()[-3000:]}")


@dataclass
class TrialRoom:
    """A whole room on this machine: where players connect (HAProxy's port), and every process."""

    port: int
    root: Path
    postgres: Postgres
    nats: Nats
    haproxy: HAProxy
    owners: list[Node]
    fronts: list[Node]
    name: str = "main"            # the room's name on the bus

    @property
    def database(self) -> str:
        return self.postgres.dsn("canasta")

    @property
    def host_key(self) -> Path:
        """The fronts' one host key."""
        return self.root / "ssh_host_ed25519_key"


def front_node_args(host_key: Path, port: int = 0, more: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A trial room's front's options: open to anybody, the room's one host key, PROXY headers from
    HAProxy on 127.0.0.1, on ``port`` (0: a free one; a front started again where HAProxy looks)."""
    return ("--open", "--port", str(port), "--host-key", str(host_key), "--proxy-protocol", "--proxy-from",
            "127.0.0.1", *more)


@contextlib.contextmanager
def try_room(root: Path, *, owners: int = 2, fronts: int = 2, port: int | None = None, room: str = "main",
             owner_args: tuple[str, ...] = (), front_args: tuple[str, ...] = (),
             monitor: bool = False) -> Iterator[TrialRoom]:
    """PostgreSQL, NATS, ``owners`` owners and ``fronts`` fronts (one host key, open to anybody, PROXY
    headers from 127.0.0.1) and HAProxy in front of them on ``port`` (None: a free one), all stopped
    by their PIDs when the block ends, however it ends.  ``owner_args`` and ``front_args``: more
    ``canasta serve`` options for each (the bench's limits and pace); ``monitor``: NATS's monitoring."""
    with contextlib.ExitStack() as stack:
        pg = stack.enter_context(postgres_server())
        with psycopg.connect(pg.dsn(), autocommit=True, connect_timeout=10) as admin:
            admin.execute("CREATE DATABASE canasta")
        dsn = pg.dsn("canasta")
        bus = stack.enter_context(nats_server(monitor=monitor))
        key = root / "ssh_host_ed25519_key"
        the_owners = [stack.enter_context(node(root, f"owner-{i + 1}", "owner", database=dsn, bus=bus.url, room=room,
                                               args=owner_args))
                      for i in range(owners)]
        the_fronts = [stack.enter_context(node(root, f"front-{i + 1}", "front", database=dsn, bus=bus.url, room=room,
                                               args=front_node_args(key, 0, front_args)))
                      for i in range(fronts)]
        door = stack.enter_context(haproxy_server([f.port for f in the_fronts], port=port))
        yield TrialRoom(door.port, root, pg, bus, door, the_owners, the_fronts, room)
