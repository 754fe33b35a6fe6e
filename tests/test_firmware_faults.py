"""At least 10,000 frames through a channel that corrupts, truncates, duplicates and drops."""

from __future__ import annotations

from firmware_bridge.faults import HARSH, FaultRates, run_fault_trial


def test_ten_thousand_commands_through_a_faulty_channel_arrive_exactly_once() -> None:
    report = run_fault_trial(commands=10_000, reports=2_000, seed=20240611)
    assert report.delivered_commands == 10_000 and report.delivered_reports == 2_000
    assert report.corrupted_acted_on == 0
    assert (report.lost, report.duplicated_deliveries, report.out_of_order) == (0, 0, 0)
    assert report.frames_on_wire >= 24_000  # data, retransmissions and acknowledgements
    # the channel really was hostile, and every kind of damage was caught by the framing
    assert report.damaged_frames > 3_000
    assert report.rejected_bad_crc > 300 and report.rejected_bad_cobs > 1_000
    assert report.retransmits > 2_000 and report.duplicates_suppressed > 1_000


def test_a_much_worse_channel_is_still_exactly_once() -> None:
    rates = FaultRates(corrupt=0.2, truncate=0.1, duplicate=0.1, drop=0.15, garbage=0.1)
    report = run_fault_trial(commands=2_000, reports=500, seed=7, rates=rates)
    assert report.exactly_once and report.corrupted_acted_on == 0
    assert report.delivered_commands == 2_000 and report.delivered_reports == 500


def test_the_harsh_line_acts_on_no_damaged_frame_where_the_crc16_let_some_through() -> None:
    # bit flips on top of whole-frame faults; the trial knows every frame written, so a
    # damaged frame that passed the check is counted even when its body looks plausible
    now = run_fault_trial(commands=1_000, reports=1_000, seed=1000, rates=HARSH)
    assert now.altered_frames > 4_000
    assert (now.damaged_passed_check, now.damaged_acted_on) == (0, 0)
    assert now.exactly_once and now.corrupted_acted_on == 0
    # the same line with protocol 1's CRC-16: damaged frames were acted on
    before = run_fault_trial(commands=1_000, reports=1_000, seed=1000, rates=HARSH, protocol=1)
    assert before.damaged_passed_check >= 3 and before.damaged_acted_on >= 1
