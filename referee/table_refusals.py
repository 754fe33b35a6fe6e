"""What the table says outside a deal's rules: the refusals its runtime raises (undo with
nothing to undo, an unknown side, a camera question that is no longer open...) and the camera's
alerts."""

from __future__ import annotations

from referee.wording import notice, refusal

CAMERA_STOPPED = notice(
    "camera.stopped", "camera: {why}; cards are entered by hand until it is back"
)
CAMERA_NOT_SAVED = notice("camera.not_saved", "camera: {why}")
CAMERA_MOVED = notice(
    "camera.moved",
    "camera: the camera moved ({shift} px); the seats were calibrated again from the mat's markers",
)
CAMERA_FRAME = notice(
    "camera.frame",
    "camera: a frame could not be read ({why}); reading goes on with the next one",
)
CAMERA_GREY = notice(
    "camera.grey",
    "camera: the picture has no colour (a camera in grey or night mode); every card read by its "
    "face is asked until it has",
)
CAMERA_COLOUR = notice("camera.colour", "camera: the picture has colour again")
#: a card the camera saw that the referee refused (``reason``: the refusal)
CAMERA_REFUSED = notice("camera.refused", "camera: seat {seat} {card}: {reason}")

R_NEEDS_NAMES_GOT = refusal(
    "table.needs_names_got", "{spec} needs {players} names, got {names_count}"
)
R_CURRENT_DEAL_OVER = refusal("table.current_deal_over", "the current deal is not over")
R_NOTHING_UNDO_THIS_DEAL = refusal("table.nothing_undo_this_deal", "nothing to undo in this deal")
R_UNKNOWN_SIDE_SIDES = refusal("table.unknown_side_sides", "unknown side {side!r} (sides: {sides})")
R_SCORE_ADJUSTMENT_NEEDS_REASON = refusal(
    "table.score_adjustment_needs_reason", "a score adjustment needs a reason"
)
R_SCORE_ADJUSTMENT_OF_NOTHING = refusal(
    "table.score_adjustment_of_nothing", "a score adjustment of 0 changes nothing"
)
R_PENDING_CONFIRMATION = refusal(
    "table.pending_confirmation", "no pending confirmation {request_id!r}"
)
R_SEAT_DOES_EXIST_AT = refusal(
    "table.seat_does_exist_at", "seat {seat} does not exist at a table of {players}"
)
R_OPEN_CALL_FOR_DIRECTOR = refusal(
    "table.open_call_for_director", "no open call for the director {call_id!r}"
)
R_GIVE_CONFIRMING_SIDE_SEAT = refusal(
    "table.give_confirming_side_seat", "give the confirming side or seat"
)
R_DEAL_FINISHED_YET = refusal("table.deal_finished_yet", "no deal is finished yet")
R_DEAL_FINISHED_FINISHED = refusal(
    "table.deal_finished_finished",
    "deal {number} is not finished (finished: 1 to {finished_count})",
)
# correcting a card the camera misread (kibic.runtime.TableRuntime.correct_card)
R_NO_DEAL_TO_CORRECT = refusal("table.no_deal_to_correct", "no deal to correct")
R_CORRECT_NOT_PLAYED = refusal(
    "table.correct_not_played", "{name} played no {played_card} in this deal"
)
R_CORRECT_SHEET_CHANGED = refusal(
    "table.correct_sheet_changed",
    "the score sheet changed after this deal (a score correction): undo it first, or correct "
    "the score by hand",
)
R_CORRECT_SAME_CARD = refusal("table.correct_same_card", "{card} is already the card played")
R_CORRECT_REFUSED = refusal("table.correct_refused", "{played_card} cannot become {card}: {reason}")
