"""Let the corpus tests import the corpus reader and the shared Dynamo helper (in tests/)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
