"""File structure checks: the JSON Schema of each file kind, with errors at the line.

The schemas are generated from the IR models (see `interpreter.ir.schema`); jsonschema finds
unknown keys and wrong types, and each error is placed at the key or value it is about.
"""
from __future__ import annotations

import hashlib
import re

from functools import lru_cache
from typing import Any

import jsonschema
from pydantic import ValidationError

from ..ir.models import FILE_KINDS
from ..ir.schema import schema_for
from ..base.cache import Bounded
from ..base.diagnostics import Loc, Report, did_you_mean
from ..base.files import excerpt


def loc_at(data: Any, path: Any, fallback: Loc | None = None, key: bool = False) -> Loc | None:
    """The most precise known position of `path` inside loaded data (with `key`: of its last key)."""
    best = getattr(data, "loc", fallback)
    node = data
    for i, part in enumerate(path):
        key_locs = getattr(node, "key_locs", None)
        if key_locs and part in key_locs:
            best = key_locs[part]
            if key and i == len(path) - 1:
                return best
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        best = getattr(node, "loc", best)
    return best


@lru_cache(maxsize=16)  # one per kind of file
def _validator(kind: str) -> tuple[Any, dict]:
    schema = _key_names(schema_for(kind))
    return jsonschema.Draft202012Validator(schema), schema


def _key_names(node: Any) -> Any:
    """Keys of a `dict[Name, ...]` must be names: `patternProperties` alone lets others through."""
    if isinstance(node, dict):
        pattern = node.get("patternProperties")
        if pattern and len(pattern) == 1 and "additionalProperties" not in node:
            node.setdefault("propertyNames", {"pattern": next(iter(pattern))})
        for value in node.values():
            _key_names(value)
    elif isinstance(node, list):
        for value in node:
            _key_names(value)
    return node


def _props_at(schema: dict, root: dict, path: Any) -> set[str]:
    """The allowed keys of the object the error is about (follows $ref and anyOf)."""
    node = schema
    for key in list(path) + [None]:
        while "$ref" in node:
            node = root["$defs"][node["$ref"].split("/")[-1]]
        for alt in node.get("anyOf", []):
            if "$ref" in alt or "properties" in alt:
                node = alt
                while "$ref" in node:
                    node = root["$defs"][node["$ref"].split("/")[-1]]
                break
        if key is None:
            return set(node.get("properties", {}))
        if isinstance(key, int):
            node = node.get("items", {})
        elif key in node.get("properties", {}):
            node = node["properties"][key]
        else:
            node = node.get("additionalProperties", {}) or {}
    return set()


_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number",
               "boolean": "true or false", "object": "a mapping (key: value)", "array": "a list",
               "null": "nothing"}


def _describe_types(schema: dict) -> str:
    types = []
    for alt in schema.get("anyOf", schema.get("oneOf", [schema])):
        t = alt.get("type")
        if isinstance(t, str):
            types.append(_TYPE_WORDS.get(t, t))
        elif "$ref" in alt:
            types.append("a mapping (key: value)")
        elif "enum" in alt or "const" in alt:
            types.append("one of " + ", ".join(map(str, alt.get("enum", [alt.get("const")]))))
    return " or ".join(dict.fromkeys(types)) or "another kind of value"


def _alternative(err: Any) -> Any:
    """For an `anyOf`/`oneOf` error, the errors of the alternative the value was meant for.

    With a discriminator (`kind: ranking`) that is the alternative it names; otherwise the one
    whose type fits (`rounds: 0` for `int | None` is a number too small, not a wrong type).
    None when no alternative fits: the value has the wrong type.
    """
    by_alt: dict[int, list] = {}
    for e in err.context:
        by_alt.setdefault(e.relative_schema_path[0], []).append(e)
    disc = err.schema.get("discriminator")
    if disc and isinstance(err.instance, dict):
        ref = disc.get("mapping", {}).get(str(err.instance.get(disc["propertyName"])))
        alts = err.schema.get(err.validator, [])
        chosen = [i for i, alt in enumerate(alts) if ref is not None and alt.get("$ref") == ref]
        return by_alt.get(chosen[0], []) if chosen else None
    fitting = [errs for _, errs in sorted(by_alt.items())
               if not any(e.validator == "type" and e.absolute_path == err.absolute_path for e in errs)]
    return min(fitting, key=len) if fitting else None


def _said_path(data: Any, path: list) -> str:
    """A path into the file as a person reads it: an item of a list by its id (`phases.race`),
    else by its place counted from 1 (`segments.#3`)."""
    parts, at = [], data
    for step in path:
        if isinstance(step, int) and isinstance(at, list) and 0 <= step < len(at):
            item = at[step]
            ident = item.get("id") if isinstance(item, dict) else None
            parts.append(str(ident) if isinstance(ident, (str, int)) and not isinstance(ident, bool)
                         else f"#{step + 1}")
            at = item
        else:
            parts.append(str(step))
            at = at.get(step) if isinstance(at, dict) else None
    return ".".join(parts)


def _report_error(err: Any, data: Any, schema: dict, report: Report) -> None:
    path = list(err.absolute_path)
    where = _said_path(data, path) or "the file"
    if err.validator in ("anyOf", "oneOf") and err.context:
        disc = err.schema.get("discriminator")
        leaves = _alternative(err)
        if leaves is not None:
            for leaf in leaves:
                _report_error(leaf, data, schema, report)
            return
        if disc and isinstance(err.instance, dict):  # a `kind` that is missing or unknown
            name, kinds = disc["propertyName"], sorted(disc.get("mapping", {}))
            if name not in err.instance:
                report.add("E022", f"missing key `{name}` in {where}", loc_at(data, path, key=True),
                           "one of: " + ", ".join(kinds))
            else:
                value = err.instance[name]
                report.add("E024", f"`{value}` is not allowed for `{where}.{name}`",
                           loc_at(data, path + [name]),
                           did_you_mean(value, kinds) or "one of: " + ", ".join(kinds))
            return
    if err.validator == "additionalProperties":
        allowed = set(err.schema.get("properties", {})) or _props_at(schema, schema, path)
        for key in sorted(set(err.instance) - allowed, key=str):
            under = sorted(k for k in allowed if key in _props_at(schema, schema, list(path) + [k]))
            hint = (f"`{key}` goes under `{under[0]}:`" if len(under) == 1 else None) \
                or did_you_mean(key, allowed) or f"allowed keys: {', '.join(sorted(allowed))}"
            report.add("E021", f"unknown key `{key}` in {where}", loc_at(data, path + [key], key=True), hint)
    elif err.validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        report.add("E022", f"missing key `{missing}` in {where}", loc_at(data, path, key=True))
    elif err.validator in ("type", "anyOf", "oneOf"):
        report.add("E023", f"wrong type for `{where}`: expected {_describe_types(err.schema)}",
                   loc_at(data, path))
    elif err.validator in ("enum", "const"):
        options = err.schema.get("enum", [err.schema.get("const")])
        report.add("E024", f"`{err.instance}` is not allowed for `{where}`",
                   loc_at(data, path),
                   did_you_mean(err.instance, options) or "one of: " + ", ".join(map(str, options)))
    elif err.validator == "pattern":
        at = loc_at(data, path)
        if "propertyNames" in err.relative_schema_path:  # a key: point at it
            at = loc_at(data, path + [err.instance], key=True)
        given = excerpt(str(err.instance), 60)
        pattern = str(err.schema.get("pattern", ""))
        if "propertyNames" in err.relative_schema_path or "A-Za-z" in pattern:
            piece = where.startswith("pieces.")   # (`pieces.riders.names[2]`)
            report.add("E025", f"`{given}` is not a valid name for `{where}`",
                       at, "names start with a letter a-z or A-Z and use those letters, digits and _ "
                       + ("(no accented letters or spaces: a piece's name is how the rules name it, "
                          "`piece(\"red_sprinter\")`, and what players read)" if piece else
                          "(no accented letters; a card's `name:` may say anything)"))
        else:  # another written form (a cell's outline): what the field says it is
            about, up = err.schema.get("description"), err.parent
            while about is None and up is not None:  # `str | None`: said by the field around it
                about, up = (up.schema.get("description") if isinstance(up.schema, dict) else None), up.parent
            report.add("E025", f"`{given}` is not a valid value for `{where}`", at, about)
    elif err.validator in ("minItems", "minProperties") and not err.instance:
        least = err.schema.get(err.validator)
        what = ("item" if err.validator == "minItems" else "key") + ("" if least == 1 else "s")
        report.add("E026", f"`{where}` is empty: it needs at least {least} {what}", loc_at(data, path))
    elif err.validator in ("maxItems", "maxProperties", "maxLength"):
        top = err.schema.get(err.validator)
        what = {"maxItems": "items", "maxProperties": "keys", "maxLength": "characters"}[err.validator]
        report.add("E026", f"`{where}` has {len(err.instance):,} {what}: at most {top:,}", loc_at(data, path))
    else:
        report.add("E026", f"invalid value for `{where}`: {err.message}", loc_at(data, path))


# data known to fit its kind's schema (`check_structure`), by (kind, digest of its text)
_FITS: Bounded[tuple[str, bytes], bool] = Bounded(512)


def check_structure(data: Any, kind: str, file: str, report: Report) -> Any:
    """Check loaded data against its kind's schema; return the IR model, or None."""
    validator, schema = _validator(kind)
    before = len(report.items)
    if not isinstance(data, dict):
        report.add("E020", f"a {kind} file must be a mapping of keys, "
                           f"not {_TYPE_WORDS.get(type(data).__name__, type(data).__name__)}",
                   getattr(data, "loc", Loc(file)))
        return None
    for key, sub in schema.get("properties", {}).items():  # a list too long: said before it is read
        top, value = sub.get("maxItems"), data.get(key)
        if top is not None and isinstance(value, list) and len(value) > top:
            report.add("E026", f"`{key}` has {len(value):,} items: at most {top:,}", loc_at(data, [key]))
            return None
    # A game is checked as merged from its files once per variant, module and track: the same
    # data again (by its text, which says every key, value and type) is known to fit its schema.
    # Only data that fit is remembered: a mistake is always found and said again.
    seen = (kind, hashlib.sha256(repr(data).encode()).digest())
    if _FITS.get(seen) is None:
        for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
            mark = len(report.items)
            _report_error(err, data, schema, report)
            _about(report, mark, list(err.absolute_path))
        if len(report.items) > before:
            return None
        _FITS[seen] = True
    try:
        return FILE_KINDS[kind].model_validate(data)
    except ValidationError as e:  # the schema and the models agree but for the models' own checks
        for item in e.errors():
            path, message = _model_error(data, item["loc"], item["msg"])
            report.add("E026", f"invalid value for `{'.'.join(map(str, path))}`: {message}",
                       loc_at(data, path))
            _about(report, len(report.items) - 1, path)
        return None


def _about(report: Report, start: int, path: list) -> None:
    """The problems from `start` on are about the declaration at `path` (`piles.hand` for
    `piles.hand.of`): one a patch changed is said at the patch (`patches.blame_patches`)."""
    if len(path) >= 2 and all(isinstance(p, str) for p in path[:2]):
        for d in report.items[start:]:
            d.about = frozenset({f"{path[0]}.{path[1]}"})


def _model_error(data: Any, loc: Any, message: str) -> tuple[list, str]:
    """A model's own check (a validator's `ValueError`), said as the file is written: its path
    without what the file does not have (the kind a board's union adds), made precise by a path
    the message may start with (`space_props.3.to: ...`), its words without pydantic's prefix."""
    message = message.removeprefix("Value error, ")
    path: list = []
    node = data
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            continue
        path.append(part)
    head, sep, rest = message.partition(": ")
    if sep and re.fullmatch(r"\w+(\.\w+)*", head):
        more: list = []
        for part in head.split("."):
            key = int(part) if part.isdigit() else part
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return path, message
            more.append(key)
        return path + more, rest
    return path, message
