"""Round 45's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 37's walk (`../../round37/walk/walk.py`: a home, a job, a dog and a car; a move, a new job and a new car, asked at
once; a PIN; a Dream; Undo; the move's entry deleted), with this round's questions: the dog's name, told in the same
sentence as the car later traded in; the job asked as "current"; the car asked about now. Then European Portuguese, a
language no module knows, in a new tab: a home, a dog and a car in one sentence, a move told with its date, asked
where and the dog's name."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk37", Path(__file__).parents[2] / "round37" / "walk" / "walk.py")
walk37 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk37)

ASKED = ["Where do I live now?", "What's my job?", "What is my current job title?", "What's my dog called?",
         "What car do I drive now?", "How many days ago did I get the Toyota Yaris?"]
PORTUGUESE = ["Olá! Chamo-me Inês, moro em Braga, tenho um cão chamado Bolinha e conduzo um Renault Clio.",
              "Grande novidade: mudei-me para o Porto no dia 3 de dezembro!",
              "Onde é que eu moro agora?", "Como se chama o meu cão?"]

if __name__ == "__main__":
    walk37.walk(sys.argv[1], sys.argv[2], asked=ASKED, language="Portuguese", other=PORTUGUESE)
