"""Swiss pairing for two-sided tables, as one maximum-weight matching (rustworkx).

Criteria, highest priority first (docs/pairing.md has the details and worked examples):

1. everyone plays (a perfect matching; an odd field gets one bye, a virtual node);
2. no rematch (rematch edges are left out; only if no rematch-free pairing exists at all are
   they let in, with the heaviest penalty, and counted in `Draw.repeats`);
2a. keep apart (`Contender.avoid`: the same club or family, or a pair the director named): such
   a pair is made only when every pairing without a rematch needs it, and counted in
   `Draw.apart`;
3. the bye goes to the contender with the fewest byes, and among them the lowest ranked;
4. smallest score gaps: a pair costs min(d, 6)² where d is how many score groups apart they are;
5. side balance (`first`): avoid pairing two who both need the same side;
6. ranking order, Dutch style: in a score group the top half meets the bottom half (1 v 5, 2 v 6,
   … in a group of 8); a floater is the lowest of its group and meets the highest of the next.

Each criterion is a bit field of the integer edge weight (a cost c becomes max − c so heavier is
better); a field is wide enough to hold its sum over a whole matching, so a higher field always
outweighs everything below it. The seed only shuffles the node order, which decides among
matchings that are equal on every criterion.

Speed: the graph is restricted to nearby contenders (a window of neighbours in the standings, the
Dutch partner's neighbourhood in each score group, score groups at most a few apart). The window
widens until a perfect rematch-free matching is found, and further while the result is not proven
best on the bye and score criteria and the wider graph is still cheap; the last resort is the
complete graph.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import rustworkx as rx

from .types import Contender, Draw, apart, check_contenders, check_seed

__all__ = ["swiss"]

#: Score-gap cost is min(d, SCORE_CAP)²: gaps of more groups than this cost the same.
SCORE_CAP = 6
#: Ranking-order cost per pair is capped here (it is the lowest criterion).
RANK_CAP = 15
#: Side cost per pair: 1 when both prefer the same side, 2 when both need it (|first| >= 2).
SIDE_MAX = 2
#: Levels of the restricted graph: (window, score-group reach). The window is the number of
#: neighbours on each side in the standings and around the Dutch partner in the score group.
LEVELS = ((6, 2), (18, 3), (54, 5), (162, 8))
#: A wider level is tried only to improve an uncertified result when its graph has at most this
#: many edges (a sparse matching of ~35,000 edges at 1,000 nodes takes ~0.15 s); a level that
#: finds no perfect rematch-free matching always widens.
EDGE_BUDGET = 40_000
#: Weights must stay below this (rustworkx packs them into fixed-width integers).
WEIGHT_BITS = 60


class _Field:
    """The contenders in pairing order and what every edge weight needs."""

    def __init__(self, field: list[Contender], seed: int) -> None:
        levels = sorted({c.points for c in field}, reverse=True)
        group_of_points = {p: g for g, p in enumerate(levels)}
        field.sort(key=lambda c: (group_of_points[c.points], c.rank))
        self.field = field
        self.n = n = len(field)
        self.group = [group_of_points[c.points] for c in field]
        self.groups = len(levels)
        self.size = [0] * len(levels)
        self.pos = [0] * n
        for i, g in enumerate(self.group):
            self.pos[i] = self.size[g]
            self.size[g] += 1
        self.start = [0] * len(levels)  # index of each group's first member
        for g in range(1, len(levels)):
            self.start[g] = self.start[g - 1] + self.size[g - 1]
        index = {c.id: i for i, c in enumerate(field)}
        self.met: list[set[int]] = [set() for _ in range(n)]
        for i, c in enumerate(field):
            for other in c.opponents:
                j = index.get(other)
                if j is not None:  # an opponent who withdrew is simply absent
                    self.met[i].add(j)
                    self.met[j].add(i)
        self.avoid = apart(field)
        self.constrained = any(self.avoid)
        self.odd = n % 2 == 1
        # Bye priority: fewest byes, then lowest ranked. bye_cost[i] = place in that order.
        self.bye_order = sorted(range(n), key=lambda i: (field[i].byes, -field[i].rank))
        self.bye_cost = [0] * n
        for place, i in enumerate(self.bye_order):
            self.bye_cost[i] = place
        # The seed decides ties only: it permutes the node numbering the matcher sees.
        self.node_of = list(range(n + self.odd))
        random.Random(seed).shuffle(self.node_of)
        self.layout(rematches=False)

    # -- weights ---------------------------------------------------------------------------------

    def layout(self, *, rematches: bool) -> None:
        """Field widths and shifts, kept under WEIGHT_BITS where the field size allows. The
        rematch field exists only when rematch edges are let in (the last resort), the bye field
        only when the count is odd."""
        pairs = (self.n + 1) // 2
        self.score_cap, self.side_max, self.rank_cap = SCORE_CAP, SIDE_MAX, RANK_CAP

        def widths() -> list[int]:
            return [
                pairs.bit_length() if rematches else 0,  # rematches
                pairs.bit_length() if self.constrained else 0,  # pairs kept apart, made anyway
                max(1, self.n.bit_length()) if self.odd else 0,  # bye place (one bye edge)
                (pairs * self.score_cap**2).bit_length(),
                (pairs * self.side_max).bit_length(),
                (pairs * self.rank_cap).bit_length(),
            ]

        while sum(widths()) >= WEIGHT_BITS and self.rank_cap > 1:
            self.rank_cap //= 2
        while sum(widths()) >= WEIGHT_BITS and self.side_max > 1:
            self.side_max -= 1
        while sum(widths()) >= WEIGHT_BITS and self.score_cap > 1:
            self.score_cap -= 1
        w_rematch, w_clash, w_bye, w_score, w_side, w_rank = widths()
        self.shift_rank = 0
        self.shift_side = w_rank
        self.shift_score = self.shift_side + w_side
        self.shift_bye = self.shift_score + w_score
        self.shift_clash = self.shift_bye + w_bye
        self.shift_rematch = self.shift_clash + w_clash
        self.bits = self.shift_rematch + w_rematch
        self.rematch_free = (1 << self.shift_rematch) if rematches else 0
        self.clash_free = (1 << self.shift_clash) if self.constrained else 0
        # Every non-bye edge carries the same constant in the bye field (0) and every bye edge
        # the same constant in the pair fields (their maxima), so the sums compare fairly.
        self.pair_full = (
            (self.score_cap**2 << self.shift_score)
            + (self.side_max << self.shift_side)
            + (self.rank_cap << self.shift_rank)
        )

    def score_cost(self, i: int, j: int) -> int:
        return min(abs(self.group[i] - self.group[j]), self.score_cap) ** 2

    def side_cost(self, i: int, j: int) -> int:
        a, b = self.field[i].first, self.field[j].first
        if a * b <= 0:
            return 0  # one of them has no preference, or they want different sides
        return min(self.side_max, 1 + (min(abs(a), abs(b)) >= 2))

    def rank_cost(self, i: int, j: int) -> int:
        if i > j:
            i, j = j, i
        gi, gj = self.group[i], self.group[j]
        if gi == gj:
            cost = abs(self.pos[j] - self.pos[i] - self.size[gi] // 2)
        else:  # the floater should be the lowest of its group, meeting the highest of the next
            cost = 2 * ((self.size[gi] - 1 - self.pos[i]) + self.pos[j])
        return min(cost, self.rank_cap)

    def weight(self, i: int, j: int) -> int:
        """The packed weight of pair (i, j); j == n is the bye node."""
        rematch_free = self.rematch_free
        if j == self.n:
            return (
                rematch_free
                + self.clash_free
                + ((self.n - 1 - self.bye_cost[i]) << self.shift_bye)
                + (self.pair_full)
            )
        w = 0 if j in self.met[i] else rematch_free
        w += 0 if j in self.avoid[i] else self.clash_free
        w += (self.score_cap**2 - self.score_cost(i, j)) << self.shift_score
        w += (self.side_max - self.side_cost(i, j)) << self.shift_side
        w += self.rank_cap - self.rank_cost(i, j)
        return w

    def weighted(self, edges: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
        """(i, j, weight(i, j)) for pairs i < j: the same as `weight`, inlined for speed."""
        n, group, pos, size, met = self.n, self.group, self.pos, self.size, self.met
        first = [c.first for c in self.field]
        rematch_free, clash_free, avoid = self.rematch_free, self.clash_free, self.avoid
        s_score, s_side, s_bye = self.shift_score, self.shift_side, self.shift_bye
        cap, smax, rcap = self.score_cap, self.side_max, self.rank_cap
        cap2 = cap * cap
        bye_base = rematch_free + clash_free + self.pair_full
        bye_cost = self.bye_cost
        out: list[tuple[int, int, int]] = []
        append = out.append
        for i, j in edges:
            if j == n:
                append((i, j, bye_base + ((n - 1 - bye_cost[i]) << s_bye)))
                continue
            gi = group[i]
            d = group[j] - gi
            if d == 0:
                r = pos[j] - pos[i] - size[gi] // 2
                if r < 0:
                    r = -r
            else:
                r = 2 * (size[gi] - 1 - pos[i] + pos[j])
                if d > cap:
                    d = cap
            if r > rcap:
                r = rcap
            a, b = first[i], first[j]
            side = 0
            if a * b > 0:
                side = 2 if (a >= 2 or a <= -2) and (b >= 2 or b <= -2) else 1
                if side > smax:
                    side = smax
            w = 0 if j in met[i] else rematch_free
            if clash_free and j not in avoid[i]:
                w += clash_free
            append((i, j, w + ((cap2 - d * d) << s_score) + ((smax - side) << s_side) + rcap - r))
        return out

    # -- graphs ----------------------------------------------------------------------------------

    def edges(self, window: int | None, reach: int, rematches: bool) -> set[tuple[int, int]]:
        """Candidate pairs (i < j). `window=None`: every pair (the complete graph)."""
        n = self.n
        out: set[tuple[int, int]] = set()
        met = self.met
        if window is None:
            for i in range(n):
                for j in range(i + 1, n):
                    if rematches or j not in met[i]:
                        out.add((i, j))
            if self.odd:
                out.update((i, n) for i in range(n))
            return out
        group, size, start, pos = self.group, self.size, self.start, self.pos
        for i in range(n):
            gi = group[i]
            # neighbours in the standings (within `reach` score groups)
            for j in range(i + 1, min(n, i + window + 1)):
                if group[j] - gi > reach:
                    break
                if rematches or j not in met[i]:
                    out.add((i, j))
            # around the Dutch partner in the group (top half v bottom half)
            half = size[gi] // 2
            target = pos[i] + half
            lo = max(pos[i] + 1, target - window)
            hi = min(size[gi] - 1, target + window)
            base = start[gi]
            for q in range(lo, hi + 1):
                j = base + q
                if rematches or j not in met[i]:
                    out.add((i, j))
        if self.odd:
            out.update((i, n) for i in self.bye_order[: max(window, 1)])
        return out

    def match(self, edges: set[tuple[int, int]]) -> dict[int, int] | None:
        """The best matching on `edges`, as {index: partner index} both ways (the bye node is n),
        or None when it is not perfect."""
        nodes = self.n + self.odd
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(nodes))
        node_of = self.node_of
        graph.add_edges_from(
            [(node_of[i], node_of[j], w) for i, j, w in self.weighted(sorted(edges))]
        )
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
        if 2 * len(matching) != nodes:
            return None
        index_of = {node: i for i, node in enumerate(node_of)}
        partner: dict[int, int] = {}
        for a, b in matching:
            i, j = index_of[a], index_of[b]
            partner[i] = j
            partner[j] = i
        return partner

    # -- judging a result ------------------------------------------------------------------------

    def score_lower_bound(self, bye: int | None) -> int:
        """No matching can cost less on the score criterion than this: every boundary between
        score groups with an odd number of contenders above it must be crossed by a pair."""
        bound, above = 0, 0
        for g in range(self.groups - 1):
            above += self.size[g] - (bye is not None and self.group[bye] == g)
            bound += above % 2
        return bound

    def key(self, partner: dict[int, int]) -> tuple[int, int, int, int]:
        """(rematches, pairs kept apart made anyway, bye place, score cost) of a perfect
        matching: lower is better."""
        rematches = clashes = score = 0
        bye_place = 0
        for i, j in partner.items():
            if i >= j:
                continue
            if j == self.n:
                bye_place = self.bye_cost[i]
            else:
                rematches += j in self.met[i]
                clashes += j in self.avoid[i]
                score += self.score_cost(i, j)
        return rematches, clashes, bye_place, score

    def certified(self, partner: dict[int, int]) -> bool:
        """True when no wider graph can do better on rematches, keeping apart, the bye or score
        gaps."""
        rematches, clashes, bye_place, score = self.key(partner)
        bye = partner.get(self.n)
        return (
            rematches == 0
            and clashes == 0
            and bye_place == 0
            and score == self.score_lower_bound(bye)
        )


def _identity(weight: int) -> int:
    return weight


def swiss(contenders: Sequence[Contender], *, seed: int) -> Draw:
    """One Swiss round for two-sided tables. Deterministic for a given field and seed, whatever
    the order of `contenders`. Raises PairingError on bad input."""
    seed = check_seed(seed)
    fld = _Field(check_contenders(contenders, minimum=2), seed)
    n = fld.n
    best: dict[int, int] | None = None
    for window, reach in (*LEVELS, (None, 0)):
        complete = window is None or (2 * window + 1 >= n and reach >= fld.groups - 1)
        if best is not None and complete and n * (n - 1) // 2 > EDGE_BUDGET:
            break  # good enough: a perfect rematch-free pairing, and wider is too dear
        edges = fld.edges(None if complete else window, reach, rematches=False)
        if best is not None and len(edges) > EDGE_BUDGET:
            break
        found = fld.match(edges)
        if found is not None:
            best = found
            if fld.certified(found):
                break
        if complete:
            break
    if best is None:  # no rematch-free pairing exists: let rematches in, heavily penalised
        fld.layout(rematches=True)
        best = fld.match(fld.edges(None, 0, rematches=True))
        assert best is not None  # the complete graph always has a perfect matching
    return _draw(fld, best)


def _draw(fld: _Field, partner: dict[int, int]) -> Draw:
    field, n = fld.field, fld.n
    tables: list[tuple[Contender, Contender]] = []
    byes: list[int] = []
    notes: list[str] = []
    repeats = together = 0
    for i, j in sorted(partner.items()):
        if i > j:
            continue
        if j == n:
            byes.append(field[i].id)
            if field[i].byes > 0:
                # Proven unavoidable when everyone has had a bye already (the usual case: the
                # bye criterion outranks score gaps and certification demands place 0).
                fewest = field[fld.bye_order[0]].byes
                proven = field[i].byes == fewest
                notes.append(f"bye again{', unavoidable' if proven else ''}: {field[i].id}")
            continue
        a, b = field[i], field[j]
        if (b.first, b.rank) < (a.first, a.rank):
            a, b = b, a
        if j in fld.met[i]:
            repeats += 1
            notes.append(f"rematch unavoidable: {a.id} v {b.id}")
        if j in fld.avoid[i]:
            together += 1
            notes.append(f"kept apart, unavoidable: {a.id} v {b.id}")
        tables.append((a, b))
    tables.sort(key=lambda t: min(t[0].rank, t[1].rank))
    return Draw(
        tables=tuple((a.id, b.id) for a, b in tables),
        byes=tuple(byes),
        repeats=repeats,
        notes=tuple(notes),
        apart=together,
    )
