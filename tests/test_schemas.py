"""The JSON Schemas in schemas/ are the IR models' own, and every shipped file satisfies them."""
import json
from pathlib import Path

import jsonschema
import pytest

from interpreter.ir.models import FILE_KINDS, kind_of
from interpreter.ir.schema import schema_text
from interpreter.base.diagnostics import Report
from interpreter.load.yamlsrc import parse_yaml, read_text

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("kind", sorted(FILE_KINDS))
def test_committed_schema_matches_models(kind):
    path = ROOT / "schemas" / f"{kind}.schema.json"
    assert path.read_text(encoding="utf-8") == schema_text(kind), \
        f"{path} is stale: run `racecraft schemas`"


def _shipped():
    for pattern in ("rulesets/*/game.yaml", "rulesets/*/variants/*.yaml", "rulesets/*/modules/*.yaml",
                    "rulesets/*/scenarios/*.yaml", "cards/**/*.yaml", "tracks/**/*.yaml"):
        yield from sorted(ROOT.glob(pattern))


@pytest.mark.parametrize("path", list(_shipped()), ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_satisfy_their_schema(path):
    report = Report()
    data = parse_yaml(read_text(path, report), str(path), report)
    assert report.ok, report.render()
    kind = kind_of(data)
    schema = json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(json.loads(json.dumps(data)))


def test_schema_rejects_unknown_keys():
    schema = json.loads((ROOT / "schemas" / "variant.schema.json").read_text(encoding="utf-8"))
    bad = {"variant": {"id": "x", "name": "x", "description": "x"}, "patches": [{"set": "params.a", "to": 1}],
           "extra": 1}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(bad)
