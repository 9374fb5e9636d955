"""Round 50's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 49's walk (round 37's English walk, then German in a new tab: a home, a cat and a car in one sentence; a move
told with its date, "am 2. Dezember"; asked where and the cat's name), then Polish turns of this round: a home and a
dog, a move last Saturday, asked where and the dog's name."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk49", Path(__file__).parents[2] / "round49" / "walk" / "walk.py")
walk49 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk49)

POLISH = ["Mieszkam w Poznaniu i mam psa, który wabi się Burek.",
          "Wielka nowina: w zeszłą sobotę przeprowadziłam się do Gdańska!",
          "Gdzie teraz mieszkam?", "Jak wabi się mój pies?"]

if __name__ == "__main__":
    walk49.walk46.walk37.walk(sys.argv[1], sys.argv[2], asked=walk49.walk46.ASKED, language="German and Polish",
                              other=walk49.GERMAN + POLISH)
