// Kibic dashboard: live updates over Server-Sent Events and the director's forms.
// No libraries, no network beyond this table's own server.
(function () {
  "use strict";
  var lang = document.body.dataset.lang || "sr";
  var main = document.getElementById("live");
  var status = document.getElementById("live-status");
  var shownSeq = main ? Number(main.dataset.seq || 0) : 0;
  var wantedSeq = shownSeq;
  var fetching = false;
  var forced = false; // a camera alert or status changes the page without a new seq

  function setStatus(ok) {
    if (!status) return;
    status.textContent = ok ? status.dataset.ok : status.dataset.lost;
    status.className = "status " + (ok ? "ok" : "lost");
  }

  // A card being chosen for a camera question survives a redraw of the live part.
  function keepChoices() {
    var chosen = {};
    main.querySelectorAll("form.answer-form").forEach(function (form) {
      var select = form.elements.namedItem("card");
      if (select) chosen[form.dataset.request] = select.value;
    });
    return chosen;
  }

  function restoreChoices(chosen) {
    main.querySelectorAll("form.answer-form").forEach(function (form) {
      var select = form.elements.namedItem("card");
      if (select && chosen[form.dataset.request]) select.value = chosen[form.dataset.request];
    });
  }

  // Re-render the live part from the server (one request at a time; the newest wins).
  function refresh() {
    if (!main || fetching || (wantedSeq <= shownSeq && !forced)) return;
    fetching = true;
    forced = false;
    var target = wantedSeq;
    var query = main.dataset.query || ""; // the page's own query (a replayed deal and trick)
    fetch("/partials/" + main.dataset.partial + "?lang=" + lang + query, { cache: "no-store" })
      .then(function (r) {
        var seq = Number(r.headers.get("X-Kibic-Seq") || target);
        return r.text().then(function (html) {
          var chosen = keepChoices();
          main.innerHTML = html;
          restoreChoices(chosen);
          shownSeq = Math.max(seq, target);
          main.dataset.seq = String(shownSeq);
        });
      })
      .catch(function () { /* the next message retries */ })
      .then(function () {
        fetching = false;
        if (wantedSeq > shownSeq || forced) refresh();
      });
  }

  if (main && window.EventSource) {
    var source = new EventSource("/api/live");
    source.onopen = function () { setStatus(true); };
    source.onerror = function () { setStatus(false); };
    source.onmessage = function (msg) {
      setStatus(true);
      var data;
      try { data = JSON.parse(msg.data); } catch (e) { return; }
      var alert = (data.events || []).some(function (ev) {
        return ev.kind === "alert" || ev.kind === "camera";
      });
      if (alert) forced = true;
      if (typeof data.seq === "number" && data.seq > wantedSeq) wantedSeq = data.seq;
      refresh();
    };
  }

  // -- the director's forms ---------------------------------------------------------------
  // an outcome is written beside the control that caused it (its form's result line)
  // the outcome's words: the director's panel, or the card picker on a page without it
  var texts = document.getElementById("admin") || document.getElementById("picker");
  var password = document.getElementById("admin-password");

  function resultFor(control) {
    var holder = control && control.closest ? control.closest("form, li") : null;
    if (holder && holder.tagName === "FORM" && holder.classList.contains("answer-form")) {
      holder = holder.closest("li") || holder;
    }
    return holder ? holder.querySelector(".form-result") : null;
  }

  function say(where, kind, text) {
    if (!where) return;
    where.dataset.status = kind;
    where.textContent = text;
    if (where.scrollIntoView) where.scrollIntoView({ block: "nearest" });
  }

  function post(url, body, control) {
    var where = resultFor(control);
    var headers = { "Content-Type": "application/json" };
    if (password && password.value) headers["X-Kibic-Password"] = password.value;
    // logged in: the session cookie goes by itself, its CSRF token with every request
    if (texts && texts.dataset.csrf) headers["X-Kibic-CSRF"] = texts.dataset.csrf;
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body || {}) })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (data) {
          var ok = (control && control.dataset && control.dataset.ok) || texts.dataset.ok;
          if (r.ok) { say(where, "ok", ok); return true; }
          if (r.status === 401) { say(where, "401", texts.dataset.unauthorized); return false; }
          if (r.status === 403) { say(where, "403", texts.dataset.forbidden); return false; }
          var detail = data.detail;
          if (Array.isArray(detail)) {
            detail = detail.map(function (d) {
              return (d.loc || []).slice(1).join(".") + ": " + d.msg;
            }).join("; ");
          }
          say(where, String(r.status), texts.dataset.error + " " + r.status + ": " + detail);
          return false;
        });
      })
      .catch(function (err) { say(where, "error", String(err)); return false; });
  }
  window.kibicPost = post; // the card picker (picker.js) sends its corrections the same way

  function field(form, name) {
    var el = form.elements.namedItem(name);
    return el && el.value.trim() ? el.value.trim() : null;
  }

  var builders = {
    "action-form": function (f) {
      var body = { seat: Number(field(f, "seat")), type: field(f, "type") };
      if (field(f, "card")) body.card = field(f, "card");
      if (field(f, "cards")) body.cards = field(f, "cards").split(/[\s,]+/);
      if (field(f, "value")) body.value = field(f, "value");
      return body;
    },
    "undo-form": function () { return {}; },
    "call-form": function (f) {
      var seat = field(f, "seat");
      return { seat: seat === null ? null : Number(seat) };
    },
    "adjust-form": function (f) {
      return { side: field(f, "side"), units: Number(field(f, "units") || 0),
               reason: field(f, "reason") || "" };
    },
    "start-form": function (f) {
      var body = { spec: field(f, "spec") || "" };
      if (field(f, "names")) {
        body.names = field(f, "names").split(",").map(function (s) { return s.trim(); });
      }
      return body;
    }
  };

  Object.keys(builders).forEach(function (id) {
    var form = document.getElementById(id);
    if (!form) return;
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      post(form.dataset.api, builders[id](form), form);
    });
  });

  function pendingUrl(id, what) {
    return "/api/pending/" + encodeURIComponent(id) + "/" + what;
  }

  // the camera's questions live in the live part: listen on the document
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest ? ev.target.closest("button.confirm-card") : null;
    if (button) {
      post(pendingUrl(button.dataset.request, "confirm"), { card: button.dataset.card }, button);
      return;
    }
    var dismiss = ev.target.closest ? ev.target.closest("button.dismiss") : null;
    if (dismiss) {
      post(pendingUrl(dismiss.dataset.request, "dismiss"), {}, dismiss);
      return;
    }
    var agree = ev.target.closest ? ev.target.closest("button.agree-deal") : null;
    if (agree) {
      post("/api/deals/" + encodeURIComponent(agree.dataset.deal) + "/agree",
           { side: agree.dataset.side }, agree);
      return;
    }
    var answer = ev.target.closest ? ev.target.closest("button.answer-call") : null;
    if (answer) {
      post("/api/director-calls/" + encodeURIComponent(answer.dataset.call) + "/answer", {},
           answer);
    }
  });
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("answer-form")) return;
    ev.preventDefault();
    post(pendingUrl(form.dataset.request, "confirm"), { card: field(form, "card") }, form);
  });
})();
