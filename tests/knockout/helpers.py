"""Playing a knockout through the services, as the tables would."""

from __future__ import annotations

import random

from tournaments import services
from tournaments.demo.simulate import play_hand
from tournaments.models import Match, Round, Tournament
from tournaments.services import Actor


def play_out(match: Match, rng: random.Random, limit: int = 60) -> Match:
    """Hands at the table until the match ends by itself (a knockout match never ends level)."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.state == Match.State.FINISHED:
            return match
        play_hand(match, rng)
    raise AssertionError(f"match {match.pk} did not end in {limit} hands")


def knockout_round(tournament: Tournament, director: Actor, *, seed: int = 1) -> Round:
    """Draw, publish, play out and close the next round (knockout matches and any other)."""
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    rng = random.Random(seed)
    for match in Match.objects.filter(round=round_, is_bye=False).order_by("table__number"):
        if match.bracket_round is not None:
            play_out(match, rng)
        else:  # a consolation match: a hand, then the director ends it
            play_hand(match, rng)
            match.refresh_from_db()
            if match.state != Match.State.FINISHED:
                services.finish_match(match=match, actor=director)
    return services.close_round(round=round_, actor=director)


def first_round_pairs(round_: Round, seed_of: dict[int, int]) -> list[tuple[int, int]]:
    """The knockout matches of a round as (seed on the first side, seed on the second), by
    their place in the bracket."""
    out = []
    for match in round_.matches.filter(is_bye=False, bracket_round__isnull=False).order_by(
        "bracket_index"
    ):
        by_side = {s.side: s.entry_id for s in match.seats.all()}
        out.append((seed_of[by_side["NS"]], seed_of[by_side["EW"]]))
    return out
