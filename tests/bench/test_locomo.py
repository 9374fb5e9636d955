"""The LoCoMo loader, on a small slice of the real file kept outside the repository."""
from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

import pytest

from dreaming_agent.bench.locomo import load_locomo, parse_session_time
from dreaming_agent.errors import ConfigError

LOCOMO = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "locomo" / "locomo10.json"

needs_locomo = pytest.mark.skipif(
    not LOCOMO.is_file(), reason=f"LoCoMo data not found at {LOCOMO} (it lives beside the repository, in shared/)"
)


@pytest.fixture(scope="module")
def first_two():
    return load_locomo(LOCOMO, conversations=2, max_questions=10)


@needs_locomo
def test_slice_respects_the_limits(first_two):
    assert [c.sample_id for c in first_two] == ["conv-26", "conv-30"]
    assert all(len(c.questions) == 10 for c in first_two)


@needs_locomo
def test_turns_are_ordered_and_dated_by_session(first_two):
    conversation = first_two[0]
    first = conversation.turns[0]
    assert (first.speaker, first.dia_id, first.session) == ("Caroline", "D1:1", 1)
    assert first.session_time == dt.datetime(2023, 5, 8, 13, 56)
    sessions = [t.session for t in conversation.turns]
    assert sessions == sorted(sessions)
    assert [t.session_time for t in conversation.turns] == sorted(t.session_time for t in conversation.turns)
    assert {t.speaker for t in conversation.turns} == {conversation.speaker_a, conversation.speaker_b}


@needs_locomo
def test_evidence_points_at_real_turns(first_two):
    for conversation in first_two:
        ids = {t.dia_id for t in conversation.turns}
        assert all(e in ids for q in conversation.questions for e in q.evidence)


@needs_locomo
def test_question_limit_spreads_over_categories(first_two):
    categories = Counter(q.category for q in first_two[0].questions)
    assert set(categories) == {1, 2, 3, 4, 5}
    assert max(categories.values()) - min(categories.values()) <= 1


@needs_locomo
def test_adversarial_questions_have_no_answer_and_others_are_strings():
    (conversation,) = load_locomo(LOCOMO, conversations=1)
    adversarial = [q for q in conversation.questions if q.adversarial]
    assert adversarial and all(q.answer is None and q.category_name == "adversarial" for q in adversarial)
    # The file stores some answers as integers (e.g. a year); they are read as text.
    assert all(isinstance(q.answer, str) and q.answer for q in conversation.questions if not q.adversarial)


def test_malformed_evidence_and_image_captions(tmp_path):
    raw = [{
        "sample_id": "x", "qa": [
            {"question": "When?", "answer": 2022, "evidence": ["D1:1; D1:2", "D:1:2"], "category": 2},
            {"question": "Who?", "adversarial_answer": "Bo", "evidence": ["D"], "category": 5},
        ],
        "conversation": {
            "speaker_a": "Al", "speaker_b": "Bo",
            "session_1_date_time": "9:05 am on 3 January, 2024",
            "session_1": [
                {"speaker": "Al", "dia_id": "D1:1", "text": "Look!", "blip_caption": "a photo of a kite"},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice."},
            ],
            "session_2_date_time": "10:00 pm on 4 January, 2024",
        },
    }]
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    (conversation,) = load_locomo(path)
    when, who = conversation.questions
    assert when.answer == "2022" and when.evidence == ("D1:1", "D1:2", "D1:2")
    assert who.answer is None and who.evidence == () and who.adversarial_answer == "Bo"
    assert conversation.turns[0].as_message() == "Look! [shares a photo of a kite]"
    assert conversation.turns[1].session_date == dt.date(2024, 1, 3)


def test_parse_session_time():
    assert parse_session_time("12:09 am on 13 November, 2023") == dt.datetime(2023, 11, 13, 0, 9)


def test_bad_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="Cannot read LoCoMo file"):
        load_locomo(tmp_path / "nope.json")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"sample_id": "x"}]), encoding="utf-8")
    with pytest.raises(ConfigError, match="unexpected shape"):
        load_locomo(path)


@needs_locomo
def test_a_conversation_is_chosen_by_its_sample_id():
    (conversation,) = load_locomo(LOCOMO, samples=["conv-30"], max_questions=5)
    assert conversation.sample_id == "conv-30" and len(conversation.questions) == 5
    with pytest.raises(ConfigError, match="no conversation conv-999.*conv-26"):
        load_locomo(LOCOMO, samples=["conv-999"])
