"""Where the fuzz tests find the project's editions."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ROOT / "editions"
