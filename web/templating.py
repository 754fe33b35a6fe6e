"""The dashboard's Jinja2 templates (``web/templates/``), autoescaped: every value is text.

Two conventions of these templates, so that a page is the same bytes the tests and the page
scripts read:

- a line break in a template and the indentation after it are not part of the page (a template
  is laid out on lines for its reader); where the page needs a space, the line holds it;
- a value is escaped as ``html.escape`` writes it (``&quot;``, ``&#x27;``), as the pages always
  were; a value that is already markup (``Markup``, such as a card's picture) is kept.

Templates reach the page's helpers through ``view`` (``web.view.View``) and the globals
(``web.render`` adds the pages' own); of these only ``card_svg`` returns markup.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import BaseLoader, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from web.i18n import t
from web.sessions import CSRF_FIELD

#: the dashboard's templates
TEMPLATE_DIR = Path(__file__).with_name("templates")
_LINE_BREAK = re.compile(r"\n[ \t]*")


class JoinedLinesLoader(FileSystemLoader):
    """Templates from ``TEMPLATE_DIR`` with their line breaks (and the indentation after
    them) taken out."""

    def get_source(self, environment: Environment, template: str) -> Any:
        source, path, uptodate = super().get_source(environment, template)
        return _LINE_BREAK.sub("", source), path, uptodate


def as_text(value: object) -> object:
    """A value as the page shows it: escaped as ``html.escape`` does; ``None`` as nothing."""
    if value is None:
        return ""
    if hasattr(value, "__html__"):
        return value
    return Markup(html.escape(str(value)))


def href(path: str, **params: object) -> str:
    """``path`` with ``params`` added to its query (``None`` left out), each value URL-encoded;
    the template escapes the whole for HTML.

    >>> href("/?view=list", lang="en"), href("/history", deal=None, lang="sr")
    ('/?view=list&lang=en', '/history?lang=sr')
    >>> href("/history", q="a&b=c d")
    '/history?q=a%26b%3Dc+d'
    """
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return path if not query else f"{path}{'&' if '?' in path else '?'}{query}"


#: a suit's symbol (the page writes the suit's name beside it)
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def environment(loader: BaseLoader | None = None) -> Environment:
    env = Environment(
        loader=loader or JoinedLinesLoader(TEMPLATE_DIR),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=as_text,
    )
    env.globals.update(t=t, href=href, CSRF_FIELD=CSRF_FIELD, SUIT_SYMBOLS=SUIT_SYMBOLS)
    return env


TEMPLATES = environment()


def render(template: str, **values: Any) -> Markup:
    """``template`` rendered with ``values`` (the markup it makes, to put in another page)."""
    return Markup(TEMPLATES.get_template(template).render(**values))
