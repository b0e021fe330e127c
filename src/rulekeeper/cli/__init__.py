"""The ``rulekeeper`` command line (Typer + Rich), with a fast path for dice rolls."""
