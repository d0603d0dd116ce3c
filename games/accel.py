"""The optional compiled Spades engine: the engine's own modules compiled with mypyc.

The pure-Python engine is the reference and the default: a fresh checkout runs it, and so does
`make test`. `make accel` compiles `COMPILED` (the Spades rules, the record reader, notes and the
shared readers) from the same source files with mypyc into `.accel/`; from then on every process
that imports `games` uses the compiled modules, as long as

- the sources they were built from are the sources in the checkout (a digest of every module of
  the `games` package is kept beside the build: editing any of them turns the build off, with a
  warning, until `make accel` runs again),
- the build is for this interpreter and machine (cache tag and extension suffix, e.g.
  cpython-312 on x86_64), and its library loads (a damaged build falls back, with a warning), and
- `TRICKTABLE_ACCEL` is not `off` (the pure engine even where a build exists).

Both engines answer every record alike: tests/games/test_accel.py checks the compiled one against
the pure one on the same records, and CI builds it and runs the engine tests on both. Plain
Python, no Django: `games/__init__.py` calls `activate` before any engine module is imported.

    make accel           # build (needs gcc, the Python headers and requirements-accel.txt)
    make accel-status    # which engine a process runs, and why
    make accel-clean     # remove the build: the pure engine again
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import platform
import sys
import sysconfig
from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
BUILD = ".accel"  # the build's folder, in the checkout's root
MANIFEST = "manifest.json"
#: The modules compiled: what a Spades hand goes through, from `check_record` to its notes.
COMPILED = ("games/spades.py", "games/records.py", "games/notes.py", "games/base.py")
#: mypyc's shared library of the build (a module of this name beside the package's folder).
GROUP = "tricktable_games"
LIBRARY = f"{GROUP}__mypyc"
ENVIRONMENT = "TRICKTABLE_ACCEL"


@dataclass(frozen=True)
class Status:
    """Which engine a process runs: `active` is True for the compiled one; `reason` says why.
    `warn`: a build exists but cannot serve (stale, for another machine, damaged)."""

    active: bool
    reason: str
    warn: bool = False

    @property
    def engine(self) -> str:
        return "compiled (mypyc)" if self.active else "pure Python"


def _platform() -> str:
    """The machine and extension ABI a build is for (a checkout copied to another machine)."""
    return f"{platform.machine()} {sysconfig.get_config_var('EXT_SUFFIX')}"


def digests(root: Path = ROOT) -> dict[str, str]:
    """The sha256 of every module of the package (not its subpackages), by path from `root`:
    the compiled modules and every module they read at run time."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted((root / "games").glob("*.py"))
    }


def status(*, root: Path = ROOT, environ: Mapping[str, str] = os.environ) -> Status:
    """Whether the build in `root`/.accel may serve this process."""
    build = root / BUILD
    if environ.get(ENVIRONMENT, "").strip().lower() in ("off", "0", "false", "no"):
        return Status(False, f"turned off by {ENVIRONMENT}={environ[ENVIRONMENT]}")
    try:
        manifest = json.loads((build / MANIFEST).read_text())
    except FileNotFoundError:
        return Status(False, "not built (make accel)")
    except (OSError, ValueError) as error:
        return Status(False, f"unreadable build manifest ({error})", warn=True)
    if not isinstance(manifest, dict):
        return Status(False, "unreadable build manifest (not an object)", warn=True)
    if (
        manifest.get("python") != sys.implementation.cache_tag
        or manifest.get("platform") != _platform()
    ):
        return Status(
            False,
            f"built for {manifest.get('python')} on {manifest.get('platform')}, "
            f"not {sys.implementation.cache_tag} on {_platform()} (make accel)",
            warn=True,
        )
    built, now = manifest.get("sources", {}), digests(root)
    changed = sorted(path for path in set(built) | set(now) if built.get(path) != now.get(path))
    if changed:
        return Status(
            False,
            f"built from other sources: {', '.join(changed)} changed since (make accel)",
            warn=True,
        )
    return Status(True, f"built {manifest.get('built', '?')} with mypyc {manifest.get('mypy')}")


def activate(
    package_path: MutableSequence[str],
    *,
    root: Path = ROOT,
    environ: Mapping[str, str] = os.environ,
) -> Status:
    """Put the compiled modules first on the `games` package's path when `status` allows;
    called by games/__init__.py before it imports any engine module."""
    found = status(root=root, environ=environ)
    if not found.active:
        if found.warn:
            log.warning("the compiled rules engine is not used: %s", found.reason)
        return found
    build = root / BUILD
    library = next(build.glob(f"{LIBRARY}.*"), None)
    if library is None:
        return Status(False, "the build has no shared library (make accel)", warn=True)
    if LIBRARY not in sys.modules:  # the compiled modules import it by this top-level name
        try:
            spec = importlib.util.spec_from_file_location(LIBRARY, library)
            if spec is None or spec.loader is None:
                raise ImportError(f"no loader for {library.name}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except Exception as error:  # noqa: BLE001 - a damaged build must not stop `import games`
            reason = f"the build's library does not load ({type(error).__name__}: {error})"
            log.warning("the compiled rules engine is not used: %s", reason)
            return Status(False, reason, warn=True)
        sys.modules[LIBRARY] = module
    package_path.insert(0, str(build / "games"))
    return found


def build(*, root: Path = ROOT, python: str = sys.executable) -> Path:
    """Compile `COMPILED` with mypyc (from a copy of the package, in a temporary folder) into
    `root`/.accel, replacing any earlier build only once the new one is complete, under a lock
    (two builds at once from one checkout take turns)."""
    import datetime
    import fcntl
    import shutil
    import subprocess
    import tempfile

    target = root / BUILD
    with open(root / f"{BUILD}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        sources = digests(root)
        with tempfile.TemporaryDirectory(prefix="tricktable-accel-") as tmp:
            work = Path(tmp)
            shutil.copytree(
                root / "games",
                work / "games",
                ignore=shutil.ignore_patterns("__pycache__", "*.so", "management"),
            )
            script = (
                "from setuptools import setup\n"
                "from mypyc.build import mypycify\n"
                f"setup(name='tricktable-accel', packages=[], py_modules=[], ext_modules=mypycify("
                f"{list(COMPILED)!r}, opt_level='3', group_name={GROUP!r}))\n"
            )
            done = subprocess.run(
                [python, "-c", script, "build_ext", "--inplace"],
                cwd=work,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode:
                raise RuntimeError(f"mypyc failed ({done.returncode}):\n{done.stdout}{done.stderr}")
            staged = Path(tempfile.mkdtemp(prefix=f"{BUILD}-", dir=root))
            try:
                (staged / "games").mkdir()
                for path in (work / "games").glob("*.so"):
                    shutil.copy2(path, staged / "games" / path.name)
                for path in work.glob(f"{LIBRARY}.*.so"):
                    shutil.copy2(path, staged / path.name)
                from mypy.version import __version__ as mypy_version

                (staged / MANIFEST).write_text(
                    json.dumps(
                        {
                            "python": sys.implementation.cache_tag,
                            "platform": _platform(),
                            "mypy": mypy_version,
                            "built": datetime.datetime.now().isoformat(timespec="seconds"),
                            "compiled": list(COMPILED),
                            "sources": sources,
                        },
                        indent=1,
                    )
                    + "\n"
                )
                staged.chmod(0o755)  # mkdtemp's 0700 would hide it from a server of another user
                clean(root=root)
                staged.rename(target)
            finally:
                shutil.rmtree(staged, ignore_errors=True)  # gone already once renamed
    return target


def clean(*, root: Path = ROOT) -> None:
    """Remove the build: the pure engine from the next process on."""
    import shutil

    shutil.rmtree(root / BUILD, ignore_errors=True)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        print(f"compiling {', '.join(COMPILED)} with mypyc ...", flush=True)
        try:
            print(f"built into {build()}")
        except (RuntimeError, OSError) as error:
            print(f"games.accel: {error}", file=sys.stderr)
            return 1
    elif command == "clean":
        clean()
    elif command != "status":
        print("usage: make accel | accel-status | accel-clean", file=sys.stderr)
        return 2
    found = activate([])  # as `import games` would decide, loading the library to be sure
    print(f"rules engine: {found.engine} ({found.reason})")
    return 0


if __name__ == "__main__":  # `make accel`: run as a file, without importing the package
    sys.exit(main(sys.argv[1:]))
