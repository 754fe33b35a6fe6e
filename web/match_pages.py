"""The history page (every finished deal, its replay, the score chart and the sheet) and the
match summary (won partije, the chart, the exports): the live parts of ``/history`` and
``/summary`` (``templates/history.html``, ``templates/summary.html``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from web.view import View


def deal_records(view: View) -> list[dict[str, Any]]:
    """Each finished deal's record with how many tricks it had and, where the record keeps
    them, each trick in words (its cards and who took it)."""
    out = []
    for record in view.state.get("deals") or []:
        tricks = record.get("tricks")
        lines = []
        if isinstance(tricks, list):
            lines = [
                f"{view.t('trick_no', number=tr.get('number'))}: "
                f"{' '.join(view.card(c) for _, c in tr.get('plays') or [])} — "
                f"{view.t('trick_winner', name=view.name(tr.get('winner')))}"
                for tr in tricks
                if isinstance(tr, Mapping)
            ]
            count = len(tricks)
        else:
            count = tricks if isinstance(tricks, int) else 0
        out.append({"record": record, "count": count, "tricks": lines})
    return out
