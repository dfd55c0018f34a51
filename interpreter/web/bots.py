"""Bots deciding at web tables without holding anybody up: random and greedy bots in a pool of
threads, the search bot in worker processes (it plays hundreds of games forward per decision).

A bot decides on a copy of the table (a thread) or on the game played again from its decisions
(a worker process, which keeps the games it has built to go on from them); its answer comes
back to the table, which takes it as it takes a person's: only if the table still waits for that
decision, and only an option offered (`Table.bot_answered`).

Each decision of a bot is seeded by the table's seed, the seat and the number of the decision among
the seat's own, so a table rebuilt after a restart has its bots decide as they would have, whatever
order the seats of a secret block committed in. The bots of a secret block's seats are asked at
once and decide side by side."""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor

from ..agents.kinds import BOTS


def bot_seed(seed: int, seat: int, n: int) -> str:
    """The seed of a bot's decision: the table's seed, its seat (0-based), the number of the decision
    among the seat's own (not among all: seats of a secret block decide in any order)."""
    return f"{seed}/{seat}/{n}"


def is_search(kind: str) -> bool:
    return kind.split(":")[0] == "mcts"


def pick_here(kind: str, seed: str, game, seat: int) -> int:
    """The pick of the bot of `seat` on `game` (a copy of the table)."""
    return BOTS[kind](seed).choose(game, game.decision(seat))


# ---- in a worker process ------------------------------------------------------------------------

_PLANS: dict = {}
_GAMES: OrderedDict = OrderedDict()   # table id -> the game last built for it
KEPT_GAMES = 16


def pick_in_worker(table_id: str, recipe: dict, answers: list[tuple[int, int]], kind: str, seed: str,
                   seat: int) -> int:
    """The pick of the search bot of `seat` on the table `table_id` after `answers` (each decision's
    seat and pick), in a worker process. `recipe` (`Table.recipe`): the game, its variants,
    modules, track, params, seats and seed, how it draws chance, and what the game before handed on
    (a race of a season)."""
    import json

    from ..engine.game import Game, streams
    from ..session.load import load

    key = json.dumps([recipe["game"], recipe["variants"], recipe["modules"], recipe.get("track"),
                      recipe.get("params"), len(recipe["seats"])], sort_keys=True)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = load(recipe["game"], recipe["variants"], recipe["modules"], recipe.get("track"),
                                  recipe.get("params")).plan(len(recipe["seats"]))
    answers = [(int(a[0]), int(a[1])) for a in answers]   # (pairs, as JSON or pickle bring them)
    game = _GAMES.pop(table_id, None)
    if game is None or game.plan is not plan or _moves(game) != answers[:len(game.answers)]:
        game = Game(plan, recipe["seed"], carried=recipe.get("carried"),
                    streams=streams(recipe.get("chance")))
    for who, pick in answers[len(game.answers):]:
        game.choose(pick, who if who >= 0 else None)
    _GAMES[table_id] = game
    while len(_GAMES) > KEPT_GAMES:
        _GAMES.popitem(last=False)
    return pick_here(kind, seed, game.clone(), seat)


def _moves(game) -> list[tuple[int, int]]:
    """A game's decisions so far: each one's seat and pick."""
    return [(-1 if seat is None else seat, pick) for seat, pick in game.moves()]


# ---- the pools ---------------------------------------------------------------------------------

def die_with(server: int) -> None:
    """A worker's first act: to end when the server does, however it ends. A server killed outright
    (SIGKILL, the out-of-memory killer) never tells its workers, which would wait for work forever,
    and the resource tracker with them; a worker whose parent is no longer the server ends itself."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="racecraft-die-with-server", daemon=True).start()


class Bots:
    """The bots of the web tables: random and greedy on a pool of threads, the search bot in a
    worker process; each answer handed back to its table only if the table still asks it."""
    def __init__(self, threads: int = 2, processes: int = 1):
        self.threads = ThreadPoolExecutor(threads, thread_name_prefix="racecraft-bot")
        self.n_processes = processes
        self.processes: ProcessPoolExecutor | None = None   # started for the first search bot

    def ask(self, table, turn: tuple, kind: str, seed: str, game, seat: int) -> None:
        """Have the bot `kind` of `seat` decide at `table` on `game` (a copy of it; `turn` names the
        decision: `Table._key`); its answer goes back to `table.bot_answered(turn, pick)`, or
        `table.bot_failed(turn, error)`. Bots of several seats decide side by side."""
        if is_search(kind):
            if self.processes is None:
                # spawned, not forked: the server runs threads, which a fork would copy mid-step
                self.processes = ProcessPoolExecutor(self.n_processes,
                                                     mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=die_with, initargs=(os.getpid(),))
            fut = self.processes.submit(pick_in_worker, table.id, table.recipe(),
                                        _moves(game), kind, seed, seat)
            fut.add_done_callback(lambda f: self._back(table, turn, f))
        else:
            self.threads.submit(self._here, table, turn, kind, seed, game, seat)

    def _here(self, table, turn: tuple, kind: str, seed: str, game, seat: int) -> None:
        try:
            pick = pick_here(kind, seed, game, seat)
        except Exception as e:  # a rule error while the bot looks ahead: the table says so
            table.bot_failed(turn, e)
            return
        table.bot_answered(turn, pick)

    def _back(self, table, turn: tuple, fut: Future) -> None:
        """A worker's answer, taken on a thread of the pool (not the process pool's own)."""
        if fut.cancelled():
            return
        error = fut.exception()
        try:
            if error is not None:
                self.threads.submit(table.bot_failed, turn, error)
            else:
                self.threads.submit(table.bot_answered, turn, fut.result())
        except RuntimeError:  # the server is closing
            pass

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown(wait=False, cancel_futures=True)
