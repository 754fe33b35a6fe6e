// Kibic club pages: redraw the page's content when the club's store changes.
// The server's live feed (GET /events, Server-Sent Events) sends a change counter; on news the
// page fetches itself again and swaps its <main id="live">. No libraries, nothing from elsewhere.
(function () {
  "use strict";
  var main = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!main || !window.EventSource || !window.DOMParser) return;
  // the store's change count the content shows (the server wrote it on the page)
  var shown = main.dataset.changes ? Number(main.dataset.changes) : -1;
  var wanted = shown;
  var fetching = false;

  function setStatus(ok) {
    if (!status) return;
    status.textContent = ok ? status.dataset.ok : status.dataset.lost;
    status.className = "live " + (ok ? "ok" : "lost");
  }

  function refresh() {
    if (fetching || wanted <= shown) return;
    fetching = true;
    var target = wanted;
    fetch(window.location.pathname + window.location.search, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh) main.innerHTML = fresh.innerHTML;
        shown = target;
        main.dataset.changes = String(shown);
      })
      .catch(function () { /* the next change retries */ })
      .then(function () {
        fetching = false;
        if (wanted > shown) refresh();
      });
  }

  var source = new EventSource("/events");
  source.onopen = function () { setStatus(true); };
  source.onerror = function () { setStatus(false); };
  source.onmessage = function (msg) {
    setStatus(true);
    var data;
    try { data = JSON.parse(msg.data); } catch (e) { return; }
    if (typeof data.changes !== "number") return;
    if (shown < 0 || data.changes < shown) {
      // no count on the page, or a restarted server's count: the page is fetched once
      shown = data.changes - 1;
      wanted = data.changes;
    } else if (data.changes > wanted) {
      wanted = data.changes;
    }
    refresh();
  };
})();
