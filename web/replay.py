"""A finished deal replayed trick by trick on the history page (``/history?deal=N&trick=K``).

The trick's cards lie in front of the seats that played them, on the same felt as the table
view, with links to the previous and next trick and to every trick of the deal: plain links,
so the replay works by keyboard and without a script, and each step can be bookmarked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from web.render import View, e, href
from web.table_view import felt


def replay_link(view: View, number: object) -> str:
    """The link that starts the replay of deal ``number`` at its first trick."""
    return (
        f'<a class="replay-link" href="{href("/history", deal=number, trick=1, lang=view.lang)}'
        f'#replay">{e(view.t("replay_start", number=number))}</a>'
    )


def _step(view: View, number: object, trick: int, key: str, cls: str) -> str:
    return (
        f'<a class="{cls}" href="{href("/history", deal=number, trick=trick, lang=view.lang)}'
        f'#replay">{e(view.t(key, number=trick))}</a>'
    )


def replay_section(view: View) -> str:
    """The replay the page's query asks for; nothing when it asks for none."""
    number, wanted = view.options.get("deal"), view.options.get("trick") or 1
    if number is None:
        return ""
    record: Mapping[str, Any] | None = next(
        (r for r in view.state.get("deals") or [] if r.get("number") == number), None
    )
    tricks = record.get("tricks") if record is not None else None
    close = (f'<a class="replay-close" href="{href("/history", lang=view.lang)}">'
             f"{e(view.t('replay_close'))}</a>")  # fmt: skip
    if not isinstance(tricks, list) or not tricks:
        return (f'<section id="replay" class="replay"><p class="replay-error" role="alert">'
                f"{e(view.t('replay_none', number=number))}</p>{close}</section>")  # fmt: skip
    if not 1 <= wanted <= len(tricks):
        return (f'<section id="replay" class="replay"><p class="replay-error" role="alert">'
                f"{e(view.t('replay_no_trick', number=number, trick=wanted, of=len(tricks)))}"
                f"</p>{_step(view, number, 1, 'replay_trick', 'replay-first')} {close}"
                f"</section>")  # fmt: skip
    trick = tricks[wanted - 1]
    winner = trick.get("winner")
    centre = (f'<p class="tv-trick" id="replay-trick">'
              f"{e(view.t('replay_of', trick=wanted, of=len(tricks)))}</p>"
              f"<p>{e(view.t('trick_winner', name=view.name(winner)))}</p>")  # fmt: skip
    steps = []
    if wanted > 1:
        steps.append(_step(view, number, wanted - 1, "replay_prev", "replay-prev"))
    if wanted < len(tricks):
        steps.append(_step(view, number, wanted + 1, "replay_next", "replay-next"))
    every = "".join(
        f"<li>{_step(view, number, k, 'replay_trick', 'replay-to')}</li>"
        if k != wanted
        else f'<li aria-current="step"><b>{e(view.t("replay_trick", number=k))}</b></li>'
        for k in range(1, len(tricks) + 1)
    )
    return (
        f'<section id="replay" class="replay" data-deal="{e(number)}" data-trick="{wanted}" '
        f'aria-labelledby="replay-title"><h2 id="replay-title">'
        f"{e(view.t('replay_title', number=number))}</h2>"
        f'<div class="tv">{felt(view, plays=trick.get("plays") or [], winner=winner, centre=centre)}'
        f'</div><nav class="replay-steps" aria-label="{e(view.t("replay_title", number=number))}">'
        f'{" ".join(steps)} {close}<ol class="replay-tricks">{every}</ol></nav></section>'
    )
