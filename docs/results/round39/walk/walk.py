"""Round 39's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 37's walk (`../../round37/walk/walk.py`: a home, a job, a dog and a car; a move, a new job and a new car, asked at
once; a PIN; a Dream; Undo; the move's entry deleted), with round 38's questions, and then Swedish, a language no
module knows, in a new tab: a home changed, asked at once, and a cat's name."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk37", Path(__file__).parents[2] / "round37" / "walk" / "walk.py")
walk37 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk37)

ASKED = ["Where do I live now?", "What's my job?", "What car do I drive?", "What's my dog called?"]
SWEDISH = ["Hej! Jag heter Linnea, jag bor i Uppsala och har en katt som heter Sixten.",
           "Stor nyhet: förra veckan flyttade jag till Göteborg!", "Var bor jag nu?", "Vad heter min katt?"]

if __name__ == "__main__":
    walk37.walk(sys.argv[1], sys.argv[2], asked=ASKED, language="Swedish", other=SWEDISH)
