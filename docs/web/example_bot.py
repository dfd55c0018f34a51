"""A bot that plays a seat of a web table through the HTTP API (standard library only).

    python docs/web/example_bot.py http://127.0.0.1:8000/table/TABLE#TOKEN

It waits for its seat's decisions on the live updates (server-sent events), and takes the first
option whose preview says something, else any option. The same loop works in any language:
GET the seat's view, POST /decide with one of the options' keys, listen to /events.
"""
from __future__ import annotations

import json
import random
import sys
import urllib.error
import urllib.parse
import urllib.request


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.loads(answer.read())


def events(server: str, table: str, token: str):
    """The seat's view each time it changes (server-sent events)."""
    url = f"{server}/api/tables/{table}/events?token={urllib.parse.quote(token)}"
    with urllib.request.urlopen(url, timeout=60) as stream:
        for line in stream:
            if line.startswith(b"data: "):
                yield json.loads(line[6:])


def choose(view: dict, rng: random.Random) -> int:
    """The key of the option to take."""
    telling = [o for o in view["options"] if o["preview"]]
    return (telling or [rng.choice(view["options"])])[0]["key"]


def play(link: str, seed: int = 0) -> dict:
    """Play the seat of a table link (`.../table/ID#TOKEN`) to the end; the result."""
    parts = urllib.parse.urlsplit(link)
    server = f"{parts.scheme}://{parts.netloc}"
    table, token = parts.path.rsplit("/", 1)[1], parts.fragment
    rng = random.Random(seed)
    while True:  # an event stream ends now and then: open another
        for view in events(server, table, token):
            if view["finished"]:
                return view["result"]
            if view["options"]:
                try:
                    call(f"{server}/api/tables/{table}/decide",
                         {"token": token, "option": choose(view, rng), "decision": view["decision"]})
                except urllib.error.HTTPError as e:
                    if e.code != 409:  # 409: that decision was answered already; the next event tells
                        raise


if __name__ == "__main__":
    result = play(sys.argv[1])
    for p in result["placings"]:
        print(f"{p['place']}. seat {p['seat']}: {p['score']}{'  winner' if p['winner'] else ''}")
