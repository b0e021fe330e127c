"""The exception hierarchy, drawn once.

    RulesError                      every error rulekeeper raises on purpose
    ├── InputError (ValueError)     bad input: says what was wrong and what form was expected
    │   ├── DiceError               malformed dice notation, a cap exceeded, a die face out of range
    │   └── UnknownNameError        an unknown system, character, action, check or campaign
    ├── RuleRefusal                 the input is well formed but a rule forbids it (respite while Dying)
    ├── ConflictError               a command was based on a stale campaign version
    └── StoreError                  a database or file could not be read or written safely
        └── StoreBusy               another writer held the database longer than this one waits

Front ends map InputError to exit code 2 and RuleRefusal/ConflictError to exit code 1.
"""

from __future__ import annotations

__all__ = [
    "ConflictError",
    "DiceError",
    "InputError",
    "OutcomeUnknown",
    "RuleRefusal",
    "RulesError",
    "StoreBusy",
    "StoreError",
    "UnknownNameError",
    "UnusableDatabase",
]


class RulesError(Exception):
    """Base of every error rulekeeper raises deliberately."""


class InputError(RulesError, ValueError):
    """Input that does not have the expected form.

    ``expected`` names the form that would have been accepted, so every front end can
    print a one-line message with it.
    """

    def __init__(self, message: str, *, expected: str | None = None, where: str | None = None) -> None:
        self.message = message
        self.expected = expected
        self.where = where
        text = message
        if where:
            text = f"{where}: {text}"
        if expected:
            text = f"{text} (expected {expected})"
        super().__init__(text)


class DiceError(InputError):
    """Malformed dice notation, a cap exceeded, or a die value the die cannot show."""

    def __init__(
        self,
        message: str,
        *,
        expected: str | None = None,
        where: str | None = None,
        position: int | None = None,
    ) -> None:
        self.position = position
        if position is not None and where is None:
            where = f"at position {position}"
        super().__init__(message, expected=expected, where=where)


class UnknownNameError(InputError):
    """A name that does not refer to anything known (system, character, action, check)."""


class RuleRefusal(RulesError):
    """Well-formed input that a rule forbids; the message says which rule."""


class ConflictError(RulesError):
    """A command based on a campaign version that is no longer current."""


class StoreError(RulesError):
    """A database or file that cannot be read or written safely."""


class UnusableDatabase(StoreError, InputError):
    """The database named cannot be opened as a campaign database (not one, damaged, out of
    reach): the choice of database is the input at fault, so the CLI exits 2, as for bad input."""

    def __init__(self, message: str, *, expected: str | None = None) -> None:
        InputError.__init__(self, message, expected=expected)


class OutcomeUnknown(StoreError):
    """The database stopped answering after a write was sent: it may have been committed or not.
    A client that sends the command again without its idempotency key may apply it twice."""


class StoreBusy(StoreError):
    """Another writer held the database for longer than this connection waits (which may be not
    at all: a server's event loop never waits, ``store.sqlite_inline``). Nothing was written."""
