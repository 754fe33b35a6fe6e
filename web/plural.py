"""A noun after a number in Serbian: one of three forms by the number's last digits.

Serbian says 1 karta, 2 karte, 5 karata, 21 karta, 12 karata: the form follows the last digit,
and 11 to 14 take the third. A template names the three forms in its field's format spec,
``{count:karta|karte|karata}``; ``fill`` writes the number and the form that fits it (the
forms the sentence needs: after ``ima`` the first is ``kartu``, after ``od`` it is ``karte``).
English templates keep plain fields.

>>> [form(n, ("karta", "karte", "karata")) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 111)]
['karta', 'karte', 'karte', 'karata', 'karata', 'karata', 'karta', 'karte', 'karata', 'karata']
>>> fill("lepeza ima {n:kartu|karte|karata}", {"n": 3})
'lepeza ima 3 karte'
>>> fill("lepeza ima {n:kartu|karte|karata}", {"n": "?"})
'lepeza ima ? karata'
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any


def form(n: int, forms: Sequence[str]) -> str:
    """The form of three (one, a few, many) that follows the number ``n``."""
    one, few, many = forms
    last, last_two = abs(n) % 10, abs(n) % 100
    if last == 1 and last_two != 11:
        return one
    if 2 <= last <= 4 and not 12 <= last_two <= 14:
        return few
    return many


class _Counting(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" not in format_spec:
            return str(super().format_field(value, format_spec))
        forms = format_spec.split("|")
        if len(forms) != 3:
            raise ValueError(f"a count's forms are three (one|few|many), not {format_spec!r}")
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(str(value))
            except ValueError:
                return f"{value} {forms[2]}"  # not a number ('?'): the form of many
        return f"{value} {form(value, forms)}"


_FORMATTER = _Counting()


def fill(template: str, fields: Mapping[str, Any]) -> str:
    """``template`` formatted with ``fields``, a count's noun in the form its number takes."""
    return _FORMATTER.vformat(template, (), fields)
