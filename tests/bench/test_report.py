"""The bench report holds each condition against naive RAG question by question, with an interval that says when a
difference could be the sample's."""
from dreaming_agent.bench.report import markdown, paired, summarize
from dreaming_agent.bench.runner import AnswerRecord


def _record(condition: str, qid: int, type_: str, f1: float, recall: float | None = None) -> AnswerRecord:
    return AnswerRecord(0, condition, f"q{qid:03d}", type_, "", "answer", None, f1, recall, 0, 1000.0, 1, 300)


def test_each_condition_is_held_against_naive_rag_on_the_same_questions():
    records = []
    for i in range(40):  # temporal: E right where B is wrong, every time
        records += [_record("B", i, "temporal", 0.0, 0.5), _record("E", i, "temporal", 1.0, 1.0 if i < 3 else 0.5)]
    for i in range(40, 80):  # single hop: two answers worded a little better, two a little worse, the rest alike
        e = {40: 0.3, 41: 0.3, 42: 0.1, 43: 0.1}.get(i, 0.2)
        records += [_record("B", i, "single_hop", 0.2), _record("E", i, "single_hop", e)]
    records.append(_record("E", 99, "single_hop", 1.0))  # a question B never answered is not compared
    by_type = paired(records)["E"]
    temporal, single, overall = by_type["temporal"], by_type["single_hop"], by_type["all"]
    assert (temporal["better"], temporal["worse"], temporal["same"], temporal["difference"]) == (40, 0, 0, 1.0)
    assert temporal["interval"] == [1.0, 1.0] and (temporal["recall_better"], temporal["recall_worse"]) == (3, 0)
    assert (single["better"], single["worse"], single["same"], single["questions"]) == (2, 2, 36, 40)
    lo, hi = single["interval"]
    assert lo < 0 < hi and abs(single["difference"]) < 1e-9  # a difference this sample cannot show
    assert overall["questions"] == 80 and overall["interval"][0] > 0
    assert paired(records)["E"] == by_type  # seeded: the same report every time


def test_the_report_prints_the_paired_table_and_says_nothing_without_naive_rag():
    records = [_record(c, i, "temporal", f) for i in range(5) for c, f in (("B", 0.0), ("E", 1.0), ("D", 0.5))]
    report = summarize(records, meta={"scenario": "s", "llm": "m", "embedder": "e", "runs": 1})
    text = markdown(report, "python -m dreaming_agent bench")
    assert "E against B, question by question" in text and "D against B" in text
    assert "| temporal | 5 | 5 | 0 | 0 | +1.000 | +1.000 to +1.000 | 0 / 0 |" in text
    without = summarize([r for r in records if r.condition != "B"], meta={"scenario": "s", "llm": "m", "embedder": "e",
                                                                           "runs": 1})
    assert without["paired"] == {} and "against B" not in markdown(without, "cmd")
