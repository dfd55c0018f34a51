"""Patches: how a module or variant changes the merged game, by address, never by copying.

A patch does one thing to one address of the merged game (its own rules, its included cards
and its track): `set` a value, `replace` an item, `update` some keys of a mapping, `remove`
an item, `add` an item to a collection. An address is a path of keys and ids:

    params.hand_size            boards.board.laps              cards.blue.count
    steps.play                  boards.board.lines[kind=turn,name=A].limit
    phases.main.until           include[../../cards/game/extra.yaml]

A key of a mapping is a segment; an item of a list is found by its `id`, or else its `name`
(it must be the only one), or by `[key=value,...]` (every key must match), or, for a list of
plain values, by `[value]`. Patches that change rules inside their text (`extend`, options of a
named `choose`, named statements) are applied to the parsed rules: see `load/extend.py`.
"""
from __future__ import annotations

from typing import Any, Iterable
import re

from ..base.diagnostics import Diagnostic, Loc, Report, did_you_mean
from ..ir.models import GameFile
from .yamlsrc import SrcList, SrcMap, loc_of

_LISTS = ("phases", "triggers")
_MAPPINGS = ("params", "pieces", "boards", "piles", "state", "functions", "procedures", "record", "show",
             "cards", "carry", "metrics", "view", "dice")
# mappings inside a section that a game may not have written yet (`add: view.game` in a game
# without `view:`, or whose `view:` has no `game:`)
_INNER_MAPPINGS = {"view": ("game", "seats", "piles", "lines", "colours")}
OPS = ("set", "replace", "update", "remove", "add", "extend", "change")
# the addresses whose patches change rule text (applied to the parsed rules, load/extend.py)
RULE_PARTS = ("choices", "statements")
_SEGMENT = re.compile(r"\s*([^.\[\]]+)?((?:\[[^\]]*\])*)\s*(?:\.|$)")


class Address:
    """A parsed patch address: a list of steps, each a key or a selector `[k=v,...]`/`[value]`."""

    def __init__(self, steps: list, text: str):
        self.steps = steps
        self.text = text

    @property
    def head(self) -> str:
        return self.steps[0] if self.steps and isinstance(self.steps[0], str) else ""


def parse_address(target: Any, report: Report) -> Address | None:
    text = str(target)
    steps: list = []
    pos = 0
    while pos < len(text):
        m = _SEGMENT.match(text, pos)
        if m is None or m.end() == pos:
            report.add("E049", f"`{text}` is not an address: it stops making sense at `{text[pos:pos + 20]}`",
                       loc_of(target), "an address is keys and ids joined by `.`, with `[key=value]` to pick "
                                       "an item of a list: `boards.board.lines[kind=turn,name=A].limit`")
            return None
        key, selectors = m.group(1), m.group(2)
        if key is not None:
            steps.append(key.strip())
        for sel in re.findall(r"\[([^\]]*)\]", selectors or ""):
            steps.append(_selector(sel))
        pos = m.end()
    if not steps:
        report.add("E049", "a patch's address is empty", loc_of(target))
        return None
    return Address(steps, text)


def _selector(text: str) -> Any:
    """`k=v,k2=v2` as a dict; a plain value as itself (for lists of plain values)."""
    if "=" in text:
        out = {}
        for part in text.split(","):
            k, _, v = part.partition("=")
            out[k.strip()] = v.strip()
        return out
    return ("value", text.strip())


def _matches(item: Any, value: str) -> bool:
    """Does a selector value match a YAML value (numbers compared as written)?"""
    return str(item).lower() == value.lower() if isinstance(item, bool) else str(item) == value


def _pick(items: list, step: Any, where: str, target: Any, report: Report) -> Any:
    """The index of the list item `step` names, or None (reported)."""
    if isinstance(step, tuple):  # [value] of a list of plain values
        found = [i for i, it in enumerate(items) if not isinstance(it, dict) and _matches(it, step[1])]
        what = f"`{step[1]}`"
    elif isinstance(step, dict):
        found = [i for i, it in enumerate(items) if isinstance(it, dict)
                 and all(k in it and _matches(it[k], v) for k, v in step.items())]
        what = "[" + ",".join(f"{k}={v}" for k, v in step.items()) + "]"
    else:
        found = [i for i, it in enumerate(items) if isinstance(it, dict) and str(it.get("id")) == step]
        if not found:
            found = [i for i, it in enumerate(items) if isinstance(it, dict) and str(it.get("name")) == step]
        what = f"`{step}`"
    if len(found) == 1:
        return found[0]
    if not found:
        have = list(dict.fromkeys(x for x in (_called(it, step) for it in items if isinstance(it, dict))
                                  if x is not None)) or [str(it) for it in items if not isinstance(it, dict)]
        report.add("E042", f"patch aims at `{where}` {what}, which does not exist", loc_of(target),
                   (did_you_mean(str(step if isinstance(step, str) else what), have)
                    if not isinstance(step, dict) else None)
                   or (f"there: {', '.join(have[:12])}" if have else
                       f"`{where}` is empty" if not items else
                       "its items have no `id` or `name`: pick one by a key it has, `[key=value]`"))
    else:
        report.add("E042", f"{what} names {len(found)} items of `{where}`", loc_of(target),
                   "say which with more keys: `[kind=turn,name=A]`")
    return None


def _called(item: dict, step: Any) -> str | None:
    """How a list item is picked, in the words of a pick that found none: by the selector's keys
    where it has them (`[rows=3]`), else by its id or name; None: by none of these."""
    if isinstance(step, dict):
        keys = [k for k in step if k in item]
        if keys:
            return "[" + ",".join(f"{k}={plain(item[k])}" for k in keys) + "]"
    ident = item.get("id", item.get("name"))
    return None if ident is None else str(ident)


class Owned:
    """Copy-on-write over the loaded data: the containers one application of patches made (copies)
    may change in place; any other (the loaded files, shared by every game loaded from them, or a
    patch's own item) is copied, with its positions, before it changes."""

    def __init__(self, top: Any):
        self.ids = {id(top)}
        self.made = [top]  # kept alive, so that an id is never reused while this lives

    def take(self, parent: Any, key: Any) -> Any:
        """`parent[key]` as a container this application may change (`parent` is one already)."""
        node = parent[key]
        if isinstance(node, (dict, list)) and id(node) not in self.ids:
            node = parent[key] = shallow(node)
            self.ids.add(id(node))
            self.made.append(node)
        return node


def shallow(node: Any) -> Any:
    """A copy of a mapping or list, one level deep, with its file positions."""
    out = type(node)(node)
    if isinstance(node, (SrcMap, SrcList)):
        out.__dict__.update(node.__dict__)
        if isinstance(node, SrcMap) and "key_locs" in node.__dict__:
            out.key_locs = dict(node.key_locs)
    return out


def find(data: Any, address: Address, report: Report, target: Any, owned: Owned | None = None) -> Any:
    """The container and key (or index) an address leads to; None (reported) if it leads nowhere.
    With `owned`, every container on the way is one this application may change (copied first)."""
    steps = address.steps
    head = steps[0]
    if head == "steps":  # a step, by id, in whichever phase it is
        if len(steps) < 2 or not isinstance(steps[1], str):
            report.add("E041", "a step patch names the step: `steps.ID`", loc_of(target))
            return None
        for p, phase in enumerate(data.get("phases", [])):
            for i, step in enumerate(phase.get("steps", [])):
                if step.get("id") == steps[1]:
                    if owned is not None:
                        phase = owned.take(owned.take(data, "phases"), p)
                        owned.take(phase, "steps")
                    return _descend(phase["steps"], i, steps[2:], address, report, target, owned)
        ids = [s.get("id") for p in data.get("phases", []) for s in p.get("steps", [])]
        report.add("E042", f"patch aims at step `{steps[1]}`, which does not exist", loc_of(target),
                   did_you_mean(steps[1], ids))
        return None
    if not isinstance(head, str) or head not in data:
        report.add("E042", f"patch aims at `{head}`, which the game does not have", loc_of(target),
                   did_you_mean(str(head), list(data)))
        return None
    return _descend(data, head, steps[1:], address, report, target, owned)


def _descend(container: Any, key: Any, rest: list, address: Address, report: Report, target: Any,
             owned: Owned | None) -> Any:
    path = [str(key)]
    for step in rest:
        node = container[key] if owned is None else owned.take(container, key)
        where = ".".join(path)
        if isinstance(node, list):
            index = _pick(node, step, where, target, report)
            if index is None:
                return None
            container, key = node, index
        elif isinstance(node, dict) and isinstance(step, str):
            if step not in node:
                report.add("E042", f"patch aims at `{address.text}`, but `{step}` does not exist there",
                           loc_of(target), did_you_mean(step, list(node)))
                return None
            container, key = node, step
        else:
            report.add("E042", f"patch aims at `{address.text}`, but `{where}` holds no items to pick from",
                       loc_of(target))
            return None
        path.append(str(step) if isinstance(step, str) else "[...]")
    return container, key


def operation(patch: Any, report: Report) -> str | None:
    """The one thing a patch does; None (reported) when it says none or two."""
    ops = [o for o in OPS if patch.get(o) is not None]
    if len(ops) != 1:
        if ops:
            msg = "a patch does one thing; this one has " + " and ".join(f"`{o}`" for o in ops)
        else:
            msg = "a patch needs one of " + ", ".join(f"`{o}`" for o in OPS)
        report.add("E046", msg, loc_of(patch), "write each change as its own patch")
        return None
    return ops[0]


def is_rule_patch(patch: Any, op: str, address: Address) -> bool:
    """Does this patch change rule text (applied after parsing, in load/extend.py)?"""
    return op == "extend" or address.head in RULE_PARTS


def plain(value: Any) -> Any:
    """A value of a file as plain data (to compare two of them, wherever they were written)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return str(value) if isinstance(value, str) else value


def prepare(patches: Any, report: Report) -> list[tuple]:
    """Each patch with what it does and where: [(patch, op, address)]; the ill-formed ones are
    reported here, once, and left out."""
    out = []
    for patch in patches:
        op = operation(patch, report)
        if op is None:
            continue
        address = parse_address(patch[op], report)
        if address is not None:
            out.append((patch, op, address))
    return out


def declarations(address: Address, patch: Any = None, op: str = "") -> list[str]:
    """The declarations a patch changes, as the checker names what a problem is about:
    `params.hand_size` for `set: params.hand_size`, `state.score` for `update: state.score.type`,
    `cards.red` for `set: cards.red.count` (and `props.points` for a card's property
    `points`), `state.total` for `add: state` with `id: total`."""
    steps = address.steps
    if op == "add" and patch is not None:
        item = patch.get("item")
        ident = patch.get("id") if patch.get("id") is not None else (
            item.get("id") if isinstance(item, dict) else None)
        return [f"{steps[0]}.{ident}"] if ident is not None and len(steps) <= 2 else []
    if len(steps) >= 2 and isinstance(steps[0], str) and isinstance(steps[1], str):
        out = [f"{steps[0]}.{steps[1]}"]
        if steps[0] == "cards" and len(steps) >= 4 and steps[2] == "props" and isinstance(steps[3], str):
            out.append(f"props.{steps[3]}")
        return out
    return []


def apply_patches(data: Any, patches: list[tuple], report: Report, only: Any = None,
                  changed: dict[str, Loc | None] | None = None, from_track: Any = None) -> Any:
    """`data` with `patches` (from `prepare`) applied, those that `only(patch, op, address)`
    accepts if given: a copy; the loaded base is never changed. Only what a patch changes is
    copied (`Owned`): the rest stays shared with the loaded files. `changed` gets, for each
    declaration a patch changed (`declarations`), where the patch is written. `from_track(loc,
    target)`: whether the value at `target`, written at `loc`, may be a track's (the track the game
    is raced on, or, raced on its own boards, any other track of the game): another track may hold
    another value, and a `set` to the value it has here is no mistake."""
    data = shallow(data)
    owned = Owned(data)
    ids = _Ids()
    for patch, op, address in patches:
        target = patch[op]
        if only is not None and not only(patch, op, address):
            continue
        errors = report.errors
        _apply(data, patch, op, address, target, report, owned, ids, from_track)
        if changed is not None and report.errors == errors:
            for key in declarations(address, patch, op):
                changed[key] = loc_of(target)
    return data


def _apply(data: Any, patch: Any, op: str, address: Address, target: Any, report: Report, owned: Owned,
           ids: "_Ids", from_track: Any = None) -> None:
    """One patch, applied to `data` (reported when it cannot be)."""
    if op == "add":
        _add(data, patch, address, target, report, owned, ids)
        return
    ids.clear()  # another change may have changed a list's items
    if op == "remove" and patch.get("item") is not None:  # a value out of a list
        _remove_value(data, patch, address, target, report, owned)
        return
    found = find(data, address, report, target, owned)
    if found is None:
        return
    container, key = found
    if op == "change":
        _change(container, key, patch, target, report)
        return
    if op in ("set", "replace", "update") and ("to" if op == "set" else "with") not in patch:
        word = "to" if op == "set" else "with"
        report.add("E047", f"`{op}: {target}` says what, but not the new value", loc_of(target),
                   f"give it with `{word}:`")
        return
    if op == "set":
        where = (getattr(container, "key_locs", None) or {}).get(key) or loc_of(container[key])
        if plain(container[key]) == plain(patch.get("to")) and not (from_track and from_track(where, target)):
            report.warn("W040", f"`set: {target}` gives it the value it has already: the patch does "
                        "nothing", loc_of(target), "remove the patch, or give another value")
        container[key] = patch.get("to")
    elif op == "replace":
        new = patch.get("with")
        if isinstance(container[key], dict) and isinstance(new, dict) and "id" in container[key]:
            new = _with_id(new, container[key]["id"])
        container[key] = new
    elif op == "update":
        new = patch.get("with")
        if not isinstance(container[key], dict) or not isinstance(new, dict):
            report.add("E043", "`update` merges a mapping into a mapping", loc_of(target),
                       "use `set` or `replace` for other values")
            return
        merged = shallow(container[key])
        merged.update(new)
        container[key] = merged
    elif op == "remove":
        del container[key]


def _change(container: Any, key: Any, patch: Any, target: Any, report: Report) -> None:
    """`change: ADDRESS` with `by: N`: a whole number made N more (N may be negative), whatever it is
    on the track or in the variant applied before."""
    by, value = patch.get("by"), container[key]
    if not isinstance(by, int) or isinstance(by, bool):
        report.add("E047", f"`change: {target}` says by how much with `by:` a whole number", loc_of(target),
                   "by: -1")
        return
    if not isinstance(value, int) or isinstance(value, bool):
        report.add("E043", f"`change: {target}` changes a whole number; it holds {plain(value)!r}",
                   loc_of(target), "use `set` for other values")
        return
    container[key] = value + by


def _with_id(m: dict, ident: Any) -> SrcMap:
    """A replacing item keeps the replaced item's id (and its own file positions)."""
    out = SrcMap(m)
    out.loc = getattr(m, "loc", None)  # type: ignore[assignment]
    out.key_locs = dict(getattr(m, "key_locs", {}))
    out.setdefault("id", ident)
    return out


def _remove_value(data: Any, patch: Any, address: Address, target: Any, report: Report, owned: Owned) -> None:
    """`remove: include` with `item: FILE`: a value out of a list of values."""
    found = find(data, address, report, target, owned)
    if found is None:
        return
    container, key = found
    items, value = owned.take(container, key), patch.get("item")
    if not isinstance(items, list):
        report.add("E043", f"`remove: {target}` with `item:` takes a value out of a list", loc_of(target))
        return
    for i, it in enumerate(items):
        if str(it) == str(value):
            del items[i]
            return
    report.add("E042", f"`{value}` is not in `{target}`", loc_of(value, loc_of(target)),
               did_you_mean(str(value), [str(i) for i in items]))


def _add(data: Any, patch: Any, address: Address, target: Any, report: Report, owned: Owned,
         ids: "_Ids") -> None:
    steps = address.steps
    item = patch.get("item")
    if steps[0] == "steps":
        if len(steps) != 2:
            report.add("E041", "add a step with `add: steps.PHASE`", loc_of(target))
            return
        phases = [i for i, p in enumerate(data.get("phases", [])) if p.get("id") == steps[1]]
        if not phases:
            report.add("E042", f"patch aims at phase `{steps[1]}`, which does not exist", loc_of(target),
                       did_you_mean(steps[1], [p.get("id") for p in data.get("phases", [])]))
            return
        phase = owned.take(owned.take(data, "phases"), phases[0])
        phase.setdefault("steps", [])
        _insert(owned.take(phase, "steps"), item, patch, target, report, ids)
        return
    if steps[0] in _LISTS and len(steps) == 1:
        data.setdefault(steps[0], [])
        _insert(owned.take(data, steps[0]), item, patch, target, report, ids)
        return
    if steps[0] in ("include",) and len(steps) == 1:
        data.setdefault("include", [])
        owned.take(data, "include").append(item)
        return
    if steps[0] in _MAPPINGS and len(steps) == 1 and steps[0] not in data:
        data[steps[0]] = SrcMap()  # the game has none yet: the module or variant brings the first
    if len(steps) == 2 and steps[1] in _INNER_MAPPINGS.get(steps[0], ()):
        outer = data.setdefault(steps[0], SrcMap())
        if isinstance(outer, dict) and steps[1] not in outer:
            owned.take(data, steps[0])[steps[1]] = SrcMap()
    found = find(data, address, report, target, owned)
    if found is None:
        return
    container, key = found
    coll = owned.take(container, key)
    if isinstance(coll, list):  # a list of a board (lines, cells, ...)
        if isinstance(item, dict) and "id" in item:
            _insert(coll, item, patch, target, report, ids)
        else:
            coll.append(item)
        return
    ident = patch.get("id")
    if not isinstance(coll, dict) or ident is None:
        report.add("E044", f"add to `{target}` needs `id:` and `item:`", loc_of(target))
        return
    if ident in coll:
        there = (getattr(coll, "key_locs", None) or {}).get(ident) or loc_of(coll[ident])
        _exists(report, f"`{target}.{ident}` already exists", ident, there)
        return
    coll[ident] = item


def _exists(report: Report, message: str, ident: Any, there: Loc | None) -> None:
    """E045: an added name the game has already, said at the new one with where the old one is (a
    name the base game added since a designer's file was written meets it here)."""
    where = f" (declared at {there})" if there is not None else ""
    report.add("E045", message + where, loc_of(ident),
               f"a new one needs a name of its own (`my_{ident}`, say); to change that one, use `replace` "
               "or `update`")


class _Ids:
    """The ids of the items of each list items are added to, kept while patch after patch adds to
    it: a module adding thousands of triggers checks each new id in constant time, not by going
    through the list each time."""

    def __init__(self) -> None:
        self._of: dict[int, tuple[list, set]] = {}

    def of(self, items: list) -> set:
        entry = self._of.get(id(items))
        if entry is None or entry[0] is not items:
            entry = (items, {_key(i.get("id")) for i in items if isinstance(i, dict)})
            self._of[id(items)] = entry
        return entry[1]

    def clear(self) -> None:
        self._of.clear()


def _key(ident: Any) -> Any:
    """An id as a set holds it (a YAML value may be a list)."""
    return ident if isinstance(ident, (str, int, float, bool, type(None))) else repr(ident)


def _insert(items: list, item: Any, patch: Any, target: Any, report: Report, ids: _Ids) -> None:
    if not isinstance(item, dict) or "id" not in item:
        report.add("E044", f"an item added to `{target}` needs an `id`", loc_of(target))
        return
    anchor = patch.get("after") or patch.get("before")
    known = ids.of(items)
    if _key(item["id"]) in known:
        old = next((i for i in items if isinstance(i, dict) and _key(i.get("id")) == _key(item["id"])), None)
        _exists(report, f"`{item['id']}` already exists in `{target}`", item["id"],
                loc_of(old.get("id")) if old is not None else None)
        return
    known.add(_key(item["id"]))
    if anchor is None:
        items.append(item)
        return
    for i, existing in enumerate(items):
        if existing.get("id") == anchor:
            items.insert(i + 1 if patch.get("after") else i, item)
            return
    known.discard(_key(item["id"]))
    report.add("E042", f"patch places the item next to `{anchor}`, which does not exist in `{target}`",
               loc_of(anchor), did_you_mean(str(anchor), [i.get("id") for i in items]))


__all__ = ["apply_patches", "declarations", "prepare", "parse_address", "find", "Address", "operation",
           "is_rule_patch", "Loc"]


def blame_patches(report: Report, start: int, changed: dict[str, Loc | None]) -> None:
    """The problems of `report` from `start` on, each about a declaration in `changed` (where the
    patch that changed it is written; None: on the command line) and found in another file than
    that patch, said at the patch instead: once per patch, with the first place in the rules that
    reads it, and how many more there are."""
    if not changed:
        return
    kept: list[Diagnostic] = []
    said: dict[object, tuple[Diagnostic, list[int]]] = {}   # by the patch (or the declaration)
    for d in report.items[start:]:
        culprit = _culprit(d, changed)
        if culprit is None:
            kept.append(d)
            continue
        key, at = culprit
        first = said.get(at if at is not None else key)
        if first is not None:
            first[1][0] += 1
            continue
        if at is not None:
            message, what = d.message, f"where the game has `{key}`, which this patch changes"
        else:
            message = f"`--param {key.split('.', 1)[1]}=...` (on the command line): {d.message}"
            what = f"where the game has `{key}`"
        moved = Diagnostic(d.code, message, at, d.hint, d.severity, d.notes,
                           also=(what, d.loc) if d.loc else None)
        count = [0]
        said[at if at is not None else key] = (moved, count)
        kept.append(moved)
    for moved, count in said.values():
        if count[0]:
            moved.notes = (*moved.notes, f"and {count[0]} more place{'s' if count[0] > 1 else ''}")
    report.items[start:] = kept


def _culprit(d: Diagnostic, changed: dict[str, Loc | None]) -> tuple[str, Loc | None] | None:
    """(the declaration, where its patch is) a problem is about, when a patch changed one of the
    declarations it is about and the problem is not in that patch's own file."""
    for key in _ordered(d.about, changed):
        at = changed[key]
        if d.loc is None or at is None or d.loc.file != at.file:
            return key, at
    return None


def _ordered(about: Iterable[str], changed: dict[str, Loc | None]) -> list[str]:
    """The declarations of `about` that were changed, in the order the patches changed them."""
    mine = set(about)
    return [k for k in changed if k in mine]


def left_out(game: GameFile, prepared: list[list[tuple]]) -> frozenset[str]:
    """The names `add` patches would have declared that the merged game does not have."""
    declared: set[str] = set(game.cards)
    for section in (game.params, game.pieces, game.boards, game.piles, game.dice, game.state,
                    game.functions, game.procedures):
        declared.update(map(str, section))
    added = set()
    for patches in prepared:
        for patch, op, _address in patches:
            item = patch.get("item")
            ident = patch.get("id", item.get("id") if isinstance(item, dict) else None)
            if op == "add" and isinstance(ident, str):
                added.add(ident)
    return frozenset(added - declared)
