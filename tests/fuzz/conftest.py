"""Hypothesis profiles for the fuzz tests: `ci` (default, bounded, the whole folder in well under a
minute) and `large` (10,000 examples per input kind, run by hand):

    HYPOTHESIS_PROFILE=large .venv/bin/python -m pytest tests/fuzz -p no:cacheprovider --hypothesis-show-statistics

Each fuzz test asks for its CI example count with `budget(n)` (tests/fuzz/budget.py); other profiles
give every test the profile's own count.
"""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, Phase, Verbosity, settings

SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
NO_EXPLAIN = [
    Phase.explicit,
    Phase.reuse,
    Phase.generate,
    Phase.target,
    Phase.shrink,
]  # explaining a failure can take minutes

# deadline: in `large`, an example taking this long is reported as a hang (with its input); ci asserts no
# wall-clock time at all (a busy 2-core machine is slow, not wrong)
# ci is derandomized: the merge gate sees the same examples on every run; `large` explores anew each time
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=SLOW,
    print_blob=True,
    phases=NO_EXPLAIN,
    derandomize=True,
)
settings.register_profile(
    "large",
    max_examples=10_000,
    deadline=timedelta(seconds=20),
    suppress_health_check=SLOW,
    print_blob=True,
    phases=NO_EXPLAIN,
)
settings.register_profile(
    "debug", max_examples=20, deadline=None, suppress_health_check=SLOW, print_blob=True, verbosity=Verbosity.verbose
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
