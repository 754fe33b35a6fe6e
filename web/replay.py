"""A finished deal replayed trick by trick on the history page (``/history?deal=N&trick=K``).

The trick's cards lie in front of the seats that played them, on the same felt as the table
view, with links to the previous and next trick and to every trick of the deal: plain links,
so the replay works by keyboard and without a script, and each step can be bookmarked
(``templates/replay.html``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from web.view import View


def replay_of(view: View) -> dict[str, Any] | None:
    """The replay the page's query asks for (``None``: it asks for none): the deal's number,
    its tricks (``None`` when the record keeps none), the trick wanted and that trick (``None``
    when the deal has no such trick)."""
    number, wanted = view.options.get("deal"), view.options.get("trick") or 1
    if number is None:
        return None
    record: Mapping[str, Any] | None = next(
        (r for r in view.state.get("deals") or [] if r.get("number") == number), None
    )
    tricks = record.get("tricks") if record is not None else None
    if not isinstance(tricks, list) or not tricks:
        tricks = None
    trick = tricks[wanted - 1] if tricks and 1 <= wanted <= len(tricks) else None
    return {"number": number, "wanted": wanted, "tricks": tricks, "trick": trick}
