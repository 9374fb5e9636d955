"""What a newcomer reads: an undone Dream, a deleted message's reply, counts, refused reasons, Compare, estimates."""
from __future__ import annotations

import pytest

from dreaming_agent.dream.diff import DreamReport, EntryView, OpReport
from dreaming_agent.pipeline.agent import TurnResult
from dreaming_agent.pipeline.retriever import Candidate
from dreaming_agent.pipeline.trace import Step, Trace
from dreaming_agent.store import Memory, Message
from dreaming_agent.ui import compare, render
from dreaming_agent.ui.handlers import replies_to


def report(status: str) -> DreamReport:
    update = OpReport("UPDATE", [1, 2], "The user lives in Porto", "The newer message says so.", "accepted",
                      new_memory_id=3, after=[EntryView(1, "mtm", "superseded", "The user lives in Lisbon"),
                                              EntryView(3, "ltm", "active", "The user lives in Porto")])
    return DreamReport(1, status, "2026-03-02T10:00:00", accepted=[update])


def test_an_undone_dream_is_greyed_and_names_its_state_and_time():
    applied, undone = render.dream_html(report("applied")), render.dream_html(report("undone"), undone_at="2026-03-02T10:05:00")
    assert 'data-state="applied"' in applied and "in your memory now" in applied and "line-through" in applied
    assert 'data-state="undone"' in undone and "da-undone" in undone and "Undone at 2026-03-02 10:05:00" in undone
    assert "line-through" not in undone and "#116329" not in undone  # neither struck red nor added green
    assert "was added, now removed" in undone


@pytest.mark.parametrize("count, noun, said", [(1, "Dream", "1 Dream"), (2, "Dream", "2 Dreams"), (0, "entry", "0 entries"),
                                               (1, "entry", "1 entry"), (3, "message", "3 messages")])
def test_counts_agree_with_their_noun(count, noun, said):
    assert render.counted(count, noun) == said


def test_a_deleted_message_notice_names_the_reply_it_took():
    assert render.deleted_message_notice(5, [6], 1) == "Deleted message #5, the reply to it (#6) and 1 entry learned only from them."
    assert render.deleted_message_notice(5, [6, 7], 0) == "Deleted message #5, the replies to it (#6 and #7)."
    assert render.deleted_message_notice(6, [], 0) == "Deleted message #6."


def test_the_replies_to_a_message_run_up_to_the_next_message_of_the_person():
    said = [Message(1, "s", "user", "Hi", "t"), Message(2, "s", "assistant", "Hello", "t", "lightmem"),
            Message(3, "s", "assistant", "Hey", "t", "rag"), Message(4, "s", "user", "Bye", "t"),
            Message(5, "s", "assistant", "Bye!", "t", "lightmem")]
    assert replies_to(said, 1) == [2, 3] and replies_to(said, 4) == [5]
    assert replies_to(said, 2) == [] and replies_to(said, 99) == []


@pytest.mark.parametrize("reason, shown", [
    ("The newer message says the user moved to Porto.", True),
    ("Mentioned once.", True),
    ("¿Repetido? Sí, dos veces.", True),
    ("The user's job didn't change.", True),
    ("…I work as a pharmacist.' is the", False),  # cut off, a quote left open
    ("the user said 'I work as a pharmacist.", False),
    ("duplicate", False),
    ("", False),
    (None, False),
])
def test_the_models_reason_is_shown_only_when_it_reads_as_a_sentence(reason, shown):
    assert render.reads_as_sentence(reason) is shown
    op = OpReport("FORGET", [2], None, reason or "", "Work facts are never forgotten.")
    refused = render.refused_html([op])
    assert "never forgotten" in refused  # the validator's reason, always
    assert ("model:" in refused) is shown


def test_the_dream_estimate_uses_the_measured_pace_then_its_own():
    assert "on the 0.5B model" in render.dream_estimate(0, 6, 0.0)
    assert render.dream_estimate(0, 6, 0.0).startswith(f"about {round(6 * render.SECONDS_PER_GROUP / 60)} min")
    assert render.dream_estimate(2, 6, 20.0) == "about 40 s left"
    assert render.dream_estimate(6, 6, 60.0) == "applying the changes"


def turn_result(mode: str, answer: str, lines: list[str], ms: float, tokens: int) -> TurnResult:
    evidence = [Candidate(Memory(i, "mtm", text, "writer", "active", None, "t", "t", None, 0), 0.9)
                for i, text in enumerate(lines, 1)]
    step = Step("Responder", ms, "answered", prompt_tokens=tokens, llm_calls=1)
    return TurnResult(answer, mode, 7, Trace([step]), None, {"total_ms": ms}, evidence=evidence)


def test_compare_marks_a_turn_whose_answers_differ_with_the_evidence_one_side_had():
    differing = compare.from_results("Where do I live?", {
        "lightmem": turn_result("lightmem", "You live in Porto.", ["The user lives in Porto", "The user is a nurse"], 1200, 812),
        "rag": turn_result("rag", "You live in Lisbon.", ["The user is a nurse"], 900, 640)})
    assert differing.answered and compare.differs(differing) and differing.message_id == 7
    assert compare.only_in(differing, "lightmem") == ["The user lives in Porto"] and compare.only_in(differing, "rag") == []
    html = compare.columns_html([differing])
    assert "da-cmp-differs" in html and "Only LightMem had:" in html and "1.2 s · 812 prompt tokens" in html
    same = compare.from_results("Hi?", {"lightmem": turn_result("lightmem", "Hello!", [], 100, 10),
                                        "rag": turn_result("rag", "hello", [], 100, 10)})
    assert not compare.differs(same) and "da-cmp-differs" not in compare.columns_html([same])
    in_code = compare.from_results("Sister?", {"lightmem": turn_result("lightmem", "I don't know.", [], 50, 0),
                                               "rag": turn_result("rag", "Her name is Ana.", [], 900, 180)})
    told = compare.columns_html([in_code])
    assert "answered in code, no model call" in told and "LightMem answered without asking the model" in told
    assert "same evidence" not in told
    streaming = compare.ComparedTurn("Where?", replies={"lightmem": "You li"})
    assert not compare.differs(streaming) and "answering…" in compare.columns_html([streaming])
