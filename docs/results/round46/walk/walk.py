"""Round 46's new-user walk: `python walk.py URL OUT [portuguese|chinese]` against `make run` (the default model), in
Chromium.

Round 37's walk (`../../round37/walk/walk.py`: a home, a job, a dog and a car; a move, a new job and a new car, asked at
once; a PIN; a Dream; Undo; the move's entry deleted) with round 45's questions, then, in a new tab, a language no
module knows: European Portuguese as in round 45 (a home, a dog and a car in one sentence, a move told with its date,
asked where and the dog's name), or Simplified Chinese, written without spaces, the same four steps."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk37", Path(__file__).parents[2] / "round37" / "walk" / "walk.py")
walk37 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk37)

ASKED = ["Where do I live now?", "What's my job?", "What is my current job title?", "What's my dog called?",
         "What car do I drive now?", "How many days ago did I get the Toyota Yaris?"]
OTHER = {
    "portuguese": ("Portuguese", ["Olá! Chamo-me Inês, moro em Braga, tenho um cão chamado Bolinha e conduzo um Renault Clio.",
                                  "Grande novidade: mudei-me para o Porto no dia 3 de dezembro!",
                                  "Onde é que eu moro agora?", "Como se chama o meu cão?"]),
    "chinese": ("Chinese", ["你好！我叫林晓，住在青岛，养了一只叫团子的猫，开一辆大众高尔夫。",
                            "大新闻：我十二月一日搬到大连了！",
                            "我现在住在哪里？", "我的猫叫什么名字？"]),
}

if __name__ == "__main__":
    language, said = OTHER[sys.argv[3] if len(sys.argv) > 3 else "portuguese"]
    walk37.walk(sys.argv[1], sys.argv[2], asked=ASKED, language=language, other=said)
