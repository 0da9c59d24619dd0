"""Each crash the fuzzers found in code owned elsewhere, reproduced: a strict xfail until it is fixed."""

from __future__ import annotations

import pytest

from .known_issues import KNOWN_ISSUES


@pytest.mark.parametrize("issue", [pytest.param(issue, id=issue.name, marks=pytest.mark.xfail(strict=True, raises=issue.exception, reason=f"{issue.name}: to fix in {issue.owner}"))
                                   for issue in KNOWN_ISSUES])
def test_known_issue_is_still_there(issue, tmp_path):
    try:
        issue.reproduce(tmp_path)
    except issue.exception as exc:
        assert issue.matches(exc), f"{issue.name}: now raised elsewhere ({exc!r})"
        raise
