"""Let the corpus tests and helpers import each other by module name."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
