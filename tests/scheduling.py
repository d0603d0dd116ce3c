"""How `make test` shares the tests between its pytest-xdist workers: a module at a time.

pytest-xdist's `--dist load` sends each worker a first chunk of a quarter of the collection, in
collection order. The long tests come first (`pytest_collection_modifyitems` in
tests/conftest.py), so one worker's first chunk held every browser story and evening server,
while the other worker ran all the short tests in under four minutes and then sat idle for five
(measured on 24 November: 524 s of tests on one worker, 213 s on the other).

Here a worker is sent its next unit of work when it is down to its last test: the run of pending
tests of one module, so that a module's Chromium, live server and module-scoped data are set up
once, on one worker. A unit is at most a 2×workers-th of what is left, so near the end the units
shrink to single tests and both workers finish together. With the long modules first, one
worker starts on them while the other starts from the back on the short tests, then joins it
(`ModuleLoadScheduling._from_back`); both finish on short tests.
"""

from __future__ import annotations

from xdist.scheduler import LoadScheduling


def module(nodeid: str) -> str:
    """The test file a node id belongs to: `tests/x.py::test_y[1]` → `tests/x.py`."""
    return nodeid.split("::", 1)[0]


def next_unit(
    pending: list[int], collection: list[str], workers: int, *, from_back: bool = False
) -> list[int]:
    """The next tests to send a worker: the pending tests at the front (or the back) that belong
    to the first (or last) one's module, at most max(1, len(pending) // (2 * workers)) of them,
    in collection order."""
    if not pending:
        return []
    most = max(1, len(pending) // (2 * max(1, workers)))
    end = pending[-1] if from_back else pending[0]
    run = reversed(pending[-most:]) if from_back else pending[:most]
    unit = []
    for index in run:
        if module(collection[index]) != module(collection[end]):
            break
        unit.append(index)
    return sorted(unit)


class ModuleLoadScheduling(LoadScheduling):
    """`--dist load` with units of one module (see the module's docstring). Crash handling,
    shutdown and the collection check are pytest-xdist's own."""

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:  # a node added later: top every node up
            for node in self.nodes:
                self.check_schedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = next(iter(self.node2collection.values()))
        self.pending[:] = range(len(self.collection))
        for node in self.nodes:
            self.check_schedule(node)
        if not self.pending:
            for node in self.nodes:
                node.shutdown()

    def check_schedule(self, node, duration: float = 0) -> None:
        if node.shutting_down:
            return
        if not self.pending:
            node.shutdown()
            return
        # A worker runs a test once it knows the next one (for fixture teardown), so it is sent
        # more while it still has one test to run: it never waits for the controller.
        queued = self.node2pending[node]
        while self.pending and len(queued) < 2:
            back = self._from_back(node)
            unit = next_unit(self.pending, self.collection, len(self.node2pending), from_back=back)
            if back:
                del self.pending[-len(unit) :]
                self._taken_from_back += len(unit)
            else:
                del self.pending[: len(unit)]
            queued.extend(unit)
            node.send_runtest_some(unit)
        if not self.pending:
            node.shutdown()

    _taken_from_back = 0

    def _from_back(self, node) -> bool:
        """Every other worker starts at the back, among the short tests, until half the tests
        are taken from there: a browser story waiting on a live page or a server then shares
        the cores with tests that compute, where two stories side by side left both cores
        idle at times (a third of the time between minutes 1.5 and 3, vmstat). It then takes
        the long modules from the front too, and both finish on short tests."""
        assert self.collection is not None
        odd = list(self.node2pending).index(node) % 2 == 1
        return odd and self._taken_from_back < len(self.collection) // 2
