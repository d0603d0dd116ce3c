"""Duplicate events built through the services, and scorers at their tables."""

from __future__ import annotations

from tournaments import services
from tournaments.duplicate import services as dup
from tournaments.duplicate.engine import Board as EngineBoard
from tournaments.duplicate.engine.simulate import play_board
from tournaments.models import Board, Match, Tournament
from tournaments.services import Actor


def make_event(
    director: Actor,
    *,
    game: str = "spades",
    rules: str = "standard",
    movement: str = "mitchell",
    tables: int = 3,
    pairs: int | None = None,
    boards_per_round: int = 2,
    start: bool = True,
    **options,
) -> Tournament:
    tournament = dup.create_duplicate_tournament(
        actor=director,
        name="Duplicate night",
        game=game,
        rules=rules,
        movement=movement,
        tables=tables,
        boards_per_round=boards_per_round,
        deal_seed="club",
        **options,
    )
    services.open_registration(tournament=tournament, actor=director)
    for n in range(1, (pairs or 2 * tables) + 1):
        services.register_entry(
            tournament=tournament, actor=director, players=[f"P{n}a", f"P{n}b"], name=f"Pair {n}"
        )
    if start:
        dup.start_duplicate(tournament=tournament, actor=director)
    return tournament


def engine_board(board: Board) -> EngineBoard:
    return EngineBoard(
        number=board.number,
        dealer=board.dealer,
        hands={s: tuple(c) for s, c in board.hands.items()},
        turned=board.turned or None,
    )


def played(tournament: Tournament, number: int, seed: int = 1) -> dict:
    """A legal full record of board `number` of the event."""
    board = Board.objects.get(tournament=tournament, number=number)
    return play_board(engine_board(board), tournament.game, tournament.rules, seed=seed)


def table_scorer(match: Match, side: str) -> Actor:
    pin = match.seats.get(side=side).entry.pin
    return Actor(table=match.table_id, side=side, pin=pin, label=f"table {side}")


def play_round(tournament: Tournament, director: Actor, *, seed: int = 1) -> None:
    """Start the next round and play every board at every table: NS enters a full record,
    EW confirms with its PIN; then the director closes the round."""
    round_ = dup.start_round(tournament=tournament, actor=director)
    event = dup.event_of(tournament)
    for match in round_.matches.select_related("table", "round"):
        for b in dup.boards_of(event, round_.number, match.table.number):
            record = played(tournament, b, seed=seed * 1000 + match.table.number)
            out = dup.submit_board_result(
                match=match, board=b, record=record, actor=table_scorer(match, "NS")
            )
            dup.confirm_board_result(
                result=out.result,
                actor=table_scorer(match, "EW"),
                expected_version=out.result.version,
            )
    dup.close_duplicate_round(round=round_, actor=director)


def pair_pin(round_, table_number: int, side: str) -> str:
    """The PIN of the pair sitting `side` at table `table_number` in `round_` (its card's)."""
    match = round_.matches.get(table__number=table_number)
    return match.seats.get(side=side).entry.pin
