"""How many examples a fuzz test runs: its own small count in the CI profile, the profile's otherwise."""

from __future__ import annotations

import os

from hypothesis import settings


def budget(ci_examples: int) -> settings:
    """Settings for one fuzz test: ci_examples in the `ci` profile (the default), else the profile's count."""
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci":
        return settings(max_examples=ci_examples)
    return settings()
