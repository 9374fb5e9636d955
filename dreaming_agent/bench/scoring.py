"""Pure scorers for bench answers: phrase matching for scenarios, token F1 for LoCoMo."""
from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from dreaming_agent.bench.locomo import LocomoQuestion
from dreaming_agent.bench.scenario import Question
from dreaming_agent import lang
from dreaming_agent.text import normalize

# An answer "says it does not know" when one of these phrases occurs (after normalisation, so accents and case do not
# matter).
_ABSTENTION = re.compile(r"(?<!\w)(?:" + "|".join(lang.phrases("ABSTENTIONS")) + r")")


def _fold(text: str) -> str:
    # `normalize` reads "’" as "'"; an answer may also write the apostrophe as "‘" ("don‘t").
    return normalize(text.replace("\u2018", "'"))


# A letter of a word: any but those of scripts written without spaces between words (Chinese, Japanese), where a
# phrase is whole wherever it stands ("成都" in "你住在成都。", "3" in "3月14日").
_LETTER = "[^\\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"


@lru_cache(maxsize=4096)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(f"(?<!{_LETTER})" + re.escape(_fold(phrase)) + f"(?!{_LETTER})")


def occurs(phrase: str, text: str) -> bool:
    """Whether phrase occurs in text as whole words, ignoring accents, case and spacing ("3" is not in "13"; in a
    script without spaces, "成都" is in "住在成都。")."""
    if not _fold(phrase):
        return False
    return _phrase_pattern(phrase).search(_fold(text)) is not None


def says_unknown(answer: str) -> bool:
    """Whether the answer declares, in English or Spanish, that it does not know."""
    return _ABSTENTION.search(_fold(answer)) is not None


def reject_hits(answer: str, reject_any: Iterable[str]) -> int:
    """How many of the rejected phrases (stale or invented values) the answer contains."""
    return sum(occurs(phrase, answer) for phrase in reject_any)


@dataclass(frozen=True)
class Score:
    correct: bool
    abstained: bool
    reject_hits: int
    evidence_recall: int | None  # 1/0; None for abstention questions, which have no evidence


def evidence_recall(question: Question, prompt: str) -> int | None:
    """1 iff one of the question's evidence phrases reached the Responder's full prompt; None for abstention."""
    if question.type == "abstention":
        return None
    return int(any(occurs(phrase, prompt) for phrase in question.evidence_phrases))


def is_correct(question: Question, answer: str) -> bool:
    if reject_hits(answer, question.reject_any):
        return False
    if question.type == "abstention":
        return says_unknown(answer)
    any_ok = not question.expect_any or any(occurs(p, answer) for p in question.expect_any)
    return any_ok and all(occurs(p, answer) for p in question.expect_all)


def score_answer(question: Question, answer: str, prompt: str) -> Score:
    """Score one scenario answer; prompt is the full text the Responder was given."""
    return Score(
        correct=is_correct(question, answer),
        abstained=says_unknown(answer),
        reject_hits=reject_hits(answer, question.reject_any),
        evidence_recall=evidence_recall(question, prompt),
    )


# --- LoCoMo: token F1 in the style of the official evaluation (without its Porter stemming) ---

_PUNCTUATION = re.compile("[" + re.escape(string.punctuation + "\u2018\u2019\u201c\u201d\u2013\u2014") + "]")
_ARTICLES = re.compile(r"\b(?:a|an|the|and)\b")


def answer_tokens(text: str) -> list[str]:
    """Normalise, drop commas and punctuation and the words a/an/the/and (as the official code does), split."""
    folded = normalize(text).replace(",", "")
    return _ARTICLES.sub(" ", _PUNCTUATION.sub("", folded)).split()


def token_f1(prediction: str, reference: str) -> float:
    """Token-overlap F1 between a prediction and one reference answer."""
    predicted, expected = answer_tokens(prediction), answer_tokens(reference)
    common = sum((Counter(predicted) & Counter(expected)).values())
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, reference: str) -> float:
    """Multi-hop: mean over the comma-separated reference parts of the best F1 against any prediction part."""
    predictions = [p for p in prediction.split(",") if p.strip()] or [prediction]
    references = [r for r in reference.split(",") if r.strip()] or [reference]
    return sum(max(token_f1(p, r) for p in predictions) for r in references) / len(references)


def locomo_f1(prediction: str, answer: str, category: int) -> float:
    """The per-category LoCoMo answer score; category 5 (adversarial) is 1.0 iff the prediction abstains."""
    if category == 5:
        return float(says_unknown(prediction))
    if category == 1:
        return multi_answer_f1(prediction, answer)
    if category == 3:
        # Open-domain references list alternatives after ';' and only the first one is scored officially.
        answer = answer.split(";")[0].strip()
    return token_f1(prediction, answer)


@dataclass(frozen=True)
class LocomoScore:
    f1: float
    abstained: bool
    evidence_recall: float | None  # share of the evidence turns that reached the prompt; None without evidence


def score_locomo(question: LocomoQuestion, answer: str, prompt_dia_ids: Iterable[str]) -> LocomoScore:
    """Score one LoCoMo answer; prompt_dia_ids are the dialogue turns that reached the Responder's prompt."""
    shown = set(prompt_dia_ids)
    recall = None
    if question.evidence and not question.adversarial:
        recall = sum(e in shown for e in question.evidence) / len(question.evidence)
    return LocomoScore(
        f1=locomo_f1(answer, question.answer or "", question.category),
        abstained=says_unknown(answer),
        evidence_recall=recall,
    )
