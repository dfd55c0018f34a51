"""The ranking: an ordered row of slots 1..n, one piece each.

The ranking's run-time data lives in the state itself (`st.slots`, `st.pslot`), since pieces'
`.slot`, `at`, `slots`, `place`, `swap` and `set_order` are part of the core language.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .base import BoardKind, register


class RankingModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="RankingBoard")
    kind: Literal["ranking"] = Field(description="ranking: an ordered row of slots 1..n")
    slots: int = Field(ge=1, le=64)


@register
class Ranking(BoardKind):
    kind = "ranking"
    Model = RankingModel

    @property
    def places(self) -> int:
        return self.decl.slots

    def view(self, st, seat):
        names = self.plan.piece_names
        return [None if pc is None else names[pc] for pc in st.slots[self.index]]

    def svg(self) -> str:
        n = self.decl.slots
        w = 60 * n + 20
        cells = "".join(
            f'<rect x="{10 + 60 * i}" y="10" width="50" height="70" fill="#fff" stroke="#333"/>'
            f'<text x="{35 + 60 * i}" y="52" font-size="20" text-anchor="middle">{i + 1}</text>'
            for i in range(n))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="90" '
                f'viewBox="0 0 {w} 90">{cells}</svg>\n')
