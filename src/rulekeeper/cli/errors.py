"""How the command line reports errors: one or two lines on stderr, never a traceback.

Exit codes: 0 success, 1 a rule or conflict refusal, 2 bad input, 3 an internal error.
"""

from __future__ import annotations

import os
import sys

from rulekeeper.errors import ConflictError, InputError, RuleRefusal, RulesError

__all__ = ["exit_code_for", "report_error"]


def exit_code_for(exc: BaseException) -> int:
    if isinstance(exc, InputError):
        return 2
    if isinstance(exc, (RuleRefusal, ConflictError)):
        return 1
    if isinstance(exc, RulesError):
        return 1
    return 3


def report_error(exc: BaseException, *, as_json: bool = False) -> int:
    """Print ``exc`` for a person and return the exit code. RULEKEEPER_DEBUG=1 shows the traceback.

    With ``as_json`` the same error also goes to stdout as JSON, so a script that asked for JSON
    always gets JSON.
    """
    if os.environ.get("RULEKEEPER_DEBUG"):
        import traceback

        traceback.print_exception(exc)
    code = exit_code_for(exc)
    if isinstance(exc, ConflictError):
        label = "conflict"
    elif isinstance(exc, RuleRefusal):
        label = "refused"
    elif code == 3:
        label = "internal error"
    else:
        label = "error"
    message = str(exc) or type(exc).__name__
    if code == 3:
        message = f"{type(exc).__name__}: {message} (please report this; RULEKEEPER_DEBUG=1 shows details)"
    print(f"rulekeeper: {label}: {message}", file=sys.stderr)
    if as_json:
        import json

        error = {"error": {"kind": label, "message": message, "exit_code": code}}
        expected = getattr(exc, "expected", None)
        if expected:
            error["error"]["expected"] = expected
        sys.stdout.write(json.dumps(error) + "\n")
    return code
