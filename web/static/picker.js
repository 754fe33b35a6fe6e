// Kibic: the camera's eye. A card of a trick opens the picker: the camera's picture of it
// and the deck's cards; tapping one corrects the card (an admin action, sent as every other
// is sent, by app.js's post). No libraries, no network beyond this table's own server.
(function () {
  "use strict";
  var dialog = document.getElementById("picker");
  if (!dialog || !window.kibicPost) return;
  var what = dialog.querySelector(".picker-what");
  var img = dialog.querySelector(".crop-img");
  var none = dialog.querySelector(".crop-none");
  var result = dialog.querySelector(".form-result");
  var chosen = null; // {seat, card} of the played card being looked at

  function open(button) {
    chosen = { seat: button.dataset.seat, card: button.dataset.card };
    what.textContent = button.dataset.what || "";
    if (button.dataset.crop) {
      img.src = "/crops/" + encodeURIComponent(button.dataset.crop);
      img.hidden = false;
      none.hidden = true;
    } else {
      img.removeAttribute("src");
      img.hidden = true;
      none.hidden = false;
    }
    dialog.querySelectorAll("button.pick-card").forEach(function (b) {
      // a doubled deck's copy (9C#1) is shown by its face (9C)
      if (b.dataset.card === chosen.card.split("#")[0]) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    });
    result.textContent = "";
    delete result.dataset.status;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
    var current = dialog.querySelector('button.pick-card[aria-current="true"]');
    (current || dialog.querySelector("button.pick-card")).focus();
  }

  function close() {
    if (dialog.open) dialog.close();
  }

  // back to the card that opened the picker (redrawn meanwhile: found again by seat and card)
  dialog.addEventListener("close", function () {
    if (!chosen) return;
    var back = document.querySelector('button.played-card[data-seat="' + chosen.seat +
                                      '"][data-card="' + chosen.card + '"]');
    if (back) back.focus();
  });

  document.addEventListener("click", function (ev) {
    if (!ev.target.closest) return;
    var played = ev.target.closest("button.played-card");
    if (played) { open(played); return; }
    if (ev.target.closest("#picker .picker-close")) { close(); return; }
    var pick = ev.target.closest("#picker button.pick-card");
    if (pick && chosen) {
      var body = { seat: Number(chosen.seat), played: chosen.card, card: pick.dataset.card };
      window.kibicPost("/api/corrections", body, pick).then(function (ok) {
        if (ok) {
          chosen.card = pick.dataset.card; // the corrected card is the one to return to
          close();
        }
      });
    }
  });
})();
