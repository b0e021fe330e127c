"""The repository stands alone: nothing in it reads the ``shared`` folder that only our CI has beside
the clone, and every dependency it names is pinned in the lock the README installs from."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
SEARCHED = ("tests", "scripts", "src", "benchmarks", "docs", ".ci")
TEXT = {".py", ".yaml", ".yml", ".md", ".toml", ".json", ".html", ".js", ".txt", ".ini", ""}

# "../shared", "..\shared", or a path built from a "shared" component (Path(...) / "shared").
OUTSIDE = re.compile(r"\.\.[/\\]+shared\b|/\s*[\"']shared[\"']|[\"']shared[\"']\s*/")


def _files() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in SEARCHED:
        found.extend(p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in TEXT)
    return [p for p in found if p.resolve() != Path(__file__).resolve() and "__pycache__" not in p.parts]


def test_nothing_reads_the_folder_beside_the_clone() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _files()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not offenders, "these name the shared folder a user's clone lacks:\n" + "\n".join(offenders)


def test_the_pattern_catches_the_forms_we_used_to_write() -> None:
    # A pattern that matches nothing would make the test above pass forever.
    for line in (
        'LIBRARY = Path(__file__).parents[3] / ".." / "shared" / "gcs"',
        'gcs: "../../../../shared/gcs/library/Cave Bear.gcs"',
        "see ../shared/gcs/library/",
    ):
        assert OUTSIDE.search(line), line
    assert not OUTSIDE.search("Test support shared by every test directory")


def _name(requirement: str) -> str:
    """PEP 503 normalised project name of a requirement such as ``psycopg[binary]>=3.1``."""
    bare = re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", bare).lower()


def _pinned() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;]+)", line)
        if match:
            pins[_name(match.group(1))] = match.group(2)
    return pins


def test_every_dependency_in_pyproject_is_pinned_in_the_lock() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        named.extend(extra)
    pins = _pinned()
    missing = sorted({_name(r) for r in named} - set(pins))
    assert not missing, f"named in pyproject.toml but not pinned in requirements.lock: {missing}"
    # psycopg[binary] needs its binary part pinned too, or pip may pick any.
    assert "psycopg-binary" in pins


def test_the_lock_pins_the_stack_the_issue_named() -> None:
    pins = _pinned()
    for name in ("pyyaml", "fastapi", "uvicorn", "sqlalchemy", "pytest", "playwright", "pgserver", "hypothesis",
                 "schemathesis"):
        assert re.fullmatch(r"\d+(\.\d+)*\S*", pins.get(name, "")), f"{name} is not pinned to one version"


def test_the_readme_and_ci_install_from_the_lock() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)\n```", readme, flags=re.S)[:2]
    assert len(commands) == 2
    for command in commands:
        assert "-c requirements.lock" in command, command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].strip() in ci
