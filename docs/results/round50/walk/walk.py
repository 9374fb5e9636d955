"""Round 50's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 46's walk (round 37's English walk, then a language no module knows in a new tab) with round 49's German turns
(a home, a cat and a car in one sentence; a move told with its date, "am 2. Dezember"; asked where and the cat's name)
and then Polish ones of this round: a home and a dog, a move last Saturday, asked where and the dog's name."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk46", Path(__file__).parents[2] / "round46" / "walk" / "walk.py")
walk46 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk46)

GERMAN = ["Hallo! Ich heiße Jonas, wohne in Kassel, habe eine Katze namens Flocke und fahre einen Opel Corsa.",
          "Große Neuigkeit: Ich bin am 2. Dezember nach Leipzig gezogen!",
          "Wo wohne ich jetzt?", "Wie heißt meine Katze?"]
POLISH = ["Mieszkam w Poznaniu i mam psa, który wabi się Burek.",
          "Wielka nowina: w zeszłą sobotę przeprowadziłam się do Gdańska!",
          "Gdzie teraz mieszkam?", "Jak wabi się mój pies?"]

if __name__ == "__main__":
    walk46.walk37.walk(sys.argv[1], sys.argv[2], asked=walk46.ASKED, language="German and Polish",
                       other=GERMAN + POLISH)
