"""Scoring page benchmark: how soon a phone that opens a table card's link can take a hand, on the
evening server (issue 28, item 4: within 1 s of opening; 1.6-2.9 s before).

    .venv/bin/python bench/scoring_ready.py               # 10 cold opens and 10 reloads
    .venv/bin/python bench/scoring_ready.py --runs 5 --port 8131

A temporary club folder (CLUB_DIR, its own SQLite database, no Redis) with one published Spades
match and a table card's token; `manage.py serve` (uvicorn, production settings, the static
files collected and compressed: the first start collects them once, a minute or two) on
127.0.0.1:--port; then Chromium at 390 x 844 opens the card's link: `cold` in a new browser
context each time (nothing cached, as a phone scanning the card for the first time), `reload`
in the same context (the page's files cached). The figure is the page's own
`performance.mark('scoring-ready')` (static/js/scoring.js, set when the entry is wired and
shown), in ms from the navigation's start: the time until a tap on the pad counts. Best and
median of --runs; the folder and the server are removed at the end.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402

TARGET_MS = 1000.0  # issue 28, item 4

SETUP = """
from tests.tournaments.builders import make_director, make_match
from tournaments import services
director = make_director("bench")
match = make_match(director)
_, secret = services.issue_table_token(table=match.table, actor=director)
print(services.scoring_path(match.table, secret))
"""

READY = """() => {
  const mark = performance.getEntriesByName('scoring-ready')[0];
  return mark ? mark.startTime : null;
}"""


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def wait_for_port(port: int, seconds: float = 600) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise SystemExit(f"the evening server did not start on port {port}")


def measure(url: str, runs: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    phone = {"width": 390, "height": 844}
    found: dict[str, list[float]] = {"cold": [], "reload": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for _ in range(runs + 1):  # the first cold open warms the server: not counted
                context = browser.new_context(viewport=phone, locale="en-US")
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("#scoring[data-ready=true]")
                cold = page.evaluate(READY)
                page.reload()
                page.wait_for_selector("#scoring[data-ready=true]")
                again = page.evaluate(READY)
                assert page.locator("#pad-keys button").count() > 0, "no pad to tap"
                context.close()
                found["cold"].append(cold)
                found["reload"].append(again)
        finally:
            browser.close()
    return {kind: values[1:] for kind, values in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--port", type=int, default=8131)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tt-scoring-ready-") as club:
        env = {
            **os.environ,
            "TRICKTABLE_SERVER": "evening",
            "CLUB_DIR": club,
            "PORT": str(args.port),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        env.pop("REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        path = (
            subprocess.run(
                [python, "manage.py", "shell", "-c", SETUP],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        log("starting the evening server (collects the static files once)")
        server = subprocess.Popen(
            [python, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(args.port)],
            cwd=ROOT,
            env=env,
        )
        try:
            wait_for_port(args.port)
            found = measure(f"http://127.0.0.1:{args.port}{path}", args.runs)
        finally:
            server.terminate()
            server.wait(timeout=30)
    for kind, values in found.items():
        best, median = min(values), statistics.median(values)
        print(
            f"scoring page ready to take a hand ({kind}): best {best:.0f} ms, "
            f"median {median:.0f} ms, worst {max(values):.0f} ms over {len(values)} opens"
        )
        report.figure(
            bar=f"Scoring page ready to take a hand, evening server ({kind})",
            value=median / 1000,
            unit="s",
            target="<= 1 s",
            ok=median <= TARGET_MS,
        )


if __name__ == "__main__":
    main()
