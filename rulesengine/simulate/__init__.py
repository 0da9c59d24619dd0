"""Balance reports: many bot games of one edition, or of a variant against its base, in figures.

The front door: run_simulation(settings) → Simulation (figures per edition, the paired comparison);
report_data(simulation) → the JSON report; write_report(simulation, folder) → report.json and
report.html. It plays games only through the public calls of the game and the bots, and derives
every figure from each finished game's public record, events and score sheet.
"""

from .report import report_data, write_report
from .runner import Simulation, run_simulation
from .settings import Settings, SettingsError

__all__ = ["Settings", "SettingsError", "Simulation", "report_data", "run_simulation", "write_report"]
