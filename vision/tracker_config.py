"""What a table's tracker (``vision.tracker.CardTracker``) is told: how many readings commit a
card, how sure they must be, and how its work at rest is spread over frames. A count that would
stop the tracker reading is refused by name when the configuration is made."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.finder import FinderConfig
from vision.hands import HandConfig


@dataclass(frozen=True)
class TrackerConfig:
    stable_frames: int = 3
    forget_after: int = 2
    min_confidence: float = 0.85
    # with a complete deck profile the readings are weighed by the deck's own cards; chosen
    # on tables of development designs (seeds 100 300, 100 400, 100 500; 2376 plays): 0.7 and
    # 0.6 committed no wrong card, and 0.7 asked about 3 plays where 0.85 asked about 10
    min_confidence_profiled: float = 0.7
    # with a complete profile, commit only when in every stable reading the card read is also
    # the card the deck's references alone find nearest; else ask (see ``_agrees``). Experiment 11,
    # on tables of development designs: no wrong card in 9,504 plays (3 without it)
    profile_must_agree: bool = True
    match_distance: float = 40.0  # mm on the mat between a track and a detection
    hands: HandConfig = field(default_factory=HandConfig)  # what is taken for a hand
    finder: FinderConfig = field(default_factory=FinderConfig)
    # with a corner-index finder: a frame is at rest when its grey thumbnail differs from the
    # previous frame's by at most this mean level (0-255)
    still_level: float = 4.0
    still_width: int = 64  # px, the thumbnail's width
    index_floor: float = 0.5  # a card read by its index alone below this is not a card
    # a learned card read below ``index_floor`` but at this or above is asked where an index on
    # it reads the same card at this or above: two readers agreeing (experiment 112); else it is
    # no card. 1.0: never (a learned card below the index floor is no card)
    agreeing_floor: float = 0.2
    # the corner path's work a frame (``vision.rest_schedule``): the finder's input made,
    # then its net in this many parts, one a frame, then this many indices read a frame (0:
    # all of them with the net's last part; 1 part and 0: the whole reading on one frame).
    # Chosen in experiment 33: no frame of eight cards over 25 ms on one core
    index_finder_parts: int = 3
    index_boxes_per_step: int = 2
    learned_per_step: int = 2  # learned cards moved onto their edges and read a frame
    # a learned card overlapping another card by more than ``OVERLAP`` but not the same card
    # (``vision.tracker_learned.same_card``) kept as a card of a fan or a pile where it reads
    # another card, asked unless an index of its own agrees (experiment 116c: on edje train,
    # the composites and the corner-boxes tune parts 8 more committed right, 10 fewer missed,
    # none wrong). False: a learned card overlapping another card is that card (experiment 36)
    learned_apart: bool = True
    # with ``learned_apart`` and a ``second`` classifier with a corner-index reader
    # (``vision.index_reader``): a covered learned card read by its two index corners too, on
    # the card warped from its outline; read so as another card at ``index_floor`` or above
    # (none of the cards it overlaps), it is that card by its index; read so as its face's card
    # at ``agreeing_floor`` or above, its index agrees (experiment 117: 9 more committed right,
    # 5 fewer missed, none wrong)
    covered_by_corners: bool = True
    # with the corner finder and the corner-index reader: every card at rest read by its two
    # index corners too, a reading that confirms the card's and never contests it (experiment
    # 118: 16 more committed right, none wrong, the asks where no card is the same)
    corners_at_rest: bool = True
    # with ``learned_apart`` and the corner-index reader: two learned cards are one card only
    # above quad IoU 0.7, not 0.5; a card between (a tight fan's) kept only where its corners
    # read it as a card no other card of the picture reads, and a classic quad over two such
    # cards read as different cards is no card (experiments 119c and 120)
    tight_fans: bool = True
    # with every card read by its corners at rest: a card its face reads below ``index_floor``
    # and its corners read at ``min_confidence`` or above as another card, one no other card
    # of the picture reads, is that card by its index, the face's card offered (experiment 122:
    # 25 more committed right on the tune parts, none wrong, but one committed where no card is
    # on the edje test split; not adopted, an option)
    weak_face_by_corners: bool = False
    # with a reading at rest (the corner path on): a card is committed or asked only on a frame
    # that a reading at rest stands for; frames in motion read and track it (experiment 126: in
    # motion the classic path alone commits cards that rest would ask, 3 on real faces; but
    # the rendered tables seldom rest between plays, and a quarter of their plays were missed.
    # Not adopted, an option)
    decide_at_rest: bool = False
    # with the corner-index reader: a card about to be committed by its face on a frame that no
    # reading at rest stands for (in motion) is read by its two corners on that frame too, and
    # asked where they read no card (their best card below ``corners_readable``: an outline that
    # shows no card's corners; experiment 128)
    corners_in_motion: bool = True
    corners_readable: float = 0.1
    # with ``corners_in_motion`` and ``contested_undecided_in_motion`` off: such a card is asked
    # too where its corners read another card at ``min_confidence`` or above (experiment 127c: not
    # adopted, an option; the corner reader takes rendered spades for clubs, and the demo's design
    # lost 4 of piquet-32's 384 plays)
    corners_contest_in_motion: bool = False
    # with ``corners_in_motion``: a card that would be asked in motion by its face, whose corners
    # read no card on that frame, is neither committed nor asked there but left to a later frame
    # (in motion checked again; at rest decided by the reading at rest; experiment 129)
    unread_undecided_in_motion: bool = True
    # with ``corners_in_motion``: a card asked in motion whose corners read another card on that
    # frame offers it too (experiment 130)
    corners_offered_in_motion: bool = True
    # with ``corners_in_motion``: a card about to be committed by its face in motion whose corners
    # read another card at ``min_confidence`` or above on that frame is neither committed nor
    # asked there but left to a later frame, as 129's (experiment 131): at rest the reading at
    # rest decides it (off: ``corners_contest_in_motion`` asks it, where on)
    contested_undecided_in_motion: bool = True
    # such a contest (and 127c's) only where the corners read a card of another rank than the
    # face's: at the table's size an index's suit sign is a blob of a few pixels, and the corner
    # reader takes rendered spades for clubs (experiment 131b; the table's own reader since 133c
    # less often, but a contest by suit still lost 2 rendered plays, experiment 133b)
    contest_by_rank: bool = True
    # a card left to a later frame so (``unread_undecided_in_motion``,
    # ``contested_undecided_in_motion``) on this many frames since it was last decided is asked on
    # the next, offering what its face and its corners read: a table that never rests hears of it
    # (experiments 134 and 134b). None: left to a later frame without end
    undecided_ask_after: int | None = 30
    # steps of the readings at rest made a frame (``vision.rest_schedule``): more ends the
    # reading at rest sooner, at the cost of each frame. Experiment 80: with 2 the reading at
    # rest ends on the 7th frame at rest, not the 14th, and no frame of eight cards passes 25 ms
    # on one core (the slowest 14.0-14.3 ms against 10.7-10.9 with 1, three runs)
    rest_steps_per_frame: int = 2
    # with a ``second`` classifier: a card about to be committed by its face is read by it too,
    # and asked when it reads another card (experiment 51: not adopted, an option)
    second_check: bool = False
    # a French-suited card about to be committed is asked when its face, warped from the frame
    # it was last read in, shows more pips than its rank has (``vision.pips``; experiment 56:
    # not adopted, an option)
    pip_check: bool = False
    # a card found at the same corners (each within ``reuse_shift`` px) as in the last frame,
    # whose crop's grey thumbnail differs from the one it was read from by at most this mean
    # level (0-255), keeps its reading and is not read again (``vision.reading_reuse``;
    # experiment 73). 0: every card is read on every frame
    reuse_level: float = 3.0
    reuse_shift: float = 3.0

    def __post_init__(self) -> None:
        """Counts that would stop the tracker reading are refused by name when it is made."""
        least = {"stable_frames": 1, "forget_after": 0, "still_width": 8,
                 "index_finder_parts": 1, "index_boxes_per_step": 0, "learned_per_step": 1,
                 "rest_steps_per_frame": 1}  # fmt: skip
        for name, low in least.items():
            if (value := getattr(self, name)) < low:
                raise ValueError(f"TrackerConfig.{name} must be at least {low}, not {value}")
        if (bound := self.undecided_ask_after) is not None and bound < 0:
            raise ValueError(
                f"TrackerConfig.undecided_ask_after must be at least 0 or None, not {bound}"
            )
