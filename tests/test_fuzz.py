"""Property-based tests: nothing a ruleset contains crashes the engine.

The promise: whatever a rule text or a game file says, the engine answers with diagnostics (a
`Report`) when it loads, checks and compiles it, and with a `RuleError` while playing; never
with another Python exception, a hang or exhausted memory. These tests write random rule texts
from the language's own tokens and random mutations of the shipped game files, and drive them
through the whole pipeline. Any other exception is a bug in the engine, not in the test.

Examples are derandomized, so CI sees the same ones each run; `bench/long_runs.py` runs the
same checks with many more (and fresh) examples.
"""
from __future__ import annotations

import os

import random
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.compile import compile_ruleset
from interpreter.engine.game import Game
from interpreter.lang import nodes as n
from interpreter.lang import unparse
from interpreter.base.diagnostics import Report
from interpreter.base.errors import GameTooLong, RuleError
from interpreter.lang.parser import keywords, parse_block, parse_expr
from interpreter.load.ruleset import load_ruleset
from interpreter.session.budget import OutOfTime, budget

ROOT = Path(__file__).resolve().parents[1]

# A mutated game plays at most this many decisions; what it does between two of them runs under
# the engine's time budget, which must never be what stops it: the engine's own limits (steps,
# sizes) stop a runaway rule first.
MAX_DECISIONS = 60

SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


# the suite's share of examples; RACECRAFT_FUZZ_SCALE=10 tries ten times as many (a long run)
FUZZ_SCALE = max(1, int(os.environ.get("RACECRAFT_FUZZ_SCALE", "1") or 1))


def fuzz_settings(n: int):
    return settings(max_examples=n * FUZZ_SCALE, deadline=None, derandomize=True,
                    suppress_health_check=SUPPRESS, database=None)


# ---- rule texts ------------------------------------------------------------------------------

KEYWORDS = sorted(keywords())
NAMES = ["x", "c", "s", "car", "cars", "deck", "discard", "hand", "column", "grid", "seats", "seat",
         "round", "size", "top", "bottom", "cards", "first", "last", "sum", "min", "max", "abs", "any",
         "all", "count", "distinct", "shuffled", "reversed", "piece", "slot_of", "at", "swap", "place",
         "owner", "number", "pieces", "face_up", "pile", "type", "_", "__x", "a1", "Z"]
OPERATORS = ["+", "-", "*", "//", "%", "==", "!=", "<=", ">=", "<", ">", "=", "+=", "-=", "..", ".",
             ",", ":", "(", ")", "[", "]", "{", "}", "'", '"', "\\", "/", "!", "@", "$", ";", "?", "&",
             "|", "~", "^", "`", "**", "->", "..."]
LAYOUT = ["\n", "\n    ", "\n        ", "\n  ", "\n\t", "\r\n", "\r", "\f", " ", "\t", "\n\n", "# note\n",
          "#", "\\\n", "\n   \n", "\x00", "\u00a0", "\u2028", "\ufeff"]
HUGE = [str(10 ** 18), str(10 ** 18 + 1), "9" * 19, "9" * 400, "0" * 30, "007", "1" * 5000]


def pick(items):
    """One of `items` (a strategy whose repr does not list them: hypothesis prints strategies)."""
    items = list(items)
    return st.integers(0, len(items) - 1).map(lambda i: items[i])


numbers = st.one_of(st.integers(0, 100).map(str), pick(HUGE), st.integers(0, 10 ** 40).map(str))
names = st.one_of(pick(NAMES), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True))
_inner = st.lists(st.one_of(pick(KEYWORDS + NAMES + OPERATORS), numbers), max_size=5).map(" ".join)


_ESCAPES = ('\\"', "\\\\", "\\n", "\\t", "\\q", "\\", "{", "}", "{}", "{{", "}}", "\\{")
_TEMPLATES = _inner.map(lambda s: "{" + s + "}")


def _strings(chars, templates=_TEMPLATES, escapes=_ESCAPES):
    """Quoted strings: characters, escapes (some wrong), `{...}` templates (some wrong)."""
    part = st.one_of(st.text(chars, max_size=4), st.sampled_from(escapes), templates)
    return st.lists(part, max_size=4).map(lambda parts: '"' + "".join(parts) + '"')


# Any character, lone surrogates too: a file cannot hold one, but a rule built in Python can.
strings = _strings(st.characters())
# strings that a YAML block holds as they are (no control characters, none of YAML's line breaks)
_PRINTABLE = st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"], exclude_characters='"\\{}')
plain_strings = _strings(_PRINTABLE, escapes=('\\"', "\\\\", "\\n", "\\t", "\\q", "{", "}", "{}"))
_token = st.one_of(pick(KEYWORDS), names, numbers, strings, pick(OPERATORS),
                   pick(LAYOUT), st.characters(codec="utf-8"))
token_soups = st.lists(st.tuples(_token, st.sampled_from(["", " ", " ", "  "])), max_size=40).map(
    lambda ts: "".join(t + sep for t, sep in ts))


# Texts shaped like the grammar (so that they parse, and reach the tree builder and the checker),
# then lightly broken: the parser must survive both. `names` and `strings` are what they are made
# of: any names, or a game's own (so that some pass the checker).
def _exprs(names=names, strings=strings, numbers=numbers, leaves=10, paren=False):
    """Expressions; with `paren`, every operation in parentheses (so that it parses as written)."""
    plain = st.one_of(names, numbers, st.sampled_from(["true", "false", "none"]))
    wrap = (lambda e: f"({e})") if paren else (lambda e: e)

    def grow(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "and", "or",
                                              "in", ".."]), inner).map(lambda t: wrap(" ".join(t))),
            inner.map(lambda e: f"({e})"), inner.map(lambda e: wrap(f"-{e}")),
            inner.map(lambda e: wrap(f"not {e}")),
            st.tuples(inner, names).map(lambda t: f"{t[0]}.{t[1]}"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(names, st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
            st.tuples(inner, names, inner, st.none() | inner).map(
                lambda t: f"[{t[0]} for {t[1]} in {t[2]}" + (f" if {t[3]}]" if t[3] else "]")),
            st.tuples(inner, inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        ) | (st.nothing() if paren else st.tuples(st.text(alphabet="ab {}\\n", max_size=3), inner).map(
            lambda t: '"' + t[0] + "{" + t[1].replace('"', '\\"') + '}"'))
    return st.recursive(plain | strings, grow, max_leaves=leaves)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _statements(names=names, strings=strings, numbers=numbers, leaves=10, paren=False):
    exprs = _exprs(names, strings, numbers, leaves, paren)
    # what a statement may start with: a name, a call, an attribute, an index (grammar: `postfix`)
    postfix = st.one_of(
        names, st.tuples(names, st.lists(exprs, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(names, names).map(".".join), st.tuples(names, exprs).map(lambda t: f"{t[0]}[{t[1]}]"))
    simple = st.one_of(
        st.tuples(names, exprs).map(lambda t: f"let {t[0]} = {t[1]}"),
        st.tuples(postfix, st.sampled_from(["=", "+=", "-="]), exprs).map(" ".join),
        postfix,
        st.tuples(exprs, exprs, st.sampled_from(["", " face up", " face down"]),
                  st.sampled_from(["", " at top", " at bottom"])).map(
            lambda t: f"move {t[0]} to {t[1]}{t[2]}{t[3]}"),
        st.tuples(exprs, exprs, exprs).map(lambda t: f"draw {t[0]} from {t[1]} to {t[2]}"),
        exprs.map(lambda e: f"shuffle {e}"), names.map(lambda n: f"emit {n}"),
        st.sampled_from(["end game", "break", "pass"]), strings.map(lambda s: f"say {s}"),
    ).map(lambda line: [line])

    def grow(body):
        suite = st.lists(body, min_size=1, max_size=3).map(lambda bs: _indent([ln for b in bs for ln in b]))
        option = st.tuples(strings, st.none() | st.tuples(names, exprs), st.none() | exprs, suite).map(
            lambda t: [f"option {t[0]}" + (f" for {t[1][0]} in {t[1][1]}" if t[1] else "")
                       + (f" if {t[2]}" if t[2] else "") + ":"] + t[3])
        return st.one_of(
            st.tuples(exprs, suite, st.lists(st.tuples(exprs, suite), max_size=2), st.none() | suite).map(
                lambda t: [f"if {t[0]}:"] + t[1] + [ln for c, b in t[2] for ln in [f"elif {c}:"] + b]
                + (["else:"] + t[3] if t[3] else [])),
            st.tuples(names, exprs, suite).map(lambda t: [f"for {t[0]} in {t[1]}:"] + t[2]),
            st.tuples(exprs, suite).map(lambda t: [f"while {t[0]}:"] + t[1]),
            st.tuples(st.none() | strings, st.none() | exprs, st.lists(option, min_size=1, max_size=3)).map(
                lambda t: ["choose" + (f" {t[0]}" if t[0] else "") + (f" by {t[1]}" if t[1] else "") + ":"]
                + _indent([ln for o in t[2] for ln in o])),
            st.tuples(names, exprs, suite).map(lambda t: [f"simultaneously for {t[0]} in {t[1]}:"] + t[2]),
        )
    return st.recursive(simple, grow, max_leaves=max(2, leaves - 2))


def _blocks(names=names, strings=strings, numbers=numbers, leaves=10, paren=False):
    return st.lists(_statements(names, strings, numbers, leaves, paren), min_size=1, max_size=4).map(
        lambda ss: "\n".join(ln for s in ss for ln in s))


# deferred: built when first drawn from, and with a short repr (hypothesis prints strategies)
exprs = st.deferred(_exprs)
blocks = st.deferred(lambda: _blocks(leaves=6))


def _break_text(text: str, edits) -> str:
    """Apply small edits (insert a token, delete a span) at relative positions."""
    for where, kind, what in edits:
        i = int(where * len(text))
        if kind == "insert":
            text = text[:i] + what + text[i:]
        else:
            text = text[:i] + text[i + len(what) + 1:]
    return text


_edits = st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["insert", "delete"]),
                            st.one_of(pick(OPERATORS + LAYOUT + KEYWORDS), numbers, strings)),
                  max_size=2)


_POSTFIX = (n.Num, n.Text, n.Bool, n.NoneLit, n.Name, n.Attr, n.Index, n.Call, n.ListLit, n.Comp)


def _statement_in_parentheses(tree) -> bool:
    """A line that is a bare value or assigns to one, in parentheses (`(-x)`, `(a or b) = 1`): the
    grammar takes it, the checker refuses it (E127, E128), and the printer drops its parentheses,
    so it does not print back to a statement."""
    for node in n.walk(tree):
        target = node.expr if isinstance(node, n.Do) else getattr(node, "target", None)
        if isinstance(node, n.Stmt) and target is not None and not isinstance(target, _POSTFIX):
            return True
    return False


def check_rule_text(text: str) -> None:
    """Both parsers answer with a tree or with diagnostics, never with an exception; a tree that
    parses prints (`unparse`) to a text that parses again to the same tree."""
    for parse, show in ((parse_block, lambda t: unparse.block(t.body)), (parse_expr, unparse.expr)):
        report = Report()
        tree = parse(text, report)
        if tree is None:
            assert not report.ok, f"{parse.__name__} refused {text!r} without saying why"
            continue
        assert report.ok, report.render()
        if _statement_in_parentheses(tree):
            continue
        printed = show(tree)
        again = parse(printed, Report())
        assert again is not None and show(again) == printed, (text, printed)


@fuzz_settings(200)
@given(token_soups)
def test_rule_texts_made_of_tokens_never_crash_the_parser(text):
    check_rule_text(text)


@fuzz_settings(60)
@given(blocks, _edits)
def test_rule_texts_shaped_like_the_grammar_never_crash_the_parser(text, edits):
    check_rule_text(_break_text(text, edits))


@fuzz_settings(100)
@given(exprs, _edits)
def test_expressions_shaped_like_the_grammar_never_crash_the_parser(text, edits):
    check_rule_text(_break_text(text, edits))


def test_a_string_inside_a_template_prints_back_to_a_rule_that_parses():
    tree = parse_expr(r'"a{f(\"b\")}c"', Report())
    assert tree is not None
    printed = unparse.expr(tree)  # '"a{f("b")}c"': the inner quotes end the string
    assert parse_expr(printed, Report()) is not None, printed


def test_a_rule_text_with_a_lone_surrogate_is_a_diagnostic_or_a_tree():
    report = Report()
    tree = parse_block('say "\ud800"', report)
    assert tree is not None or not report.ok


# ---- mutated game files ------------------------------------------------------------------------

# (game, file mutated, variants applied): the file's text is mutated, the rest stays as shipped.
# The tests mutate the first three; `bench/long_runs.py` all of them.
TARGETS = {
    "formula5": ("formula5", "rulesets/formula5/game.yaml", ()),
    "tilerace": ("tilerace", "rulesets/tilerace/game.yaml", ()),
    "heat-handicap": ("heat", "rulesets/heat/variants/handicap.yaml", ("handicap",)),
    "heat": ("heat", "rulesets/heat/game.yaml", ()),
    "downforce": ("downforce", "rulesets/downforce/game.yaml", ()),
    "formula5-pit-lane": ("formula5", "rulesets/formula5/variants/pit-lane.yaml", ("pit-lane",)),
    "downforce-world-tour": ("downforce", "rulesets/downforce/variants/world-tour.yaml", ("world-tour",)),
    "formula5-cards": ("formula5", "cards/formula5/cards.yaml", ()),
    "tilerace-tiles": ("tilerace", "cards/tilerace/tiles.yaml", ()),
    "heat-usa": ("heat", "tracks/heat/usa.yaml", ()),
    "downforce-river-station": ("downforce", "tracks/downforce/river-station.yaml", ()),
    "downforce-lakeshore-bay": ("downforce", "tracks/downforce/lakeshore-bay.yaml", ()),
    # the Garage module, brought by the variant that requires it, and its cards
    "heat-garage": ("heat", "rulesets/heat/modules/garage.yaml", ("garage-quick-start",)),
    "heat-upgrades": ("heat", "cards/heat/upgrades.yaml", ("garage-quick-start",)),
}
TESTED = ("formula5", "tilerace", "heat-handicap")
CONTROL = [chr(c) for c in range(0, 32)] + ["\x7f", "\x85", "\u2028", "\ufeff", "\udcff"]  # \udcff: byte 0xff
NON_ASCII = ["é", "ß", "й", "中", "😀", "\u0301", "\u00a0", "\u200b", "ﬁ", "Ⅻ"]
YAML_BITS = [":", "- ", "|", ">", "{", "}", "[", "]", "&a ", "*a", "!!python/object:os.system ", "<<: ", "? ",
             "---", "...", "%YAML 1.1", "'", '"', "#", ",", "~", "null", "yes", "no", ".inf", "0x1F", "1e9",
             "2001-12-14", "=", "@", "`"]
# YAML values that are not the language's (fractions, mappings, nothing): their type is `any`
NONE_SOMETIMES = ["none", "if round > 1 then none else ({})", "if round == 1 then none else ({})",
                  "if true then none else ({})"]
ODD_VALUES = ["1.5", "-0.0", ".nan", ".inf", "{a: 1}", "{}", "null", "[]", "[1, a]", "[[1]]", "1e400"]
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_]")
_NEWLINE = re.compile("\n")


def project_files(game: str) -> list[str]:
    """What a game reads, relative to the project: its ruleset, cards and tracks folders."""
    return [f"{top}/{game}" for top in ("rulesets", "cards", "tracks") if (ROOT / top / game).is_dir()]


def make_project(dest: Path, games) -> Path:
    """A copy of the project's layout (rulesets/, cards/, tracks/) for these games, in `dest`."""
    for game in games:
        for rel in project_files(game):
            shutil.copytree(ROOT / rel, dest / rel, dirs_exist_ok=True)
    return dest


def _ids_of(game: str) -> dict[str, list[str]]:
    """The ids of a shipped game by what they name: "params", "steps", "phases", ... (with what a
    patch aims at: `params.hand_size`, `steps.react`), and "any": every address, and a few wrong."""
    data = yaml.safe_load((ROOT / "rulesets" / game / "game.yaml").read_text(encoding="utf-8"))
    ids: dict[str, list[str]] = {}
    for section in ("params", "pieces", "boards", "piles", "state", "functions", "procedures", "record",
                    "show"):
        ids[section] = [f"{section}.{k}" for k in (data.get(section) or {})]
    ids["phases"] = [f"phases.{ph['id']}" for ph in data.get("phases", [])]
    ids["steps"] = [f"steps.{s['id']}" for ph in data.get("phases", []) for s in ph.get("steps", [])]
    ids["triggers"] = [f"triggers.{t['id']}" for t in data.get("triggers", [])]
    ids["any"] = sorted({i for v in ids.values() for i in v} | {
        "setup", "result", "limits", "evaluate", "show", "result.rank", "limits.max_steps",
        "limits.max_rounds", "nothing.here", "steps", "params", "phases.nothing", "steps.nothing.if"})
    return {k: v or ["nothing.here"] for k, v in ids.items()}


def _word_pool(text: str) -> list[str]:
    return sorted(set(_WORD.findall(text)))


def _patches(game: str, own_exprs, own_blocks):
    """A patch of a variant, aimed at one of the game's ids, mostly in the form that id takes."""
    ids = {k: pick(v) for k, v in _ids_of(game).items()}
    rule = own_exprs.map(lambda e: "'" + e.replace("'", "''") + "'")
    values = st.one_of(
        st.integers(-10 ** 20, 10 ** 20).map(str),
        st.sampled_from(["0", "-1", "true", "[]", "{}", "null", '""']),
        st.sampled_from(["[1, 2, 3]", "{of: seat}", "'size(deck)'", '"round > 3"', "'1 // 0'", '"x"',
                         "'[n for n in 1..1000000000]'", "'shuffled(cards(deck))'", "100000000000000000000"]),
        rule,
    )
    body = own_blocks.map(lambda b: "".join(f"        {ln}\n" for ln in b.splitlines()))
    small = st.one_of(st.integers(-3, 30), st.sampled_from([0, 10 ** 9, 10 ** 18, 10 ** 19, -(10 ** 19)]))
    small = small.map(str)
    return st.one_of(
        st.tuples(ids["any"], values).map(lambda t: f"  - set: {t[0]}\n    to: {t[1]}"),
        st.tuples(ids["params"], st.one_of(small, values, st.lists(small, max_size=6).map(
            lambda x: f"[{', '.join(x)}]"))).map(lambda t: f"  - set: {t[0]}\n    to: {t[1]}"),
        st.tuples(st.sampled_from(["limits.max_steps", "limits.max_rounds"]), small).map(
            lambda t: f"  - set: {t[0]}\n    to: {t[1]}"),
        st.tuples(ids["steps"], st.sampled_from(["if", "do"]), rule).map(
            lambda t: f"  - update: {t[0]}\n    with:\n      {t[1]}: {t[2]}"),
        st.tuples(ids["steps"], body).map(lambda t: f"  - update: {t[0]}\n    with:\n      do: |\n{t[1]}"),
        st.tuples(ids["phases"], st.sampled_from(["until", "order", "rounds"]), st.one_of(rule, small)).map(
            lambda t: f"  - update: {t[0]}\n    with:\n      {t[1]}: {t[2]}"),
        st.tuples(ids["functions"], rule).map(
            lambda t: f"  - update: {t[0]}\n    with:\n      value: {t[1]}"),
        st.tuples(st.one_of(ids["procedures"], ids["triggers"]), body).map(
            lambda t: f"  - update: {t[0]}\n    with:\n      do: |\n{t[1]}"),
        st.one_of(ids["any"], ids["steps"], ids["triggers"]).map(lambda i: f"  - remove: {i}"),
        st.tuples(ids["any"], body).map(lambda t: f"  - replace: {t[0]}\n    with:\n      do: |\n{t[1]}"),
        st.tuples(ids["phases"], st.sampled_from(["before", "after"]), ids["steps"], names, body).map(
            lambda t: f"  - add: steps.{t[0].split('.')[1]}\n    {t[1]}: {t[2].split('.')[1]}\n    item:\n"
                      f"      id: {t[3]}\n      do: |\n{t[4]}"),
        st.tuples(st.sampled_from(["round_end", "round_start", "turn_end", "game_start", "phase_end"]), names,
                  body).map(lambda t: f"  - add: triggers\n    item:\n      id: {t[1]}\n      on: {t[0]}\n"
                                      f"      do: |\n{t[2]}"),
        st.tuples(names, rule).map(lambda t: f"  - add: record\n    id: {t[0]}\n    item: {t[1]}"),
    )


def mutations(game: str, path: str):
    """A list of mutations of `text` (a shipped file of `game`), each one kept as data so that
    hypothesis shrinks it and a failure prints it. Most aim inside the file's YAML values (rule
    texts above all), so that the mutated file still reads as YAML and reaches the checker, the
    compiler and the game."""
    text = (ROOT / path).read_text(encoding="utf-8")
    pool = _word_pool(text) + _word_pool((ROOT / "rulesets" / game / "game.yaml").read_text(encoding="utf-8"))
    # made of the game's own names, so that some of them pass the checker
    own = pick([w for w in pool if w[0].isalpha() and w not in KEYWORDS])
    small = st.integers(0, 20).map(str)
    own_numbers = st.one_of(small, small, small, st.sampled_from([str(10 ** 18), str(10 ** 18 + 1)]))
    own_templates = st.deferred(lambda: _exprs(own, st.nothing(), own_numbers, 3, True)).map(
        lambda e: "{" + e + "}")
    own_strings = _strings(_PRINTABLE, own_templates, ('\\"', "\\n", " "))
    own_exprs = st.deferred(lambda: _exprs(own, own_strings, own_numbers, 5, True))
    own_blocks = st.deferred(lambda: _blocks(own, own_strings, own_numbers, 5, True))
    replacement = st.one_of(
        pick(pool), pick(pool), pick(KEYWORDS + OPERATORS + YAML_BITS),
        st.integers(-10 ** 25, 10 ** 25).map(str), pick(HUGE), strings, exprs,
        pick(ODD_VALUES),
    )
    # `none` fits every type: the checker lets it through, so the engine meets it while playing
    in_rule = st.one_of(pick(pool), pick(KEYWORDS + OPERATORS), st.just("none"),
                        st.integers(-10 ** 20, 10 ** 20).map(str), pick(HUGE), own_exprs)
    chars = st.lists(st.one_of(pick(CONTROL + NON_ASCII + YAML_BITS), st.characters(codec="utf-8")),
                     min_size=1, max_size=4).map("".join)
    where = st.integers(0, 10 ** 6)
    patches = _patches(game, own_exprs, own_blocks)
    one = st.one_of(
        st.tuples(st.just("delete_line"), where),
        st.tuples(st.just("duplicate_line"), where),
        st.tuples(st.just("swap_lines"), where, where),
        st.tuples(st.just("replace_token"), where, replacement),
        st.tuples(st.just("insert"), where, chars),
        st.tuples(st.just("insert_line"), where, st.one_of(patches, own_blocks.map(lambda b: "    " + b))),
        # a variant's patches go at its end, under `patches:`
        *[st.tuples(st.just("append"), patches)] * (4 if "/variants/" in path else 1),
        st.tuples(st.just("value_token"), where, where, replacement),
        st.tuples(st.just("rule_token"), where, where, in_rule),
        # a token of a rule for another of its kind (a name for a name, a number for a number...)
        st.tuples(st.just("rule_same"), where, where, where),
        st.tuples(st.just("rule_same"), where, where, where),
        st.tuples(st.just("rule_line"), where, where, own_blocks),
        st.tuples(st.just("rule_line"), where, where, own_blocks),
        # a whole one-line rule (a condition, a function's value, the result) becomes another,
        # or is sometimes `none` (which fits every type)
        st.tuples(st.just("rule_value"), where, own_exprs),
        st.tuples(st.just("rule_none"), where, st.integers(0, len(NONE_SOMETIMES) - 1)),
    )
    return st.lists(one, min_size=1, max_size=3)


_KINDS = [re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z"), re.compile(r"\d+\Z"), re.compile(r"\S\Z")]


def _same_kind(pool: list[str], token: str, which: int) -> str:
    """A word of `pool` of the same kind as `token`: a name, a number (or a new one), a sign."""
    for kind in _KINDS:
        if kind.match(token):
            if kind is _KINDS[1]:
                return str([0, 1, 2, 7, 100, 10 ** 6, 10 ** 18, 10 ** 18 + 1, 2 ** 63][which % 9])
            same = [w for w in pool if kind.match(w) and w not in ("'", '"', "#", "|", ">", ":")]
            return same[which % len(same)] if same else token
    return token


def _values(text: str) -> list[tuple[int, int, str]]:
    """(start, end, style) of each scalar of a YAML text, keys included; [] if it is not YAML."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return []
    out, stack = [], [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            out.append((node.start_mark.index, node.end_mark.index, node.style or ""))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(x for kv in node.value for x in kv)
    return sorted(out)


def _is_rule(text: str, span) -> bool:
    a, b, _style = span
    return any(ch in text[a:b] for ch in " ()[]")


def _replace_token_in(text: str, a: int, b: int, which: int, new: str, style: str) -> str:
    spans = [t.span() for t in _WORD.finditer(text, a, b)]
    if not spans:
        return text
    x, y = spans[which % len(spans)]
    if style == "'":
        new = new.replace("'", "''")
    elif style == '"':
        new = new.replace("\\", "\\\\").replace('"', '\\"')
    elif style in ("|", ">"):
        new = new.replace("\n", " ")
    return text[:x] + new + text[y:]


def _replace_rule_line(text: str, a: int, b: int, which: int, new: str) -> str:
    """A line of a block value (`do: |`) becomes `new`, at the line's own indentation."""
    lines = []
    for m in _NEWLINE.finditer(text, a, b - 1):
        i = m.start() + 1
        j = text.find("\n", i)
        j = len(text) if j < 0 else j
        if not text[i:j].split("#")[0].rstrip().endswith(":"):  # not a block's header
            lines.append((i, j))
    if not lines:
        return text
    i, j = lines[which % len(lines)]
    line = text[i:j]
    pad = line[: len(line) - len(line.lstrip(" "))]
    return text[:i] + "\n".join(pad + ln for ln in new.splitlines()) + text[j:]


def mutate(text: str, muts) -> str:
    for m in muts:
        kind = m[0]
        if kind == "append":
            text = text.rstrip("\n") + "\n" + m[1] + "\n"
            continue
        if kind == "rule_none":
            spans = [sp for sp in _values(text) if _is_rule(text, sp) and sp[2] in ("'", '"')]
            if spans:
                a, b, _style = spans[m[1] % len(spans)]
                before, keep, after = NONE_SOMETIMES[m[2]].partition("{}")
                text = text[:a + 1] + before + (text[a + 1:b - 1] if keep else "") + after + text[b - 1:]
            continue
        if kind in ("value_token", "rule_token", "rule_same", "rule_line", "rule_value"):
            spans = _values(text)
            if kind in ("rule_token", "rule_same"):
                spans = [sp for sp in spans if _is_rule(text, sp)]
            elif kind == "rule_value":
                spans = [sp for sp in spans if _is_rule(text, sp) and sp[2] in ("'", '"')]
                if spans:
                    a, b, style = spans[m[1] % len(spans)]
                    new = m[2].replace(style, style * 2) if style == "'" else m[2].replace('"', "'")
                    text = text[:a] + style + new + style + text[b:]
                continue
            elif kind == "rule_line":
                spans = [sp for sp in spans if sp[2] == "|"]
            if spans:
                a, b, style = spans[m[1] % len(spans)]
                if kind == "rule_line":
                    text = _replace_rule_line(text, a, b, m[2], m[3])
                elif kind == "rule_same":
                    words = _WORD.findall(text, a, b)
                    if words:
                        old = words[m[2] % len(words)]
                        new = _same_kind(_WORD.findall(text, a, b) + _word_pool(text), old, m[3])
                        text = _replace_token_in(text, a, b, m[2], new, style)
                else:
                    text = _replace_token_in(text, a, b, m[2], m[3], style)
            continue
        if kind == "replace_token":
            text = _replace_token_in(text, 0, len(text), m[1], m[2], "")
            continue
        if kind == "insert":
            i = m[1] % (len(text) + 1)
            text = text[:i] + m[2] + text[i:]
            continue
        lines = text.split("\n")
        if kind == "delete_line":
            del lines[m[1] % len(lines)]
        elif kind == "duplicate_line":
            i = m[1] % len(lines)
            lines.insert(i, lines[i])
        elif kind == "swap_lines":
            i, j = m[1] % len(lines), m[2] % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "insert_line":
            lines.insert(m[1] % (len(lines) + 1), m[2])
        text = "\n".join(lines)
    return text


def play_briefly(plan, seed: int, greedy: bool = False, max_decisions: int = MAX_DECISIONS) -> None:
    """A few decisions of a game, doing what a table does at each: the prompt, the labels, the
    seat's view, the bot's pick; the result if it ended. Each run of the rules is under the
    engine's time budget, as in `play`. A RuleError is for the caller."""
    with budget():
        game = Game(plan, seed)
    kind = GreedyAgent if greedy else RandomAgent
    bots = [kind(f"fuzz/{seed}/{s}") for s in range(plan.n_seats)]
    for _ in range(max_decisions):
        with budget():
            if game.over:
                game.result()
                return
            d = game.decision()
            assert d is not None, "a game that is not over waits for a decision"
            assert d.count >= 2, "a choice with one option is taken without asking"
            assert d.seat is None or (type(d.seat) is int and 0 <= d.seat < plan.n_seats), \
                f"the seat to choose is {d.seat!r}, not a seat"
            _ = d.prompt, d.labels()
            game.view(d.seat)
            game.choose(bots[d.seat].choose(game, d) if d.seat is not None else 0)


def check_game_text(project: Path, target: str, text: str, seed: int, greedy: bool = False,
                    explain: bool = False) -> str:
    """Write `text` as the target's file in `project`, then load, compile and play it (and with
    `explain`, print its rules as `racecraft explain` does). Returns how far it went ("load",
    "compile", "rule error", "played"); any other exception escapes."""
    game, rel, variants = TARGETS[target]
    path = project / rel
    original = path.read_bytes()
    try:
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        outcome = _load_compile_play(project / "rulesets" / game, variants, seed, greedy, explain)
    finally:
        path.write_bytes(original)
    return outcome


def _load_compile_play(folder: Path, variants, seed: int, greedy: bool, explain: bool = False) -> str:
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report)
    if rs is None:
        assert not report.ok, "load_ruleset gave nothing and said nothing"
        return "load"
    players = max(2, rs.game.game.players.min)
    if players > rs.game.game.players.max:
        players = rs.game.game.players.min
    plan = compile_ruleset(rs, players, report)
    if plan is None:
        assert not report.ok, "compile_ruleset gave nothing and said nothing"
        return "compile"
    if explain:
        from interpreter.authoring.explain import explain as explain_rules
        from interpreter.session.load import Loaded

        for python in (False, True):
            explain_rules(Loaded(rs, folder, list(variants), []), players, None, python)
    try:
        play_briefly(plan, seed, greedy)
    except OutOfTime as e:
        pytest.fail(f"the engine's limits did not stop the rules: {e}")
    except RuleError:
        return "rule error"
    return "played"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("project"), {TARGETS[t][0] for t in TESTED})


def _mutation_test(target: str, n: int):
    game, rel, _ = TARGETS[target]
    shipped = (ROOT / rel).read_text(encoding="utf-8")

    @fuzz_settings(n)
    @given(muts=mutations(game, rel), seed=st.integers(0, 2 ** 16), greedy=st.booleans())
    def test(project, muts, seed, greedy):
        check_game_text(project, target, mutate(shipped, muts), seed, greedy and seed % 4 == 0)

    test.__name__ = f"test_mutated_{target.replace('-', '_')}_never_crashes_the_engine"
    return test


test_mutated_formula5_never_crashes_the_engine = _mutation_test("formula5", 30)
test_mutated_tilerace_never_crashes_the_engine = _mutation_test("tilerace", 20)
test_mutated_heat_variant_never_crashes_the_engine = _mutation_test("heat-handicap", 16)


def test_the_shipped_files_pass_the_mutation_harness_unchanged(project):
    """The harness itself: the unmutated files load, compile and play."""
    for target in TESTED:
        rel = TARGETS[target][1]
        text = (ROOT / rel).read_text(encoding="utf-8")
        assert check_game_text(project, target, text, seed=1) in ("played",), target


def test_mutate_keeps_the_text_when_asked_for_nothing_and_changes_it_otherwise():
    text = "a: 1\nb: [x, y]\n"
    assert mutate(text, []) == text
    assert mutate(text, [("delete_line", 0)]) == "b: [x, y]\n"
    assert mutate(text, [("replace_token", 2, "9")]) == "a: 9\nb: [x, y]\n"
    rng = random.Random(0)
    assert mutate(text, [("insert", rng.randrange(100), "\x00")]) != text


# ---- engine failures found by these tests (each fixed; kept so that it stays fixed) -------

TINY = """\
game: {id: tiny, name: Tiny, players: {min: 2, max: 2}}
params:
  chooser: 1
state:
  score: {of: seat}
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: |
          choose "pick" by s:
              option "one":
                  s.score = 1
              option "none":
                  s.score = none
    rounds: 1
result:
  rank: "seat.score"
evaluate: "seat.score"
"""


def tiny(tmp_path: Path, text: str = TINY):
    """The plan of a two-player game written in `text`, or None (refused with diagnostics)."""
    folder = tmp_path / "rulesets" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    report = Report()
    rs = load_ruleset(folder, report=report)
    plan = compile_ruleset(rs, 2, report) if rs is not None else None
    assert plan is not None or not report.ok
    return plan


def test_a_rank_that_is_none_is_a_rule_error(tmp_path):
    plan = tiny(tmp_path)
    game = Game(plan, 1)
    game.choose(1)  # seat 1: score = none
    game.choose(0)
    assert game.over
    with pytest.raises(RuleError):
        game.result()


def test_a_greedy_bot_survives_an_evaluate_that_is_none(tmp_path):
    game = Game(tiny(tmp_path), 1)
    try:
        pick = GreedyAgent(0).choose(game, game.decision())
    except RuleError:
        return
    assert pick in (0, 1)


@pytest.mark.parametrize("value", ["1.5", "{a: 1}"])
def test_a_param_that_is_not_a_seat_cannot_choose(tmp_path, value):
    from interpreter.session.playing import play

    plan = tiny(tmp_path, TINY.replace("chooser: 1", f"chooser: {value}").replace("by s:", "by chooser:"))
    if plan is None:
        return  # refused with a diagnostic: fine
    with pytest.raises(RuleError):
        play(Game(plan, 1), [RandomAgent(0), RandomAgent(1)])


# ---- runaway rules: stopped by the step limit (copies count steps by their size) ----------------

RUNAWAY = {
    # `+` copies both lists: were a copy one step, the list ceiling (100000 items) would stop this
    # loop only after some 5*10^9 items copied, half a minute or more
    "a list joined in a loop": "let ys = [0]\n  while true:\n      ys = ys + [1]",
    # a store into a map state copies the map, which has no ceiling: quadratic up to the step limit
    "a map given new keys in a loop": 'let i = 0\n  while true:\n      i += 1\n      tally["{i}"] = i',
}


@pytest.mark.parametrize("rule", RUNAWAY.values(), ids=RUNAWAY.keys())
def test_a_runaway_rule_is_stopped_by_the_step_limit(tmp_path, rule):
    text = TINY.replace("  score: {of: seat}", '  score: {of: seat}\n  tally: {type: "map[text,int]"}')
    text = text.replace("phases:", f"setup: |\n  {rule}\nlimits:\n  max_steps: 200000\nphases:")
    plan = tiny(tmp_path, text)
    if plan is None:
        return  # refused with a diagnostic: fine
    # the step limit, which counts a copy by its size, stops it (not the list ceiling after
    # billions of items copied, nor the time budget, the last net under the limits)
    with budget(), pytest.raises(GameTooLong, match="copies") as stopped:
        Game(plan, 1)
    assert not isinstance(stopped.value, OutOfTime)
