"""Round 51's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

Round 37's English walk (as rounds 46–50 ran it), then in a new tab a diet told and changed (this round's changes read
a diet by its words), and Swedish turns: a home and a cat, a move last week, asked where and the cat's name."""
import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("walk49", Path(__file__).parents[2] / "round49" / "walk" / "walk.py")
walk49 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walk49)

DIET = ["I've been vegetarian for about two years.", "Small change: I eat fish again, so I'm pescatarian now.",
        "What's my diet these days?"]
SWEDISH = ["Jag bor i Uppsala och har en katt som heter Sigge.",
           "Stora nyheter: förra veckan flyttade jag till Göteborg!",
           "Var bor jag nu?", "Vad heter min katt?"]

if __name__ == "__main__":
    walk49.walk46.walk37.walk(sys.argv[1], sys.argv[2], asked=walk49.walk46.ASKED, language="English diet and Swedish",
                              other=DIET + SWEDISH)
