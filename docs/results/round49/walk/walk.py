"""Round 49's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 46's walk (`../../round46/walk/walk.py`: round 37's English walk — a home, a job, a dog and a car; a move, a new
job and a new car, asked at once; a PIN; a Dream; Undo; the move's entry deleted — then, in a new tab, a language no
module knows) with German as that language: a home, a cat and a car in one sentence, a move told with its date, asked
where and the cat's name."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk46", Path(__file__).parents[2] / "round46" / "walk" / "walk.py")
walk46 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk46)

GERMAN = ["Hallo! Ich heiße Jonas, wohne in Kassel, habe eine Katze namens Flocke und fahre einen Opel Corsa.",
          "Große Neuigkeit: Ich bin am 2. Dezember nach Leipzig gezogen!",
          "Wo wohne ich jetzt?", "Wie heißt meine Katze?"]

if __name__ == "__main__":
    walk46.walk37.walk(sys.argv[1], sys.argv[2], asked=walk46.ASKED, language="German", other=GERMAN)
