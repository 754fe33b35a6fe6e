"""Checks of a rendered page in the browser: WCAG contrast of every visible text, and width.

``low_contrast(tab)`` lists each visible text (an element with text of its own, a form control,
an SVG ``<text>``) whose contrast ratio against its effective background is under 4.5 : 1. The
text colour is the computed ``color`` (``fill`` for SVG), made lighter by the opacity of the
element and its ancestors; the background is every ``background-color`` from the element up to
the page composited over white (an SVG text lies on the card's first ``<rect>``).
``page_width(tab)`` is ``document.documentElement.scrollWidth``.
"""

from __future__ import annotations

from typing import Any

MINIMUM = 4.5

CONTRAST_JS = r"""
() => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => {  // top (with alpha) composited over an opaque colour
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const background = (el) => {
    const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      if (n instanceof SVGElement && n.tagName.toLowerCase() === 'text') {
        const rect = n.ownerSVGElement && n.ownerSVGElement.querySelector('rect');
        const fill = rect && parse(getComputedStyle(rect).fill);
        if (fill) layers.push(fill);
        continue;
      }
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const opacity = (el) => {
    let o = 1;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const visible = (el) => {
    const s = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return s.visibility === 'visible' && s.display !== 'none' && box.width > 0 && box.height > 0;
  };
  const hasText = (el) => {
    const tag = el.tagName.toLowerCase();
    if (['script', 'style', 'title', 'option', 'noscript', 'head'].includes(tag)) return false;
    if (el.closest('title, noscript, option')) return false;
    if (tag === 'select' || tag === 'button' || tag === 'textarea') return true;
    if (tag === 'input') return !['hidden', 'checkbox', 'radio', 'color', 'range'].includes(el.type);
    return Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  };
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!hasText(el) || !visible(el)) continue;
    const s = getComputedStyle(el);
    const svg = el instanceof SVGElement;
    const ink = parse(svg ? s.fill : s.color);
    if (!ink) continue;
    const bg = background(el);
    const fg = over([ink[0], ink[1], ink[2], ink[3] * opacity(el)], bg);
    const r = ratio(fg, bg);
    const text = (el.innerText || el.textContent || el.value || '').trim().slice(0, 40);
    found.push({tag: el.tagName.toLowerCase(), cls: String(el.getAttribute('class') || ''),
                text, ratio: Math.round(r * 100) / 100,
                ink: s[svg ? 'fill' : 'color'], background: 'rgb(' + bg.slice(0, 3).map(Math.round).join(', ') + ')'});
  }
  return found;
}
"""


def texts(tab: Any) -> list[dict[str, Any]]:
    """Every visible text of the page in ``tab`` with its contrast ratio and colours."""
    found: list[dict[str, Any]] = tab.evaluate(CONTRAST_JS)
    return found


def low_contrast(tab: Any, minimum: float = MINIMUM) -> list[dict[str, Any]]:
    return [t for t in texts(tab) if t["ratio"] < minimum]


def page_width(tab: Any) -> int:
    width: int = tab.evaluate("document.documentElement.scrollWidth")
    return width
