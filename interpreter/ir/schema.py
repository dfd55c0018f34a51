"""JSON Schemas of the designer-written files, generated from the IR models."""
from __future__ import annotations

import json
from pathlib import Path

from ..base.files import CannotWrite, write_atomic
from .models import FILE_KINDS

SCHEMA_BASE = "https://racecraft.invalid/schemas/"


def schema_for(kind: str) -> dict:
    schema = FILE_KINDS[kind].model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"{SCHEMA_BASE}{kind}.schema.json"
    schema["title"] = f"Racecraft {kind} file"
    return schema


def schema_text(kind: str) -> str:
    return json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CannotWrite(f"cannot write {folder}: {e.strerror or e}") from None
    written = []
    for kind in FILE_KINDS:
        path = folder / f"{kind}.schema.json"
        write_atomic(path, schema_text(kind))
        written.append(path)
    return written
