"""LongMemEval in the bench: the loader, per-type selection, the proxy scorer and an end-to-end run, on a fixture
written here (the data set stays in ../shared)."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from dreaming_agent.__main__ import main
from dreaming_agent.bench.longmemeval import first_per_type, load_longmemeval, parse_date
from dreaming_agent.bench.longmemeval_scoring import (agreement, alternatives, answer_words, is_right,
                                                      meets_preference, score_longmemeval, tokens)
from dreaming_agent.bench.report import summarize
from dreaming_agent.bench.runner import AnswerRecord
from dreaming_agent.errors import ConfigError

ASSISTANT = {
    "question_id": "lme-assistant", "question_type": "single-session-assistant",
    "question": "What was the name of the bakery you recommended in Porto?", "answer": "Padaria Ribeiro",
    "question_date": "2023/05/30 (Tue) 10:00",
    "haystack_session_ids": ["porto"], "haystack_dates": ["2023/05/20 (Sat) 18:12"],
    "haystack_sessions": [[
        {"role": "user", "content": "I'm visiting Porto next week. Any bakery I should not miss?", "has_answer": False},
        {"role": "assistant", "content": "Try Padaria Ribeiro for its custard tarts.", "has_answer": True},
    ]],
    "answer_session_ids": ["porto"],
}
# Its sessions are listed newest first in the file, as 17 of the real data set's questions are.
ABSTENTION = {
    "question_id": "lme-user_abs", "question_type": "single-session-user",
    "question": "What is the name of my rabbit?", "answer": "The information provided is not enough. You mentioned "
                                                            "your cat but not a rabbit.",
    "question_date": "2023/06/10 (Sat) 09:30",
    "haystack_session_ids": ["lyon", "miso"], "haystack_dates": ["2023/06/02 (Fri) 20:00", "2023/03/01 (Wed) 08:15"],
    "haystack_sessions": [
        [{"role": "user", "content": "I moved to Lyon last month.", "has_answer": False},
         {"role": "assistant", "content": "How are you settling in?", "has_answer": False}],
        [{"role": "user", "content": "My cat Miso turned three today.", "has_answer": True},
         {"role": "assistant", "content": "Happy birthday to Miso!", "has_answer": False}],
    ],
    "answer_session_ids": ["miso"],
}
FIXTURE = [ASSISTANT, ABSTENTION]


@pytest.fixture
def fixture_file(tmp_path):
    path = tmp_path / "longmemeval.json"
    path.write_text(json.dumps(FIXTURE), encoding="utf-8")
    return path


def test_sessions_are_read_in_date_order_with_both_roles_and_their_dates(fixture_file):
    assistant, abstention = load_longmemeval(fixture_file)
    assert [s.id for s in abstention.sessions] == ["miso", "lyon"]
    assert [s.date for s in abstention.sessions] == [dt.datetime(2023, 3, 1, 8, 15), dt.datetime(2023, 6, 2, 20, 0)]
    assert [t.role for t in abstention.sessions[0].turns] == ["user", "assistant"]
    assert abstention.date == dt.datetime(2023, 6, 10, 9, 30)
    assert abstention.abstention and not assistant.abstention
    assert assistant.evidence == ("porto:1",) and abstention.evidence == ("miso:0",)
    assert assistant.turn_count == 2 and abstention.turn_count == 4


def test_a_number_answer_is_read_as_text(tmp_path):
    path = tmp_path / "numbers.json"
    path.write_text(json.dumps([{**ASSISTANT, "answer": 38}]), encoding="utf-8")
    assert load_longmemeval(path)[0].answer == "38"


def test_per_type_takes_the_first_of_each_type_and_of_its_abstention_items_in_file_order(fixture_file):
    assistant, abstention = load_longmemeval(fixture_file)
    plain_user = abstention.model_copy(update={"id": "u-plain"})  # same type as the abstention item, not one
    questions = [plain_user]
    for i in range(3):
        questions += [assistant.model_copy(update={"id": f"a{i}"}), abstention.model_copy(update={"id": f"u{i}_abs"})]
    assert [q.id for q in first_per_type(questions, 2)] == ["u-plain", "a0", "u0_abs", "a1", "u1_abs"]
    assert [q.id for q in first_per_type(questions, 1)] == ["u-plain", "a0", "u0_abs"]


def test_a_bad_file_says_what_is_wrong(tmp_path):
    with pytest.raises(ConfigError, match="Cannot read LongMemEval file"):
        load_longmemeval(tmp_path / "missing.json")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{**ASSISTANT, "haystack_dates": []}]), encoding="utf-8")
    with pytest.raises(ConfigError, match="unexpected shape"):
        load_longmemeval(path)
    assert parse_date("2023/04/10 (Mon) 23:07") == dt.datetime(2023, 4, 10, 23, 7)


# --- the proxy scorer ---

def test_the_proxy_agrees_with_at_least_nine_in_ten_hand_labels():
    figures = agreement()
    assert figures["answers"] >= 40 and figures["preferences"] >= 8
    assert figures["answers_agree"] >= 0.9 and figures["preferences_agree"] >= 0.9


@pytest.mark.parametrize("left, right", [
    ("four hours", "4 hour"), ("twenty-five", "25"), ("1,200 steps", "1200 step"), ("15%", "15 percent"),
    ("$850", "850 dollars"), ("twice a week", "2 a week"), ("6:45am", "6:45 am"),
])
def test_number_words_and_digits_meet(left, right):
    assert set(tokens(left)) == set(tokens(right))


def test_an_also_acceptable_count_and_a_bracketed_name_are_answers_too():
    assert alternatives("12 days. 13 days (including the last day) is also acceptable.") == ["12 days.", "13 days"]
    assert "MIT" in alternatives("Massachusetts Institute of Technology (MIT)")
    assert answer_words("the pottery class", "The pottery class or the wine tasting?") == ["pottery", "class"]
    assert answer_words("The suggested ratio is 1:4.", "What ratio did you suggest?") == ["suggested", "1:4"]


@pytest.mark.parametrize("reply, right", [
    ("You have been to 3 weddings.", True), ("Three.", True), ("You went to 13 weddings.", False),
    ("I don't know.", False), ("", False),
])
def test_every_number_of_the_answer_must_be_said(reply, right):
    assert is_right("3 weddings", reply, "How many weddings did I attend this year?") is right


def test_an_abstention_item_is_right_only_when_the_reply_says_it_was_never_said():
    answer = "The information provided is not enough. You mentioned a cat but not a rabbit."
    assert is_right(answer, "There's no mention of a rabbit.", abstention=True)
    assert not is_right(answer, "Your rabbit is called Miso.", abstention=True)


def test_a_preference_reply_must_use_what_the_person_said_that_the_rubric_names():
    rubric = "The user would prefer hikes near Lyon with a lake. They might not prefer city tours."
    told = ["I love swimming in a lake after a hike."]
    assert meets_preference(rubric, told, "Try the hike around Lac d'Annecy, and swim in the lake.", "Weekend ideas?")
    assert not meets_preference(rubric, told, "A city tour of the old town.", "Weekend ideas?")


def test_evidence_recall_is_the_share_of_has_answer_turns_shown(fixture_file):
    assistant, abstention = load_longmemeval(fixture_file)
    assert score_longmemeval(assistant, "Padaria Ribeiro.", {"porto:1"}).evidence_recall == 1.0
    assert score_longmemeval(assistant, "Padaria Ribeiro.", {"porto:0"}).evidence_recall == 0.0
    scored = score_longmemeval(abstention, "I don't know.", {"miso:0"})
    assert scored.correct and scored.evidence_recall is None  # nothing to find: what it asks was never said


def _record(condition: str, question_id: str, type_: str, correct: bool, apart: bool = False) -> AnswerRecord:
    return AnswerRecord(0, condition, question_id, type_, "", "", correct, None, None, 0, 1.0, 1, 10,
                        {"scored_apart": apart, "abstention": False})


def test_preference_questions_are_reported_apart_from_the_overall_figure():
    records = [_record(c, "q1", "single-session-user", c == "E") for c in "BE"]
    records += [_record(c, "p1", "single-session-preference", True, apart=True) for c in "BE"]
    report = summarize(records, meta={})
    assert report["conditions"]["B"]["accuracy"] == 0.0 and report["conditions"]["E"]["accuracy"] == 1.0
    assert report["conditions"]["B"]["by_type"]["single-session-preference"] == 1.0
    assert report["paired"]["E"]["all"]["questions"] == 1
    assert report["paired"]["E"]["single-session-preference"]["questions"] == 1


# --- end to end ---

@pytest.mark.parametrize("embedder", ["hash", "embedded"])
def test_the_bench_runs_longmemeval_end_to_end(fixture_file, tmp_path, capsys, embedder):
    out = tmp_path / "out"
    code = main(["bench", "--longmemeval", str(fixture_file), "--per-type", "1", "--runs", "1", "--llm", "scripted",
                 "--embedder", embedder, "--out", str(out)])
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    assert set(report["conditions"]) == set("ABEF")  # LongMemEval's default conditions
    assert report["scorer"]["name"].startswith("proxy") and report["scorer"]["agreement_with_labels"]["answers"] >= 40
    rows = [json.loads(line) for line in (out / "answers.jsonl").read_text().splitlines()]
    assert len(rows) == 4 * 2
    # The data stays in ../shared: a result names its question by id, never copies it or its answer.
    assert all(r["question"] == "" for r in rows)
    by_id = {(r["condition"], r["question_id"]): r for r in rows}
    # The scripted Responder says "I don't know": right for the abstention item only, in every condition.
    assert all(by_id[(c, "lme-user_abs")]["correct"] and not by_id[(c, "lme-assistant")]["correct"] for c in "ABEF")
    assert report["conditions"]["B"]["abstention"] == 1.0
    # The assistant's reply is the only evidence of the assistant question: E and F read it, being asked about it;
    # naive RAG reads the person's sentences only, and no memory nothing.
    assert [by_id[(c, "lme-assistant")]["evidence_recall"] for c in "ABEF"] == [0.0, 0.0, 1.0, 1.0]
    assert "Scorer: **proxy" in (out / "report.md").read_text()
    assert "E against B" in capsys.readouterr().out


def test_shards_feed_one_memory_folder_that_a_whole_run_then_answers_from(fixture_file, tmp_path):
    common = ["bench", "--longmemeval", str(fixture_file), "--conditions", "E", "--runs", "1", "--llm", "scripted",
              "--embedder", "hash", "--memory-dir", str(tmp_path / "memory")]
    memory = tmp_path / "memory"
    assert main([*common, "--shard", "2/2", "--out", str(tmp_path / "two")]) == 0
    assert [p.name.split("-E-")[0] for p in memory.glob("*.sqlite3")] == ["lme-user_abs"]  # the second question only
    assert [json.loads(line)["question_id"] for line in (tmp_path / "two" / "answers.jsonl").read_text().splitlines()] \
        == ["lme-user_abs"]
    assert "shard 2 of 2" in json.loads((tmp_path / "two" / "report.json").read_text())["scenario"]
    assert main([*common, "--shard", "1/2", "--out", str(tmp_path / "one")]) == 0
    fed = {p: p.stat().st_mtime_ns for p in memory.glob("*.sqlite3")}
    assert len(fed) == 2
    assert main([*common, "--out", str(tmp_path / "all")]) == 0
    assert {p: p.stat().st_mtime_ns for p in fed} == fed  # both read, neither fed again
    rows = [json.loads(line) for line in (tmp_path / "all" / "answers.jsonl").read_text().splitlines()]
    assert sorted(r["question_id"] for r in rows) == ["lme-assistant", "lme-user_abs"]


def test_shard_folders_merge_into_the_whole_runs_report(fixture_file, tmp_path, capsys):
    common = ["bench", "--longmemeval", str(fixture_file), "--conditions", "B,E", "--runs", "1", "--llm", "scripted",
              "--embedder", "hash", "--memory-dir", str(tmp_path / "memory")]
    for k in (1, 2):
        assert main([*common, "--shard", f"{k}/2", "--out", str(tmp_path / f"shard{k}")]) == 0
    assert main([*common, "--out", str(tmp_path / "whole")]) == 0
    merged = tmp_path / "merged"
    assert main(["bench", "--merge", str(tmp_path / "shard1"), "--out", str(merged)]) == 0
    assert json.loads((merged / "report.json").read_text())["scenario"].endswith("shard 1 of 2")
    assert main(["bench", "--merge", str(tmp_path / "shard2"), "--out", str(merged)]) == 0
    assert main(["bench", "--merge", str(tmp_path / "shard2"), "--out", str(merged)]) == 0  # again: replaced, not doubled
    whole, report = (json.loads((d / "report.json").read_text()) for d in (tmp_path / "whole", merged))
    assert report["scenario"] == whole["scenario"] and "shard" not in report["scenario"]
    timeless = lambda r: {c: {k: v for k, v in m.items() if "latency" not in k} for c, m in r["conditions"].items()}  # noqa: E731
    assert timeless(report) == timeless(whole) and report["paired"] == whole["paired"]
    rows = [json.loads(line) for line in (merged / "answers.jsonl").read_text().splitlines()]
    assert sorted((r["condition"], r["question_id"]) for r in rows) == \
        [(c, q) for c in "BE" for q in ("lme-assistant", "lme-user_abs")]
    capsys.readouterr()
    other = tmp_path / "other"  # a shard of another split is another setup
    assert main([*common, "--shard", "1/3", "--out", str(other)]) == 0
    assert main(["bench", "--merge", str(other), "--out", str(tmp_path / "shard2")]) == 2
    assert "different setups (scenario)" in capsys.readouterr().err


@pytest.mark.parametrize("shard", ["0/2", "3/2", "2", "a/b", "1/0"])
def test_a_bad_shard_is_refused_with_how_to_write_it(fixture_file, tmp_path, capsys, shard):
    code = main(["bench", "--longmemeval", str(fixture_file), "--shard", shard, "--llm", "scripted",
                 "--embedder", "hash", "--out", str(tmp_path / "out")])
    assert code == 2 and "K/N" in capsys.readouterr().err


def test_a_scenario_is_not_sharded(tmp_path, capsys):
    assert main(["bench", "--shard", "1/2", "--llm", "scripted", "--embedder", "hash", "--out", str(tmp_path)]) == 2
    assert "one conversation" in capsys.readouterr().err
