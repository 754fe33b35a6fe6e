"""Test and benchmark support: a throw-away PostgreSQL server, the club server as a process
that can be killed, and a TCP proxy that cuts connections at seeded random points.

All of it listens on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PG_OS_USER = "kibic-pg"
PG_ROLE = "kibic"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries were found (install them with tools/system-deps.sh, or apt-get install postgresql)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bindir() -> Path | None:
    """The folder holding ``postgres``, ``initdb`` and ``pg_ctl`` (PATH, then Debian's layout)."""
    candidates = []
    found = shutil.which("postgres")
    if found:
        candidates.append(Path(found).resolve().parent)
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for folder in candidates:
        if all((folder / b).is_file() for b in ("postgres", "initdb", "pg_ctl")):
            return folder
    return None


class PostgresServer:
    """initdb into a temporary folder, start on a free port (and a private unix socket), stop.

    PostgreSQL refuses to run as root, so as root the server runs as the system user
    ``kibic-pg`` (created with ``useradd`` when missing) through ``runuser`` (or ``su``).
    Durability settings are off: this is a test server.
    """

    def __init__(self, *, durable: bool = False) -> None:
        bindir = postgres_bindir()
        if bindir is None:
            raise PostgresUnavailable(
                "no postgres/initdb/pg_ctl found on PATH or /usr/lib/postgresql"
            )
        self.bindir = bindir
        self.durable = durable
        self.port = 0
        self.root = Path(tempfile.mkdtemp(prefix="kibic-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self._os_user: str | None = None

    def _as_user(self, cmd: list[str]) -> list[str]:
        if self._os_user is None:
            return cmd
        if shutil.which("runuser"):
            return ["runuser", "-u", self._os_user, "--", *cmd]
        return ["su", "-s", "/bin/sh", self._os_user, "-c", " ".join(_quote(c) for c in cmd)]

    def _run(self, cmd: list[str]) -> None:
        done = subprocess.run(self._as_user(cmd), capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{cmd[0]} failed: {done.stdout}{done.stderr}\n{log}")

    def start(self) -> PostgresServer:
        if os.geteuid() == 0:
            self._os_user = ensure_os_user(PG_OS_USER)
            entry = pwd.getpwnam(self._os_user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        initdb = [str(self.bindir / "initdb"), "-D", str(self.data), "-U", PG_ROLE,
                  "--auth=trust", "-E", "UTF8", "--locale=C"]  # fmt: skip
        if not self.durable:
            initdb.append("--no-sync")
        self._run(initdb)
        settings = f"-c listen_addresses=127.0.0.1 -k {self.root} -c max_connections=300"
        if not self.durable:
            settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        for _attempt in range(3):
            self.port = free_port()
            try:
                self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                           "-w", "-t", "60", "-o", f"-p {self.port} {settings}", "start"])  # fmt: skip
                return self
            except RuntimeError:
                continue  # the port was taken in between: another one
        raise RuntimeError(f"postgres did not start; see {self.log}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{PG_ROLE}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user={PG_ROLE} dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.port and (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                           "-w", "stop"])  # fmt: skip
        shutil.rmtree(self.root, ignore_errors=True)


def ensure_os_user(name: str) -> str:
    try:
        pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        name], check=True, capture_output=True, timeout=60)  # fmt: skip
    return name


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


class ClubServerProcess:
    """``kibic club serve`` in a child process, so a test can SIGKILL and restart it."""

    def __init__(self, database_url: str, *, port: int | None = None, log: Path | None = None):
        self.database_url = database_url
        self.port = port or free_port()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, timeout: float = 60.0) -> ClubServerProcess:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kibic.cli", "club", "serve", "--db", self.database_url,
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
            cwd=REPO, env=env, stdout=out, stderr=out,
        )  # fmt: skip
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the club server exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the club server did not become healthy")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class ChaosProxy:
    """A TCP proxy on 127.0.0.1 that cuts connections: each new connection, with probability
    ``cut_probability``, is cut after a random number of bytes; ``cut_some`` cuts a random
    share of the open ones. All draws come from one seeded generator."""

    def __init__(self, upstream_port: int, *, seed: int, cut_probability: float = 0.2,
                 max_bytes: int = 20_000) -> None:  # fmt: skip
        self.upstream_port = upstream_port
        self.rng = random.Random(seed)
        self.cut_probability = cut_probability
        self.max_bytes = max_bytes
        self.cuts = 0
        self._lock = threading.Lock()
        self._open: list[tuple[socket.socket, socket.socket]] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, name="chaos-proxy", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ChaosProxy:
        self._thread.start()
        return self

    def _accept(self) -> None:
        self._listener.settimeout(0.2)
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                budget = (self.rng.randint(0, self.max_bytes)
                          if self.rng.random() < self.cut_probability else None)  # fmt: skip
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
            except OSError:
                client.close()  # the server is down: the table sees a dropped connection
                continue
            pair = (client, upstream)
            with self._lock:
                self._open.append(pair)
            counter = [0]
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(pair, src, dst, budget, counter),
                                 daemon=True).start()  # fmt: skip

    def _pump(self, pair: tuple[socket.socket, socket.socket], src: socket.socket,
              dst: socket.socket, budget: int | None, counter: list[int]) -> None:  # fmt: skip
        try:
            src.settimeout(None)
            while True:
                data = src.recv(65536)
                if not data:
                    break
                counter[0] += len(data)
                if budget is not None and counter[0] > budget:
                    keep = max(0, len(data) - (counter[0] - budget))
                    if keep:
                        dst.sendall(data[:keep])
                    with self._lock:
                        self.cuts += 1
                    break
                dst.sendall(data)
        except OSError:
            pass
        self._close(pair)

    def _close(self, pair: tuple[socket.socket, socket.socket]) -> None:
        with self._lock:
            if pair in self._open:
                self._open.remove(pair)
        for s in pair:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def cut_some(self, share: float = 0.3) -> int:
        with self._lock:
            chosen = [p for p in self._open if self.rng.random() < share]
            self.cuts += len(chosen)
        for pair in chosen:
            self._close(pair)
        return len(chosen)

    def stop(self) -> None:
        self._stop.set()
        self._listener.close()
        with self._lock:
            pairs = list(self._open)
        for pair in pairs:
            self._close(pair)
