"""Round 43's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 37's walk (`../../round37/walk/walk.py`: a home, a job, a dog and a car; a move, a new job and a new car, asked at
once; a PIN; a Dream; Undo; the move's entry deleted), with round 42's questions and the dog renamed as "the pup";
then German, a language no module knows, in a new tab: a move told with a weekday alone, asked when and where."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk37", Path(__file__).parents[2] / "round37" / "walk" / "walk.py")
walk37 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk37)

ASKED = ["Where do I live now?", "What's my job?", "What car do I drive?", "What's my dog called?",
         "When did I get the Toyota Yaris?", "Update on the pup: he's officially called Biscuit now.",
         "What's my dog called?"]
GERMAN = ["Hallo! Ich heiße Jonas, ich wohne in Freiburg und habe eine Katze namens Wolke.",
          "Große Neuigkeit: am Samstag bin ich nach Leipzig umgezogen!", "When did I move to Leipzig?",
          "Wo wohne ich jetzt?"]

if __name__ == "__main__":
    walk37.walk(sys.argv[1], sys.argv[2], asked=ASKED, language="German", other=GERMAN)
