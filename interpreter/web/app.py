"""The web table's HTTP side (FastAPI): the JSON API, its live updates (server-sent events), the
pictures, the records and replays, and the pages (`static/`, plain HTML, CSS and JavaScript).

What every response holds is decided in `tables.py` (a seat's view, the log, its own options);
here each request is checked: the seat's token (403), whose decision it is (409), an option
offered (422), the size of a body (413), a table that exists (404). Every error is a JSON
message, never a traceback."""
from __future__ import annotations

import asyncio
import json
import secrets
import threading
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from .bots import Bots
from .games import catalogue
from .registry import Limits, Tables
from .replays import Replays
from .store import Store, StoreError
from . import seats
from .tables import Refused, Setup, named, token_hash

MAX_BODY = 64 * 1024            # a request's body (JSON)
MAX_RECORD_BODY = 4 * 1024 * 1024   # a record file opened in the browser
EVENT_KEEPALIVE = 15.0          # seconds between two comments of a quiet event stream
EVENT_STREAM_FOR = 600.0        # an event stream ends after this; the browser opens another

PAGE_SECURITY = {
    # the pages load only their own scripts and styles, and no other site may frame them
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
SVG_SECURITY = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
                "X-Content-Type-Options": "nosniff"}


# ---- request bodies ----------------------------------------------------------------------------

class NewTable(BaseModel):
    game: str = Field(max_length=100)
    players: int | None = Field(None, ge=1, le=16)
    seats: list[str] = Field(max_length=16)
    variants: list[str] = Field(default_factory=list, max_length=32)
    modules: list[str] = Field(default_factory=list, max_length=32)
    track: str | None = Field(None, max_length=100)
    seed: int | None = None
    names: list[str | None] = Field(default_factory=list, max_length=16,
                                    description="each seat's name (null: none yet; its person may give it)")
    seed_public: bool = Field(False, description="with a `seed` and more than one person: deal that "
                                                 "very seed and tell it to every seat from the start "
                                                 "(else it is mixed with a secret of the server's)")
    season: str | None = Field(None, max_length=100,
                               description="a season of the game (`GET /api/games`: `seasons`): its games "
                                           "are played in turn at this table; `variants` and `modules` "
                                           "are added to every game, and a season's games have their "
                                           "own tracks")


class Decide(BaseModel):
    token: str = Field(max_length=200)
    option: str = Field(max_length=8)   # the option's key (`a`, `b`, ...)
    # the decision answered (`decision` of what the seat was told): 409 if the table has moved on, so
    # that a decision sent twice (a double click, a retry) is taken once
    decision: str | None = Field(None, max_length=64)


class Undo(BaseModel):
    token: str = Field(max_length=200)


class Name(BaseModel):
    token: str = Field(max_length=200)
    name: str = Field(max_length=200)


class Join(BaseModel):
    name: str | None = Field(None, max_length=200, description="the name the person gives (optional)")


class Creator(BaseModel):
    creator: str = Field(max_length=200, description="the creator's token (`creator_token` at creation)")


# ---- the body's size ------------------------------------------------------------------------------

class BodyLimit:
    """Before a route runs: a request body larger than its cap is refused with 413 (one said by its
    `Content-Length`, or one sent in chunks, read up to its cap and no further), and a POST another
    site's page sends (its `Origin` is not this server) with 403: a page elsewhere cannot play or
    open records in a visitor's name."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        if scope.get("method") == "POST" and not _same_origin(headers):
            return await _refuse(send, 403, "a request from another site's page is not taken")
        cap = MAX_RECORD_BODY if scope["path"] == "/api/replays" else MAX_BODY
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            return await _too_large(send, cap)
        # the body read here, whole, up to its cap: the route is given it as one message
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return await self.app(scope, _replayed([message]), send)
            seen += len(message.get("body", b""))
            if seen > cap:
                return await _too_large(send, cap)
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replayed([whole], receive), send)


def _replayed(messages: list[dict], then=None):
    """A `receive` that gives these messages first, then waits on `then` (a disconnect)."""
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}
    return receive


def _same_origin(headers: dict) -> bool:
    """Whether a request's `Origin` (a browser sends it with a POST from a page) names the host it
    was sent to; a request without one (a program, not a page) is not a cross-site one."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    return origin.split(b"://", 1)[-1] == host


async def _refuse(send, status: int, said: str) -> None:
    body = json.dumps({"error": said}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _too_large(send, cap: int) -> None:
    await _refuse(send, 413, f"the request is too large: at most {cap // 1024} KB")


# ---- the app -----------------------------------------------------------------------------------

def static_text(name: str) -> str:
    return resources.files("interpreter.web").joinpath("static", name).read_text(encoding="utf-8")


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def create_app(db: Path | str, threads: int = 2, processes: int = 1,
               hosts: list[str] | None = None, limits: Limits | None = None) -> FastAPI:
    """The web table's app, keeping its tables in the SQLite file `db`. `hosts`: the names a request
    may be addressed to (a server on loopback answers no page of another site that a DNS name was
    pointed at it for); None: any."""
    store = Store(db)
    bots = Bots(threads, processes)
    tables = Tables(store, bots, limits)
    replays = Replays()
    games_cache: list = []
    games_lock = threading.Lock()
    closing = asyncio.Event()

    @asynccontextmanager
    async def lifespan(app):
        tables.restore()
        yield
        closing.set()
        bots.close()
        store.close()

    app = FastAPI(title="Racecraft web table", version="1",
                  description="Play any game of the rulesets folder in a browser: a lobby, a table per "
                              "seat, live updates, replays. Every response to a seat holds only what "
                              "that seat may see.", lifespan=lifespan,
                  # the description is /openapi.json; FastAPI's pages for it would load scripts from a CDN
                  docs_url=None, redoc_url=None)
    app.state.tables = tables
    app.add_middleware(BodyLimit)
    if hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts)

    def games() -> list:
        with games_lock:
            if not games_cache:
                games_cache.extend(catalogue())
            return games_cache

    # ---- errors: a JSON message, never a traceback ----

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused):
        return JSONResponse({"error": e.message}, status_code=e.status)

    @app.exception_handler(StoreError)
    async def unstored(request: Request, e: StoreError):
        return JSONResponse({"error": f"{e}: nothing was changed; try again later"}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError):
        parts = []
        for err in e.errors()[:3]:
            if err.get("type") == "json_invalid":   # (its place is a position in the text: not said)
                parts.append("the body is not JSON (a JSON object is asked for)")
                continue
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            said = "is missing" if err.get("type") == "missing" else err.get("msg", "not valid")
            parts.append(f"{where}: {said}" if where else str(said))
        return JSONResponse({"error": "the request is not valid: " + "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException):
        message = e.detail if isinstance(e.detail, str) else "the request cannot be answered"
        return JSONResponse({"error": message}, status_code=e.status_code)

    @app.exception_handler(Exception)
    async def internal(request: Request, e: Exception):
        return JSONResponse({"error": "internal error: the server could not answer this request"},
                            status_code=500)

    # ---- the pages ----

    def page(name: str) -> Response:
        return Response(static_text(name), media_type="text/html; charset=utf-8", headers=PAGE_SECURITY)

    @app.get("/", include_in_schema=False)
    def lobby_page():
        return page("lobby.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        return Response(status_code=204)

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str):
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    @app.get("/replay/{table_id}", include_in_schema=False)
    def replay_page(table_id: str = ""):
        return page("replay.html")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str):
        kinds = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
        suffix = Path(name).suffix
        if suffix not in kinds or "/" in name or "\x00" in name or name.startswith("."):
            raise Refused(404, "no such file")
        try:
            text = static_text(name)
        except (OSError, ValueError):
            raise Refused(404, "no such file") from None
        return Response(text, media_type=f"{kinds[suffix]}; charset=utf-8", headers=PAGE_SECURITY)

    # ---- the API ----

    @app.get("/api/games", summary="The games a table can be created for")
    def list_games():
        return {"games": games()}

    @app.post("/api/tables", status_code=201, summary="Create a table (or a season's table)",
              description="Each person's seat gets a token: the seat's private link carries it. "
                          "Bots' seats have none. With `season`, the table plays the season's games in "
                          "turn, each seat keeping its link.")
    def create_table(body: NewTable, request: Request):
        client = _client(request)
        tables.rate.take(client, "tables")
        try:
            return _create(body)
        except Exception:
            tables.rate.give_back(client)
            raise

    def _create(body: NewTable) -> dict:
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        opens = [i for i, k in enumerate(body.seats) if k == "open"]   # a person's seat anyone may take
        setup = Setup.checked(body.game, ["human" if k == "open" else k for k in body.seats], body.variants,
                              body.modules, body.track, seed, body.players, body.season)
        creator = secrets.token_urlsafe(24)   # gives a seat's link anew (`seats.give_link`)
        setup = replace(setup, creator=token_hash(creator))
        if body.names:
            if len(body.names) > len(setup.seats):
                raise Refused(422, f"{len(body.names)} names for {len(setup.seats)} seats")
            if any(n is not None and setup.seats[i] != "human" for i, n in enumerate(body.names)):
                raise Refused(422, "a name is a person's: a bot's seat has none")
            setup = replace(setup, names=[None if n is None else named(n) for n in body.names])
        mixed = body.seed is not None and setup.people() > 1 and not body.seed_public
        if mixed:  # a seed chosen for a table of several people: one nobody there knows
            setup = setup.fair()
        elif body.seed is not None and body.seed_public:
            setup = replace(setup, seed_public=True)
        table, tokens = tables.create(setup, opens)
        seats = []
        for i, (kind, token) in enumerate(zip(setup.seats, tokens)):
            url = f"/table/{table.id}#{token}" if token else None
            seats.append({"seat": i + 1, "kind": "open" if i in opens else kind, "token": token, "url": url})
        people = [t for t in tokens if t]
        return {"id": table.id, "seats": seats, "seed_mixed": mixed,
                "watch_url": f"/table/{table.id}#{table.watch_token()}",
                "creator_token": creator, "manage_url": f"/?manage={table.id}#{creator}",
                **({"join_url": f"/?join={table.id}"} if opens else {}),
                "url": f"/table/{table.id}#{','.join(people)}" if people else f"/replay/{table.id}"}

    @app.post("/api/tables/{table_id}/join", summary="Take the first open seat of a table",
              description="A seat left `open` at creation is anyone's: the answer is its token and link.")
    def join_table(table_id: str, body: Join, request: Request):
        client = _client(request)
        tables.rate.take(client, "tables")   # (one budget with creating tables and records)
        try:
            seat, token = seats.join(tables.get(table_id), body.name)
        except Exception:
            tables.rate.give_back(client)
            raise
        return {"seat": seat + 1, "token": token, "url": f"/table/{table_id}#{token}"}

    @app.get("/api/tables/{table_id}/seats", summary="The seats, for the table's creator")
    def seats_of(table_id: str, creator: str | None = None):
        return {"seats": seats.seats_told(tables.get(table_id), creator)}

    @app.post("/api/tables/{table_id}/seats/{seat}/link",
              summary="A person's seat given a new link by the table's creator (the old one stops working)")
    def new_link(table_id: str, seat: int, body: Creator):
        token = seats.give_link(tables.get(table_id), seat - 1, body.creator)
        return {"seat": seat, "token": token, "url": f"/table/{table_id}#{token}"}

    @app.get("/api/tables", summary="The tables and seasons, newest first, with their state, by pages",
             description="`before`: the `created` of the last table of the page before; `more`: there "
                         "are older ones")
    def list_tables(before: float | None = None, limit: int = Query(50, ge=1, le=200)):
        page, more = tables.listing(limit, before)
        return {"tables": page, "more": more}

    @app.get("/api/tables/{table_id}", summary="What a seat sees: the view, the log, its options",
             description="At a season's table, of the game under way, with `season`: the games played, "
                         "their results and the standings.")
    def seat_view(table_id: str, token: str | None = None, since: int = 0):
        table = tables.get(table_id)
        return JSONResponse(table.told(table.viewer_of(token), since))

    @app.post("/api/tables/{table_id}/decide", summary="Take one of the options offered to the seat")
    def decide(table_id: str, body: Decide):
        table = tables.get(table_id)
        seat = table.seat_of(body.token)
        table.decide(seat, body.option, body.decision)
        return JSONResponse(table.told(seat))

    @app.post("/api/tables/{table_id}/name", summary="The seat's person gives their name, told to every seat")
    def rename(table_id: str, body: Name):
        table = tables.get(table_id)
        seat = table.seat_of(body.token)
        table.rename(seat, body.name)
        return JSONResponse(table.told(seat))

    @app.post("/api/tables/{table_id}/undo",
              summary="Take back the seat's last decision (alone against bots)")
    def undo(table_id: str, body: Undo):
        table = tables.get(table_id)
        seat = table.seat_of(body.token)
        table.undo(seat)
        return JSONResponse(table.told(seat))

    @app.get("/api/tables/{table_id}/record", summary="The game record (JSON lines, as `play --log`)",
             description="Whole once the game is over; while it runs, to a seat (its token): without "
                         "the seed, and with the other seats' choices left out. A season's table: the "
                         "season's save (as `championship --save`), once the season is over (409 "
                         "before); each of its games has its own record, at the game's table "
                         "(`season.table`, `season.results[].table`), whole once the season is over.")
    def record(table_id: str, token: str | None = None):
        table = tables.get(table_id)
        seat = None if token is None and table.disclosed else table.viewer_of(token)
        return Response(table.record_text(seat), media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{table.record_name()}"'})

    @app.get("/api/tables/{table_id}/picture.svg", summary="The table as the seat sees it, as a picture")
    def picture(table_id: str, token: str | None = None):
        table = tables.get(table_id)
        seat = None if token is None and table.disclosed else table.viewer_of(token)
        return Response(table.picture(seat), media_type="image/svg+xml", headers=SVG_SECURITY)

    @app.get("/api/tables/{table_id}/events", summary="Live updates (server-sent events)",
             description="Each event is the seat's view, as `GET /api/tables/{id}` gives it, with the "
                         "log lines not sent yet.")
    async def events(table_id: str, request: Request, token: str | None = None, since: int = 0):
        table = await run_in_threadpool(tables.get, table_id)
        seat = table.viewer_of(token)
        return StreamingResponse(_stream(table, seat, since, request, closing),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    # ---- replays ----

    @app.get("/api/tables/{table_id}/replay", summary="The table before a decision, as a replay shows it",
             description="A finished table to anybody; a running one to a seat, as that seat saw it. "
                         "A season's table: the game under way (its last once the season is over); each "
                         "game of a season by its own table's id.")
    def table_replay(table_id: str, at: int = 0, token: str | None = None, seat: int | None = None):
        table = tables.game_table(table_id)
        playing = not table.disclosed
        # (a replay while the game runs is a seat's: not the spectator link's)
        me = table.seat_of(token) if (playing or token) else None
        return JSONResponse(replays.of_table(table, at, me, seat, playing))

    @app.get("/api/tables/{table_id}/replay.svg", summary="The picture of a replay's step")
    def table_replay_picture(table_id: str, at: int = 0, token: str | None = None, seat: int | None = None):
        table = tables.game_table(table_id)
        playing = not table.disclosed
        me = table.seat_of(token) if (playing or token) else None
        return Response(replays.table_picture(table, at, me, seat, playing), media_type="image/svg+xml",
                        headers=SVG_SECURITY)

    @app.post("/api/replays", status_code=201, summary="Open a game record (the body: its JSON lines)")
    async def open_replay(request: Request):
        client = _client(request)
        tables.rate.take(client, "records")
        body = await request.body()
        try:
            return await run_in_threadpool(replays.open, body)
        except Exception:
            tables.rate.give_back(client)
            raise

    @app.get("/api/replays/{replay_id}", summary="A record's table before a decision")
    def record_replay(replay_id: str, at: int = 0, seat: int | None = None):
        return JSONResponse(replays.of_record(replay_id, at, seat))

    @app.get("/api/replays/{replay_id}/replay.svg", summary="The picture of a record's step")
    def record_replay_picture(replay_id: str, at: int = 0, seat: int | None = None):
        return Response(replays.record_picture(replay_id, at, seat), media_type="image/svg+xml",
                        headers=SVG_SECURITY)

    return app


async def _stream(table, seat: int | None, since: int, request: Request, closing: asyncio.Event):
    """What the seat is told, each time that changes, with the log lines not sent yet. A change the
    seat cannot see (another seat committing in secret) sends nothing."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + EVENT_STREAM_FOR
    seen = -1
    sent = since
    last = None
    while not closing.is_set() and loop.time() < ends:
        version = table.changes.version
        if version != seen:
            seen = version
            told = await run_in_threadpool(table.told, seat, sent)
            same = json.dumps({**told, "log": [], "log_start": 0, "log_end": 0, "as_of": 0})
            if same != last or told["log"]:
                last = same
                sent = told["log_end"]
                yield f"event: table\ndata: {json.dumps(told)}\n\n"
            continue
        await table.changes.wait(seen, EVENT_KEEPALIVE)
        if await request.is_disconnected():
            return
        if table.changes.version == seen:
            yield ": still here\n\n"
