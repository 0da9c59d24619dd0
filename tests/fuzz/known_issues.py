"""Crashes the fuzzers found in code owned elsewhere, each with the smallest input that shows it.

A fuzz test that meets one of these counts it (a Hypothesis event "known issue: ...") and goes on,
so that it keeps looking for new ones; test_known_issues.py runs each reproduction as a strict
xfail, which starts failing the day the issue is fixed: then delete its entry here.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class KnownIssue:
    name: str
    owner: str                              # the file where it is to be fixed
    exception: type[BaseException]
    raised_in: str                          # "path/in/repo.py:function" of the innermost project frame
    reproduce: Callable[[Path], None]       # passes once fixed; gets a temporary directory
    detail: Callable[[BaseException], bool] = lambda exc: True

    def matches(self, exc: BaseException) -> bool:
        return isinstance(exc, self.exception) and innermost_project_frame(exc) == self.raised_in and self.detail(exc)


def innermost_project_frame(exc: BaseException) -> str | None:
    """'rulesengine/build.py:build' for the deepest frame of the traceback inside rulesengine/ or cli/."""
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in ("rulesengine", "cli"):
            found = f"{path.relative_to(ROOT).as_posix()}:{frame.name}"
    return found


def known_issue(exc: BaseException) -> KnownIssue | None:
    return next((issue for issue in KNOWN_ISSUES if issue.matches(exc)), None)


def tolerating_known_issues(function, *args, **kwargs):
    """function(*args, **kwargs), or KNOWN (and a Hypothesis event) if it fails with a known issue."""
    from hypothesis import event

    try:
        return function(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - anything else is re-raised at once
        issue = known_issue(exc)
        if issue is None:
            raise
        event(f"known issue: {issue.name}")
        return KNOWN


KNOWN = object()


# -- the reproductions -----------------------------------------------------------------------------
# None open. (Fixed: `run --save-record` into a missing folder, now F907: test_found_by_fuzzing.py.)
KNOWN_ISSUES: list[KnownIssue] = []
