"""File structure checks: the JSON Schema of each file kind, with errors at the line.

The schemas are generated from the IR models (see `interpreter.ir.schema`); jsonschema finds
unknown keys and wrong types, and each error is placed at the key or value it is about.
"""
from __future__ import annotations

from functools import lru_cache

import jsonschema
from pydantic import ValidationError

from ..ir.models import FILE_KINDS
from ..ir.schema import schema_for
from ..lang.diagnostics import Loc, Report, did_you_mean


def loc_at(data, path, fallback: Loc | None = None, key: bool = False) -> Loc | None:
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


@lru_cache(maxsize=None)
def _validator(kind: str):
    schema = schema_for(kind)
    return jsonschema.Draft202012Validator(schema), schema


def _props_at(schema: dict, root: dict, path) -> set[str]:
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
    for alt in schema.get("anyOf", [schema]):
        t = alt.get("type")
        if isinstance(t, str):
            types.append(_TYPE_WORDS.get(t, t))
        elif "$ref" in alt:
            types.append("a mapping (key: value)")
        elif "enum" in alt or "const" in alt:
            types.append("one of " + ", ".join(map(str, alt.get("enum", [alt.get("const")]))))
    return " or ".join(dict.fromkeys(types)) or "another kind of value"


def check_structure(data, kind: str, file: str, report: Report):
    """Check loaded data against its kind's schema; return the IR model, or None."""
    validator, schema = _validator(kind)
    before = len(report.items)
    if not isinstance(data, dict):
        report.add("E020", f"a {kind} file must be a mapping of keys, not {_TYPE_WORDS.get(type(data).__name__, type(data).__name__)}",
                   getattr(data, "loc", Loc(file)))
        return None
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = list(err.absolute_path)
        where = ".".join(map(str, path)) or "the file"
        if err.validator == "additionalProperties":
            allowed = _props_at(schema, schema, path)
            for key in sorted(set(err.instance) - allowed, key=str):
                report.add("E021", f"unknown key `{key}` in {where}", loc_at(data, path + [key], key=True),
                           did_you_mean(key, allowed) or f"allowed keys: {', '.join(sorted(allowed))}")
        elif err.validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            report.add("E022", f"missing key `{missing}` in {where}", loc_at(data, path))
        elif err.validator in ("type", "anyOf"):
            report.add("E023", f"wrong type for `{where}`: expected {_describe_types(err.schema)}",
                       loc_at(data, path))
        elif err.validator in ("enum", "const"):
            options = err.schema.get("enum", [err.schema.get("const")])
            report.add("E024", f"`{err.instance}` is not allowed for `{where}`",
                       loc_at(data, path),
                       did_you_mean(err.instance, options) or "one of: " + ", ".join(map(str, options)))
        elif err.validator == "pattern":
            report.add("E025", f"`{err.instance}` is not a valid name for `{where}`",
                       loc_at(data, path), "names start with a letter and use letters, digits and _")
        else:
            report.add("E026", f"invalid value for `{where}`: {err.message}", loc_at(data, path))
    if len(report.items) > before:
        return None
    try:
        return FILE_KINDS[kind].model_validate(data)
    except ValidationError as e:  # the schema and the models agree; this is a safety net
        for item in e.errors():
            report.add("E026", f"invalid value for `{'.'.join(map(str, item['loc']))}`: {item['msg']}",
                       loc_at(data, item["loc"]))
        return None
