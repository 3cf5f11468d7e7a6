"""Errors the operator's command line reports as one clear line (never a traceback)."""
from __future__ import annotations


class UserError(Exception):
    """A mistake of the operator's (missing path, bad level code): printed, exit status 1."""
