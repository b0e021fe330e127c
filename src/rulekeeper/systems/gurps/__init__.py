"""GURPS 4th edition (Lite / Basic Set), seed 004."""

from __future__ import annotations
