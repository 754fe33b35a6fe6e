// Kibic table view: a touch screen held landscape opens the table view, and a proven
// violation takes over the view for a few seconds, once per device, told to screen readers.
// No libraries, no network beyond this table's own server.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  // The start page: a tablet propped at the table (touch, wider than tall) opening the
  // dashboard wants the table view; a desk with a mouse keeps the list with the director's
  // panel; so does a tab that has already shown a page of the dashboard (its links lead to
  // the list), and ?view=list.
  var visited = false;
  try {
    visited = sessionStorage.getItem("kibic-visited") === "1";
    sessionStorage.setItem("kibic-visited", "1");
  } catch (e) { visited = false; }
  if (location.pathname === "/" && params.get("view") !== "list" && !visited &&
      window.matchMedia &&
      window.matchMedia("(orientation: landscape) and (pointer: coarse)").matches) {
    var lang = params.get("lang");
    location.replace("/table" + (lang ? "?lang=" + encodeURIComponent(lang) : ""));
    return;
  }

  var SEEN = "kibic-takeovers-seen";
  function seenKeys() {
    try { return JSON.parse(localStorage.getItem(SEEN) || "[]"); } catch (e) { return []; }
  }
  function markSeen(key) {
    var keys = seenKeys().filter(function (k) { return k !== key; });
    keys.push(key);
    try { localStorage.setItem(SEEN, JSON.stringify(keys.slice(-50))); } catch (e) { /* full */ }
  }

  function start() {
    var main = document.getElementById("live");
    if (!main || main.dataset.partial !== "tableview") return;
    var announcer = document.getElementById("announcer");
    var showing = null;
    var until = 0;
    var timer = null;

    function end() {
      var el = document.getElementById("takeover");
      if (el) el.hidden = true;
      showing = null;
      until = 0;
      if (timer) clearTimeout(timer);
      timer = null;
    }

    function announce(el) {
      if (!announcer) return;
      var text = [".takeover-who", ".takeover-cards", ".takeover-evidence"]
        .map(function (sel) {
          var part = el.querySelector(sel);
          return part ? part.textContent.replace(/\s+/g, " ").trim() : "";
        })
        .filter(Boolean).join(". ");
      var title = el.querySelector("h2");
      announcer.textContent = "";
      setTimeout(function () {
        announcer.textContent = (title ? title.textContent + ": " : "") + text;
      }, 50);
    }

    // after each redraw of the live part: show a new violation, keep showing a current one
    function check() {
      var el = document.getElementById("takeover");
      if (!el) { showing = null; return; }
      var key = el.dataset.key;
      if (showing === key && Date.now() < until) { el.hidden = false; return; }
      if (showing === key || seenKeys().indexOf(key) >= 0) return;
      markSeen(key);
      showing = key;
      var ms = Number(el.dataset.ms || 6000);
      until = Date.now() + ms;
      el.hidden = false;
      announce(el);
      if (timer) clearTimeout(timer);
      timer = setTimeout(end, ms);
      var close = el.querySelector(".takeover-close");
      if (close && (!document.activeElement || document.activeElement === document.body)) {
        close.focus();
      }
    }

    new MutationObserver(check).observe(main, { childList: true });
    document.addEventListener("click", function (ev) {
      if (ev.target.closest && ev.target.closest(".takeover-close")) end();
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && showing) end();
    });
    check();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
