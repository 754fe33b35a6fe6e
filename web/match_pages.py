"""The history page (every finished deal, its replay, the score chart and the sheet) and the
match summary (won partije, the chart, the exports): the live parts of ``/history`` and
``/summary``, rendered from the snapshot like every page (``web.render``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from web.chart import score_charts
from web.render import View, e, score_sheet, violation_item
from web.replay import replay_link, replay_section


def history_part(view: View) -> str:
    records = list(view.state.get("deals") or [])
    if not records:
        body = f'<p class="empty">{e(view.t("history_empty"))}</p>'
    else:
        items = []
        for record in records:
            scores = record.get("scores") or {}
            score_text = ", ".join(
                f"{view.t('side_name', side=s)}: {view.score(v)}" for s, v in scores.items()
            )
            violations = "".join(
                violation_item(view, v, scores=scores) for v in record.get("violations") or []
            )
            tricks = record.get("tricks")
            tricks_html = ""
            if isinstance(tricks, list):
                tricks_html = "".join(
                    f"<li>{e(view.t('trick_no', number=tr.get('number')))}: "
                    f"{' '.join(e(view.card(c)) for _, c in tr.get('plays') or [])} — "
                    f"{e(view.t('trick_winner', name=view.name(tr.get('winner'))))}</li>"
                    for tr in tricks
                    if isinstance(tr, Mapping)
                )
                tricks_html = f'<ol class="tricks">{tricks_html}</ol>' if tricks_html else ""
                count = len(tricks)
            else:
                count = tricks if isinstance(tricks, int) else 0
            items.append(
                f'<article class="deal-record" data-number="{e(record.get("number"))}">'
                f"<h2>{e(view.t('deal_no', number=record.get('number')))}</h2>"
                f"<p>{e(view.t('tricks_count'))}: {e(count)} · {e(score_text)}</p>"
                f'<p class="detail">{e(view.detail(record.get("detail"), record.get("said")))}</p>'
                f"{f'<ul>{violations}</ul>' if violations else ''}"
                f"<details><summary>{e(view.t('tricks_list'))}</summary>{tricks_html}</details>"
                f"{replay_link(view, record.get('number')) if tricks_html else ''}</article>"
            )
        body = "".join(items)
    return (f'{replay_section(view)}<div id="history">{body}</div>{score_charts(view)}'
            f"{score_sheet(view)}")  # fmt: skip


def summary_part(view: View) -> str:
    state, match = view.state, view.match
    if not state.get("game"):
        return f'<p class="empty">{e(view.t("no_game"))}</p>'
    sides = list(match.get("sides") or view.sides)
    points = match.get("points") or {}
    records = state.get("deals") or []
    penalties_given = sum(len(r.get("violations") or []) for r in records)
    rows = "".join(
        f'<tr data-side="{e(s)}"><th>{e(view.t("side_name", side=s))}</th>'
        f"<td>{e(', '.join(view.name(i) for i in range(view.players) if view.side_of(i) == s))}"
        f'</td><td class="num points">{e(points.get(s, 0))}</td></tr>'
        for s in sides
    )
    winner = match.get("winner")
    winner_html = (
        f'<p id="match-winner" class="winner">{e(view.t("match_winner", side=winner))}</p>'
        if winner
        else ""
    )
    return (
        f'<h1 id="game-title">{e(state.get("title") or state.get("game"))}</h1>{winner_html}'
        f'<table id="summary"><thead><tr><th>{e(view.t("side"))}</th><th></th>'
        f"<th>{e(view.t('match_points'))}</th></tr></thead><tbody>{rows}</tbody></table>"
        f"{_partije_table(view, sides)}{score_charts(view)}"
        f"<p>{e(view.t('deals_played'))}: {len(records)} · "
        f"{e(view.t('penalties_given'))}: {penalties_given}</p>"
        f"<p>{e(view.t('export'))}: "
        f'<a href="/api/export/transcript" download>{e(view.t("export_transcript"))}</a> · '
        f'<a href="/api/export/csv" download>{e(view.t("export_csv"))}</a></p>'
    )


def _partije_table(view: View, sides: Sequence[str]) -> str:
    """Every finished partija with its final score and winner, then the running one's total."""
    match = view.match
    lines = [
        (p.get("number"), p.get("totals") or {}, view.t("partija_won_by", side=p.get("winner")),
         "finished")
        for p in match.get("partije") or []
    ]  # fmt: skip
    if not match.get("winner"):
        lines.append((match.get("partija", 1), match.get("totals") or {},
                      view.t("partija_running"), "running"))  # fmt: skip
    head = "".join(f"<th>{e(view.t('side_name', side=s))}</th>" for s in sides)
    body = "".join(
        f'<tr class="{kind}" data-partija="{e(number)}"><th>'
        f"{e(view.t('partija_no', number=number))}</th>"
        + "".join(f'<td class="num" data-side="{e(s)}">{e(totals.get(s, ""))}</td>' for s in sides)
        + f"<td>{e(status)}</td></tr>"
        for number, totals, status, kind in lines
    )
    return (
        f'<table id="partije"><thead><tr><th>{e(view.t("partija"))}</th>{head}'
        f"<th></th></tr></thead><tbody>{body}</tbody></table>"
    )
