"""Round 44's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 37's walk (`../../round37/walk/walk.py`: a home, a job, a dog and a car; a move, a new job and a new car, asked at
once; a PIN; a Dream; Undo; the move's entry deleted), with this round's questions: a count said "so far" and then
"now", asked after; how many days ago a thing told with "yesterday" happened. Then French, a language no module knows,
in a new tab: a move told with its date, asked where and how long ago (nothing is counted in a language code cannot
read)."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk37", Path(__file__).parents[2] / "round37" / "walk" / "walk.py")
walk37 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk37)

ASKED = ["Where do I live now?", "What's my job?", "What's my dog called?",
         "How many days ago did I get the Toyota Yaris?",
         "I've run 3 half marathons so far this year.",
         "Finished another half marathon this morning, that's 4 now!",
         "How many half marathons have I run this year?"]
FRENCH = ["Bonjour ! Je m'appelle Élodie, j'habite à Lyon et j'ai un chat qui s'appelle Minou.",
          "Grande nouvelle : je me suis installée à Nantes le 2 décembre !",
          "Où est-ce que j'habite maintenant ?", "Combien de jours se sont écoulés depuis mon déménagement à Nantes ?"]

if __name__ == "__main__":
    walk37.walk(sys.argv[1], sys.argv[2], asked=ASKED, language="French", other=FRENCH)
