"""Every shipped edition and variant loads: a broken file is one failing test that names it.

The other tests take only the files that load (shipped.shipped_that_load), so a half-written house
rule saved in editions/variants/ never stops collection with a traceback.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from shipped import EDITIONS, ROOT, SHIPPED

from rulesengine import BoomError, load_edition, render


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(EDITIONS).as_posix())
def test_every_shipped_file_loads(path):
    try:
        load_edition(path)
    except BoomError as exc:
        pytest.fail(
            f"{path.relative_to(ROOT)} does not load:\n" + "\n".join(render(d) for d in exc.diagnostics), pytrace=False
        )


def test_a_half_written_variant_is_one_failing_test_naming_it_not_a_collection_error():
    broken = EDITIONS / "variants" / "zz-half-written-by-test.yaml"
    broken.write_text("extends: ../australia.yaml\ncards: [\n", encoding="utf-8")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", "tests"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
    finally:
        broken.unlink()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    named = [line for line in result.stdout.splitlines() if "zz-half-written-by-test" in line]
    assert "tests/test_shipped.py::test_every_shipped_file_loads[variants/zz-half-written-by-test.yaml]" in named
    assert not [
        line for line in named if "test_properties" in line or "test_fuzz" in line
    ]  # those take the files that load
