"""The camera's eye on the dashboard: its picture of a card, and a card put right by tapping.

A card of the current deal's tricks (on the table page and the table view) is a button
(``played_button``); it opens the picker (``picker_dialog``, outside the live part so a redraw
never closes it): the camera's picture of the card, served by ``/crops/{id}``, or a line that it
was entered by hand, and every card of the game's deck to tap. Tapping one asks
``POST /api/corrections`` (``/static/picker.js``), an admin action like every other input.
A camera question shows the picture beside its candidates (``crop_figure``).
"""

from __future__ import annotations

from web.cards import card_svg
from web.login_page import director_strip
from web.render import RESULT_LINE, View, e


def crop_figure(view: View, crop: object) -> str:
    """The camera's picture ``crop`` (an id), captioned; nothing without one."""
    if not crop:
        return ""
    return (
        f'<figure class="crop"><figcaption>{e(view.t("crop_seen"))}</figcaption>'
        f'<img class="crop-img" src="/crops/{e(crop)}" alt="{e(view.t("crop_alt"))}" '
        f'width="64" height="96"></figure>'
    )


def played_button(view: View, seat: object, code: str, inner: str) -> str:
    """``inner`` (a card drawn) as a button that opens the picker for ``seat``'s ``code``."""
    crops = view.state.get("crops") or {}
    crop = crops.get(code)
    card = view.card(code)
    crop_attr = f' data-crop="{e(crop)}"' if crop else ""
    return (
        f'<button type="button" class="played-card" data-seat="{e(seat)}" data-card="{e(code)}"'
        f"{crop_attr} "
        f'data-what="{e(view.t("picker_what", name=view.name(seat), card=card))}" '
        f'aria-haspopup="dialog" aria-label="{e(view.t("played_card", name=view.name(seat), card=card))}">'
        f"{inner}</button>"
    )


def picker_dialog(view: View, *, login: bool, csrf: str | None = None) -> str:
    """The picker: the camera's picture and the deck's cards to tap (hidden until a played card
    is chosen). ``login``: the page has no director's panel, so the picker carries the login
    (the director's session's ``csrf`` token once logged in, else the login form, whose
    password also goes with a correction as the API's header, as the panel's does)."""
    if view.game is None:
        return ""
    cards = "".join(
        f'<button type="button" class="pick-card" data-card="{e(c.code)}" '
        f'aria-label="{e(view.t("picker_pick", card=view.card(c.code)))}">{card_svg(c.code)}'
        f"</button>"
        for c in dict.fromkeys(card.logical for card in view.game.deck.cards)
    )  # a doubled deck's two copies look alike: each face once (the table takes the free copy)
    strip = ""
    if login and not csrf:
        strip = director_strip(view.lang, csrf=None, here=f"/table?lang={view.lang}")
    return (
        f'<dialog id="picker" class="picker" aria-labelledby="picker-title" '
        f'data-ok="{e(view.t("ok"))}" data-unauthorized="{e(view.t("err_401"))}" '
        f'data-error="{e(view.t("err_prefix"))}" data-forbidden="{e(view.t("err_403"))}" '
        f'data-csrf="{e(csrf or "") if login else ""}">'
        f'<h2 id="picker-title">{e(view.t("picker_title"))}</h2>'
        f'<p class="picker-what"></p>'
        f'<figure class="crop"><img class="crop-img" alt="{e(view.t("crop_alt"))}" '
        f'width="64" height="96" hidden>'
        f'<figcaption class="crop-none" hidden>{e(view.t("crop_none"))}</figcaption></figure>'
        f"{strip}"
        f'<form id="picker-form" method="dialog"><p class="picker-choose">{e(view.t("picker_choose"))}</p>'
        f'<div class="picker-cards">{cards}</div>{RESULT_LINE}'
        f'<button type="button" class="picker-close">{e(view.t("picker_close"))}</button>'
        f"</form></dialog>"
    )
