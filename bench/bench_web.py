"""The web table under load: `racecraft serve` in its own process on 127.0.0.1, and 50 tables at
once, each with a scripted person (a client thread that acts as the page does: it listens to the
table's events, fetches the picture when its view changes, answers each of its decisions) and
bots on the server. A table that ends is replaced by a new one, until the time is up (a minute by
default). Every request goes to loopback only, and the run stops by itself.

    python bench/bench_web.py [--tables 50] [--seconds 60]

Prints the decisions taken per second (people's and bots', from the server's database) and the
response times of the people's requests (decide, picture, view): median, 95th percentile, worst.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (game, seats, variants): a person and bots, the games people play most
SETUPS = [("formula5", ["human", "greedy", "random"], []),
          ("heat", ["human", "greedy"], ["sprint"]),
          ("tilerace", ["human", "random"], ["quick"]),
          ("downforce", ["human", "random", "greedy"], [])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Person(threading.Thread):
    """One table after another, each played as its page would, until `deadline`."""

    def __init__(self, port: int, n: int, deadline: float, times: list, lock: threading.Lock):
        super().__init__(daemon=True)
        self.port, self.n, self.deadline = port, n, deadline
        self.times, self.lock = times, lock
        self.tables = self.finished = self.decided = 0
        self.errors: list[str] = []

    def timed(self, conn, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body)
        start = time.perf_counter()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        text = answer.read()
        took = time.perf_counter() - start
        with self.lock:
            self.times.append(took)
        return answer.status, text

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        k = self.n
        while time.monotonic() < self.deadline:
            game, seats, variants = SETUPS[k % len(SETUPS)]
            k += len(SETUPS) + 1
            status, text = self.timed(conn, "POST", "/api/tables",
                                      {"game": game, "seats": seats, "variants": variants, "seed": k})
            if status != 201:
                self.errors.append(f"create: {status} {text[:200]!r}")
                return
            table = json.loads(text)
            self.tables += 1
            if self.play(conn, table):
                self.finished += 1

    def play(self, conn, table: dict) -> bool:
        tid, token = table["id"], table["seats"][0]["token"]
        q = urllib.parse.quote(token)
        events = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        events.request("GET", f"/api/tables/{tid}/events?token={q}")
        stream = events.getresponse()
        picture_of = None
        try:
            while time.monotonic() < self.deadline:
                line = stream.readline()
                if not line:
                    return False
                if not line.startswith(b"data: "):
                    continue
                view = json.loads(line[6:])
                if view["finished"]:
                    return True
                seen = json.dumps(view["view"], sort_keys=True)
                if seen != picture_of:  # the page draws the table again
                    picture_of = seen
                    self.timed(conn, "GET", f"/api/tables/{tid}/picture.svg?token={q}")
                if view["options"]:
                    option = view["options"][(self.decided * 7) % len(view["options"])]["key"]
                    answer = {"token": token, "option": option, "decision": view["decision"]}
                    status, text = self.timed(conn, "POST", f"/api/tables/{tid}/decide", answer)
                    if status == 200:
                        self.decided += 1
                    elif status != 409:
                        self.errors.append(f"decide: {status} {text[:200]!r}")
                        return False
            return False
        except (OSError, http.client.HTTPException) as e:
            if time.monotonic() < self.deadline:
                self.errors.append(f"{type(e).__name__}: {e}")
            return False
        finally:
            events.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long (default 60, at most 600)")
    args = ap.parse_args(argv)
    seconds = max(1.0, min(args.seconds, 600.0))
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.db"
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port),
                                   "--db", str(db)], cwd=ROOT, stderr=subprocess.DEVNULL)
        try:
            ready = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > ready or server.poll() is not None:
                        print("the server did not start", file=sys.stderr)
                        return 1
                    time.sleep(0.1)
            times: list[float] = []
            lock = threading.Lock()
            start = time.monotonic()
            people = [Person(port, n, start + seconds, times, lock) for n in range(args.tables)]
            for p in people:
                p.start()
            for p in people:
                p.join(seconds + 60)
            took = time.monotonic() - start
        finally:
            server.terminate()
            server.wait(20)
        with sqlite3.connect(db) as con:
            decisions = con.execute("SELECT count(*) FROM decisions").fetchone()[0]
    errors = [e for p in people for e in p.errors]
    people_decided = sum(p.decided for p in people)
    print(f"{args.tables} tables at once for {took:.0f} s on {os.cpu_count()} cores: "
          f"{sum(p.tables for p in people)} tables, {sum(p.finished for p in people)} finished")
    print(f"decisions: {decisions} ({people_decided} by the scripted people, the rest by bots): "
          f"{decisions / took:.0f} per second")
    ms = [t * 1000 for t in times]
    print(f"people's requests: {len(times)}; response time median {percentile(ms, 50):.0f} ms, "
          f"95th percentile {percentile(ms, 95):.0f} ms, worst {max(ms, default=0):.0f} ms")
    if errors:
        print(f"{len(errors)} errors, e.g. {errors[0]}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
