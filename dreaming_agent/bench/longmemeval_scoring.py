"""A deterministic proxy for LongMemEval's judge model (GPT-4o in the paper), which does not run here.

A reply is right when it holds more than half of the answer's words (every number among them), the words of the
question left out; an abstention item is right when the reply says the thing was never said; a preference item's
rubric is met when the reply uses something the person said that the rubric names. Its agreement with the
hand-labelled examples beside it (`longmemeval_labels.json`) is what `agreement()` measures and every report states.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dreaming_agent.bench.longmemeval import LongMemQuestion
from dreaming_agent.bench.scoring import says_unknown
from dreaming_agent.text import normalize

LABELS = Path(__file__).resolve().parent / "longmemeval_labels.json"
NAME = "proxy: answer-word recall > 1/2 with every number (no judge model)"

# The English this scorer needs, in one place until the language modules hold it. Replies to LongMemEval's
# English questions are English, so the scorer reads them as such.
ENGLISH = {
    "numbers": {
        "zero": 0, "one": 1, "once": 1, "two": 2, "twice": 2, "three": 3, "thrice": 3, "four": 4, "five": 5,
        "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "dozen": 12,
        "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
        "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90, "hundred": 100,
    },
    # Words that carry no answer: articles, pronouns, auxiliaries, prepositions.
    "function_words": frozenset("""a an the and or but of to in on at for with by from into as about than then so
        is are was were be been being am do does did done have has had will would can could should may might must
        i me my mine myself you your yours we our they them their he him his she her it its this that these those
        there here what which who whom whose when where why how s t not just also very""".split()),
    # Beyond `says_unknown`'s phrases: how LongMemEval's own abstention answers and replies like them put it.
    "not_said": ("no mention of", "not mentioned", "not enough information", "information provided is not enough",
                 "information is not enough", "there is no record", "there's no record"),
    # How a preference rubric is worded, whatever the preference: never evidence that the reply used it.
    "rubric_words": frozenset("""user users prefer prefers preferred preference preferences would suggestion
        suggestions suggest response responses recommendation recommendations recommend advice tip tips idea ideas
        such especially specifically particularly like likely similar interest interests interested previous
        previously existing current experience mentioned related build upon based take account consider considering
        include including highlight highlighting focus focusing provide providing utilize utilizing enjoy enjoyed
        specific own new way ways between difference differences different high quality help helpful enhance
        improve thing things area up""".split()),
}
# What follows in a rubric is what the person would NOT like: words from it are no sign of a good reply.
_NOT_PREFERRED = re.compile(r"\b(?:they|the user) (?:may|might|would|will) not\b")
_ALSO_ACCEPTABLE = re.compile(r"\s*is also acceptable\.?$", re.IGNORECASE)
_PARENTHESIS = re.compile(r"\(([^)]*)\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"\d+(?:[.:]\d+)*|[a-z]+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


def tokens(text: str) -> list[str]:
    """Folded words and numbers: number words as digits ("twenty-five" → 25), "%" and "$" as words, a plural's "s"
    dropped, so that "Four hours" and "4 hour" meet."""
    folded = normalize(text.replace("’", "'")).replace("%", " percent ").replace("$", " dollar ")
    out: list[str] = []
    for token in _TOKEN.findall(_THOUSANDS.sub("", folded)):
        value = ENGLISH["numbers"].get(token)
        if value is not None:
            if out and out[-1].isdigit() and int(out[-1]) % 10 == 0 and 10 < int(out[-1]) < 100 and value < 10:
                out[-1] = str(int(out[-1]) + value)  # "twenty five"
            else:
                out.append(str(value))
        else:
            out.append(token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token)
    return out


def _as_tokens(words: Iterable[str]) -> frozenset[str]:
    """Word lists as `tokens` gives them back ("this" loses its "s" like any plural), so that they meet."""
    return frozenset(tokens(" ".join(words)))


_FUNCTION = _as_tokens(ENGLISH["function_words"])
_RUBRIC = _as_tokens(ENGLISH["rubric_words"])


def _said(reply: str) -> set[str]:
    """The reply's tokens, a ratio or time ("1:4", "10:30") also as its numbers."""
    said = set(tokens(reply))
    return said | {part for t in said if ":" in t for part in t.split(":")}


def _present(token: str, said: set[str]) -> bool:
    return token in said or (":" in token and all(part in said for part in token.split(":")))


def alternatives(answer: str) -> list[str]:
    """The answers that count: "12 days. 13 days (including the last day) is also acceptable." gives both counts;
    "Massachusetts Institute of Technology (MIT)" gives the name with and without its bracket, and the bracket."""
    main, extra = [], []
    for sentence in _SENTENCE_END.split(answer.strip()):
        if _ALSO_ACCEPTABLE.search(sentence):
            extra.append(_PARENTHESIS.sub(" ", _ALSO_ACCEPTABLE.sub("", sentence)))
        else:
            main.append(sentence)
    whole = " ".join(main)
    bracketed = [b for b in _PARENTHESIS.findall(whole) if b.strip()]
    found = [whole, _PARENTHESIS.sub(" ", whole), *bracketed, *extra] if bracketed else [whole, *extra]
    return [a for a in dict.fromkeys(a.strip() for a in found) if a]


def answer_words(answer: str, question: str = "") -> list[str]:
    """What a reply must say: the answer's content words and numbers, less those the question already says (unless
    that leaves nothing: "the pottery class" answers "the pottery class or the wine tasting?")."""
    content = [t for t in dict.fromkeys(tokens(answer)) if t not in _FUNCTION]
    asked = set(tokens(question))
    new = [t for t in content if t not in asked]
    return new or content or list(dict.fromkeys(tokens(answer)))


def answer_recall(answer: str, reply: str, question: str = "") -> tuple[float, bool]:
    """Over the answer's alternatives, the best share of its words the reply says, and whether it says every number."""
    said = _said(reply)
    best = (0.0, False)
    for alternative in alternatives(answer):
        needed = answer_words(alternative, question)
        if not needed:
            continue
        share = sum(_present(t, said) for t in needed) / len(needed)
        numbers = all(_present(t, said) for t in needed if t[0].isdigit())
        best = max(best, (share, numbers), key=lambda s: (s[1] and s[0] > 0.5, s[0]))
    return best


def says_not_known(reply: str) -> bool:
    """The reply says the thing was never said or is not known."""
    folded = normalize(reply.replace("’", "'"))
    return says_unknown(reply) or any(phrase in folded for phrase in ENGLISH["not_said"])


def is_right(answer: str, reply: str, question: str = "", *, abstention: bool = False) -> bool:
    if abstention:
        return says_not_known(reply)
    share, numbers = answer_recall(answer, reply, question)
    return numbers and share > 0.5


def preference_anchors(rubric: str, told: Iterable[str], question: str = "") -> set[str]:
    """What the person said that the rubric's preferred part names (their camera, the show they loved), less the
    question's words and the rubric's own wording."""
    preferred = _NOT_PREFERRED.split(normalize(rubric), maxsplit=1)[0]
    said = {t for text in told for t in tokens(text)}
    skip = _FUNCTION | _RUBRIC | set(tokens(question))
    return {t for t in tokens(preferred) if t in said and t not in skip and (len(t) > 1 or t.isdigit())}


def meets_preference(rubric: str, told: Iterable[str], reply: str, question: str = "") -> bool:
    """The reply uses at least one thing the person said that the rubric names; without any, a plain answer-word
    recall of the rubric's preferred part."""
    anchors = preference_anchors(rubric, told, question)
    if anchors:
        return bool(anchors & _said(reply))
    return is_right(_NOT_PREFERRED.split(normalize(rubric), maxsplit=1)[0], reply, question)


@dataclass(frozen=True)
class LongMemScore:
    correct: bool
    recall: float  # the share of the answer's words the reply says (preference and abstention items: 1/0)
    evidence_recall: float | None  # share of the `has_answer` turns that reached the prompt; None without any


def score_longmemeval(question: LongMemQuestion, reply: str, shown: Iterable[str]) -> LongMemScore:
    """Score one reply; `shown` are the external ids of the turns whose lines reached the Responder's prompt."""
    if question.preference:
        told = [t.content for s in question.sessions for t in s.turns if t.role == "user"]
        correct = meets_preference(question.answer, told, reply, question.question)
        recall = float(correct)
    elif question.abstention:
        correct = says_not_known(reply)
        recall = float(correct)
    else:
        recall, numbers = answer_recall(question.answer, reply, question.question)
        correct = numbers and recall > 0.5
    evidence, shown = question.evidence, set(shown)
    share = sum(e in shown for e in evidence) / len(evidence) if evidence and not question.abstention else None
    return LongMemScore(correct, round(recall, 4), share)


def agreement(path: Path = LABELS) -> dict[str, float | int]:
    """How often the proxy agrees with the hand labels: answers (with abstentions) and preference replies apart."""
    labels = json.loads(path.read_text(encoding="utf-8"))
    answers = [is_right(x["answer"], x["reply"], x["question"], abstention=x.get("abstention", False)) == x["right"]
               for x in labels["answers"]]
    preferences = [meets_preference(x["rubric"], x["told"], x["reply"], x["question"]) == x["right"]
                   for x in labels["preferences"]]
    return {"answers": len(answers), "answers_agree": round(sum(answers) / len(answers), 4),
            "preferences": len(preferences), "preferences_agree": round(sum(preferences) / len(preferences), 4)}
