"""The scenario file format and the shipped scenarios (dev, and the held-out ones that are never tuned on)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from dreaming_agent.bench import QUESTION_TYPES, SCENARIOS_DIR, load_scenario
from dreaming_agent.bench.scoring import evidence_recall, occurs
from dreaming_agent.errors import ConfigError


# The three Spanish/English scenarios share one published design (size, span, question languages); the others
# only have to be well-formed and answerable from their own turns.
PUBLISHED = ["dev.json", "holdout.json", "third.json"]


@pytest.fixture(scope="module", params=[*PUBLISHED, "fourth.json", "fifth.json", "seventh.json", "eighth.json",
                                                   "ninth.json", "tenth.json", "eleventh.json", "twelfth.json",
                                                   "thirteenth.json", "fourteenth.json", "fifteenth.json",
                                                   "sixteenth.json", "seventeenth.json", "eighteenth.json",
                                                   "nineteenth.json", "twentieth.json", "twentyfirst.json",
                                                   "twentysecond.json", "twentythird.json", "twentyfourth.json",
                                                   "twentyfifth.json", "twentysixth.json", "twentyseventh.json"])
def scenario(request):
    return load_scenario(SCENARIOS_DIR / request.param)


@pytest.fixture(scope="module", params=PUBLISHED)
def published(request):
    return load_scenario(SCENARIOS_DIR / request.param)


def test_scenario_has_the_published_design_size(published):
    scenario = published
    counts = Counter(q.type for q in scenario.questions)
    assert len(scenario.sessions) >= 8
    assert scenario.turn_count >= 45
    assert len(scenario.questions) >= 28
    assert set(counts) == set(QUESTION_TYPES)
    assert min(counts.values()) >= 5


def test_sessions_span_about_three_months(published):
    scenario = published
    span = scenario.sessions[-1].date - scenario.sessions[0].date
    assert 75 <= span.days <= 110
    assert all(s.date.year == 2026 for s in scenario.sessions)


def test_questions_default_to_the_day_after_the_last_session(scenario):
    last = scenario.sessions[-1].date
    assert all(q.date is not None and q.date > last for q in scenario.questions)
    assert scenario.questions[0].date.toordinal() == last.toordinal() + 1


def test_every_answerable_question_has_its_evidence_in_the_conversation(scenario):
    transcript = "\n".join(turn for session in scenario.sessions for turn in session.turns)
    missing = [q.id for q in scenario.questions if q.type != "abstention" and evidence_recall(q, transcript) != 1]
    assert missing == []


def test_update_questions_reject_a_value_that_was_really_said_earlier(scenario):
    transcript = "\n".join(turn for session in scenario.sessions for turn in session.turns)
    updates = [q for q in scenario.questions if q.type == "update"]
    assert updates and all(any(occurs(old, transcript) for old in q.reject_any) for q in updates)


def test_scenario_asks_in_both_languages(published):
    scenario = published
    spanish = [q for q in scenario.questions if q.question.startswith("¿")]
    assert 0.3 <= len(spanish) / len(scenario.questions) <= 0.7


@pytest.mark.parametrize("name", ["fourth.json", "fifth.json", "sixth.json", "seventh.json", "eighth.json", "ninth.json",
                                  "tenth.json", "eleventh.json", "twelfth.json", "thirteenth.json",
                                  "fourteenth.json", "fifteenth.json", "sixteenth.json",
                                  "seventeenth.json", "eighteenth.json", "nineteenth.json",
                                  "twentieth.json", "twentyfirst.json", "twentysecond.json", "twentythird.json",
                                  "twentyfourth.json", "twentyfifth.json", "twentysixth.json",
                                  "twentyseventh.json"])
def test_a_held_out_scenario_asks_every_type_with_enough_updates_and_dates(name):
    scenario = load_scenario(SCENARIOS_DIR / name)
    counts = Counter(q.type for q in scenario.questions)
    assert len(scenario.questions) >= 32 and set(counts) == set(QUESTION_TYPES)
    assert counts["update"] >= 6 and counts["temporal"] >= 6
    assert all(s.date.year == 2026 for s in scenario.sessions)


def _write(tmp_path, data) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


MINIMAL = {
    "name": "t",
    "sessions": [{"id": "s1", "date": "2026-03-02", "turns": ["I live in Lisbon."]}],
    "questions": [{"id": "q1", "type": "single", "question": "Where do I live?", "expect_any": ["Lisbon", "Lisboa"]}],
}


def test_minimal_file_loads_with_optional_keys_defaulted(tmp_path):
    scenario = load_scenario(_write(tmp_path, MINIMAL))
    q = scenario.questions[0]
    assert (q.expect_all, q.reject_any, q.evidence_any) == ([], [], [])
    assert q.evidence_phrases == ["Lisbon", "Lisboa"]
    assert str(q.date) == "2026-03-03"


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["questions"][0].update(type="trivia"), "questions.0.type"),
    (lambda d: d["questions"][0].update(expect_al=["x"]), "expect_al"),
    (lambda d: d["questions"][0].pop("expect_any"), "needs expect_any or expect_all"),
    (lambda d: d["sessions"][0].update(date="2 March"), "sessions.0.date"),
    (lambda d: d["sessions"].append({"id": "s1", "date": "2026-03-09", "turns": ["x"]}), "duplicate session id"),
    (lambda d: d["questions"][0].update(date="2026-01-01"), "before the last session"),
    (lambda d: d.pop("questions"), "questions"),
])
def test_malformed_file_names_the_file_and_the_problem(tmp_path, mutate, message):
    data = json.loads(json.dumps(MINIMAL))
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(ConfigError, match="malformed") as caught:
        load_scenario(path)
    assert path in str(caught.value) and message in str(caught.value)


def test_invalid_json_and_missing_file_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match=r"not valid JSON.*line 1"):
        load_scenario(_write(tmp_path, '{"name": '))
    with pytest.raises(ConfigError, match="Cannot read scenario file"):
        load_scenario(tmp_path / "absent.json")
