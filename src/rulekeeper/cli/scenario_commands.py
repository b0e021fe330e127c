"""``scenario run``: replay scenario files and report expectations."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["run_scenarios"]


def run_scenarios(files: Sequence[str], *, as_json: bool, verbose: bool, automation: str | None = None) -> int:
    from rulekeeper.scenario import run_file

    reports = [run_file(path, automation=automation) for path in files]
    if as_json:
        from rulekeeper.cli.output import emit_json

        emit_json({"passed": all(r.passed for r in reports), "files": [r.to_json() for r in reports]})
    else:
        for report in reports:
            if report.invalid is not None:
                print(f"INVALID {report.path}: {report.invalid}", file=sys.stderr)
                continue
            status = "ok     " if report.passed else "FAILED "
            print(f"{status}{report.path} ({report.system}, {report.steps_run} steps) {report.title}")
            if verbose:
                for line in report.transcript:
                    print(f"    {line}")
            for failure in report.failures:
                print(f"    {report.path}: {failure.render()}")
    return max((r.exit_code for r in reports), default=0)
