"""How many examples a fuzz test runs: its own small count in the CI profile, the profile's otherwise."""

from __future__ import annotations

import os

from hypothesis import settings


def budget(ci_examples: int, large_examples: int | None = None) -> settings:
    """Settings for one fuzz test: ci_examples in the `ci` profile (the default), else the profile's count, or
    large_examples where one example is a whole game (10,000 greedy games would take a day on one core)."""
    profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    if profile == "ci":
        return settings(max_examples=ci_examples)
    if profile == "large" and large_examples is not None:
        return settings(max_examples=large_examples)
    return settings()
