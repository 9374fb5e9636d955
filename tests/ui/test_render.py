"""The page's pure formatting helpers: what they show, and that user-derived text is always escaped."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from dreaming_agent.context.budget import PackedPrompt
from dreaming_agent.pipeline.agent import TurnResult
from dreaming_agent.pipeline.timeline import Event
from dreaming_agent.pipeline.trace import Step, Trace
from dreaming_agent.store import Memory, Message
from dreaming_agent.store.attributes import Current, Held
from dreaming_agent.ui import compare, profile, render
from dreaming_agent.ui.status import StatusWords, status_html, status_words

HOSTILE = "<img src=x onerror=alert(1)> <script>alert(2)</script> ${alert(3)}"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;"


def message(id_, text, role="user", speaker=None, when="2026-03-02T10:00:00"):
    return Message(id_, "s1", role, text, when, speaker)


def memory(id_, text, *, tier="mtm", origin="writer", sources=(1,)):
    return Memory(id_, tier, text, origin, "active", None, "2026-03-02T10:00:00", "2026-03-02T10:00:00", None, 0,
                  source_message_ids=tuple(sources))


BREAKDOWN = {"instructions": 300, "facts": 100, "summary": 0, "evidence": 200, "recent": 50, "question": 30,
             "reply_reserve": 512, "window": 4096}


def result(mode, answer, *, steps=(), ms=12.0):
    return TurnResult(answer, mode, 1, Trace(list(steps)), PackedPrompt([], BREAKDOWN), {"total_ms": ms})


def test_chat_messages_label_each_answer_with_its_mode_and_end_with_a_notice():
    history = [message(1, "Hi"), message(2, "Hello!", "assistant", "rag")]
    bubbles = render.chat_messages(history, "⚠️ The model is down.")
    assert bubbles == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "<b>RAG</b> · Hello!"},
        {"role": "assistant", "content": "⚠️ The model is down."},
    ]


def test_budget_bar_draws_each_layer_in_proportion_and_counts_what_is_free():
    html = render.budget_bar(BREAKDOWN)
    segments = re.findall(r'width:([\d.]+)%;background:#\w+" title="(\w+):', html)
    assert {name: width for width, name in segments} == {"instructions": "7.32", "facts": "2.44", "evidence": "4.88", "recent": "1.22",
                      "question": "0.73", "reply_reserve": "12.50"}
    assert "summary:" not in html  # an empty layer draws no segment
    assert "free 2904" in html and "prompt 680 tokens" in html and "4096-token window" in html


def test_budget_bar_survives_an_empty_breakdown():
    assert "free 1" in render.budget_bar({})


def test_trace_shows_decision_duration_marks_and_raw_and_parsed_output():
    step = Step("Controller", 41.5, "needs memory; 1 query", raw=["nonsense", '{"queries": ["pet"]}'],
                parsed={"queries": ["pet"]}, retried=True, fell_back=True, error="bad JSON", llm_calls=2,
                prompt_tokens=90, completion_tokens=12)
    html = render.trace_html(Trace([step]).to_json())
    assert "<b>Controller</b>" in html and "41.5 ms" in html and "2 call(s), 90→12 tokens" in html
    assert "needs memory; 1 query" in html and "retried" in html and "fell back" in html and "bad JSON" in html
    assert "<pre>nonsense</pre>" in html and "&quot;pet&quot;" in html


def test_trace_without_steps_says_so():
    assert "No steps" in render.trace_html([])


def test_turn_panel_in_compare_puts_answers_latency_and_traces_side_by_side():
    html = render.turn_panel(
        {"lightmem": result("lightmem", "Porto", steps=[Step("Controller", 1.0, "ok")], ms=812.4),
         "rag": result("rag", "Lisbon?", steps=[Step("Retriever", 2.0, "8 sentences")], ms=301.0)},
        show_answers=True,
    )
    assert "grid-template-columns:1fr 1fr" in html
    assert html.index("LightMem") < html.index("812 ms") < html.index("Porto") < html.index("Controller")
    assert html.index("RAG") < html.index("301 ms") < html.index("Lisbon?") < html.index("Retriever")
    assert html.count('class="da-bar"') == 2


def test_turn_panel_for_one_mode_leaves_the_answer_to_the_chat():
    html = render.turn_panel({"lightmem": result("lightmem", "Porto")}, show_answers=False)
    assert "grid-template-columns:1fr\"" in html and "da-answer" not in html


def test_memory_list_shows_origin_state_and_dated_sources():
    sources = {1: message(1, "I moved to Porto.", when="2026-03-02T10:00:00")}
    html = render.memory_list(
        [memory(7, "The user lives in Porto"), memory(8, "Likes tea", origin="manual", sources=()),
         memory(9, "Merged", origin="dream")],
        sources, learning=[7], new=[8],
    )
    assert re.search(r"#7</span>The user lives in Porto.*da-writer.*learning….*2026-03-02 · you said: “I moved to Porto.”",
                     html)
    assert re.search(r"#8</span>Likes tea<span class=\"da-badge da-manual\">manual</span><span class=\"da-badge da-new\">new", html)
    assert 'da-dream">dream' in html


def test_memory_list_shows_which_entry_replaced_an_older_value():
    html = render.memory_list([memory(7, "The user lives in Vitoria"), memory(9, "The user has moved to Bilbao")], {},
                              replaced={7: 9})
    assert re.search(r"#7</span>The user lives in Vitoria.*da-replaced\">replaced by #9</span>", html)
    assert html.count("replaced by") == 1


def test_memory_list_when_empty_shows_the_hint():
    assert "Tell me more" in render.memory_list([], {}, empty="Tell me more")


def test_writer_panel_marks_learning_until_the_step_exists():
    said = message(3, "I have a cat.")
    assert "learning…" in render.writer_panel(said, None, running=True)
    assert "waiting" in render.writer_panel(said, None, running=False)
    done = render.writer_panel(said, {"name": "Writer", "duration_ms": 5, "decision": "stored 1"}, running=False)
    assert "learning" not in done and "stored 1" in done
    assert render.writer_panel(None, None, running=False) == ""


def test_writer_panel_says_a_withheld_message_is_never_learned_and_does_not_repeat_it():
    from dataclasses import replace

    pin = replace(message(13, "My bank PIN is 4471."), withheld="a credential (pin) with a code")
    for running in (True, False):
        shown = render.writer_panel(pin, None, running=running)
        assert "not learned" in shown and "#13" in shown and "a credential (pin)" in shown
        assert "4471" not in shown and "learning" not in shown and "waiting" not in shown


def test_window_shows_summary_and_verbatim_tail():
    html = render.window_html("They talked about cats.", [message(4, "And dogs?")])
    assert "They talked about cats." in html and "#4" in html and "And dogs?" in html
    assert "No summary yet" in render.window_html("", [])


def test_history_lists_every_message_with_id_date_and_speaker():
    html = render.history_html([message(1, "Hi"), message(2, "Hello", "assistant", "lightmem")])
    assert "#1" in html and "2026-03-02 10:00:00" in html and "assistant (LightMem)" in html
    assert "No messages" in render.history_html([])


def test_history_marks_a_message_that_was_not_remembered():
    withheld = Message(3, "s1", "user", "My PIN is 4471.", "2026-03-02T10:00:00", withheld="a credential (pin)")
    html = render.history_html([withheld, message(4, "I live in Bristol.")])
    assert html.count("da-withheld") == 1 and 'title="a credential (pin)"' in html


def test_refused_proposals_show_the_models_reason_and_the_verdict():
    op = SimpleNamespace(op="FORGET", target_ids=[2, 5], text=None, reason="Mentioned once.",
                         verdict="Work facts are never forgotten.")
    html = render.refused_html([op])
    assert "FORGET" in html and "[2, 5]" in html and "Mentioned once." in html and "never forgotten" in html
    assert "No proposal was refused" in render.refused_html([])


def test_status_line_says_model_quality_and_memory_in_words_with_details_folded():
    details = {"backend": "embedded", "why": "no Ollama answers at http://127.0.0.1:11434 (ConnectError)",
               "threads": "2", "chroma": "in-process ephemeral"}
    words = status_words(backend="embedded", model="Qwen2.5-Coder-0.5B-Instruct (local)", weak=False)
    html = status_html(words, details)
    plain, folded = html.split("<details", 1)
    assert "Qwen2.5-Coder-0.5B-Instruct" in plain and "0.5B" in words.quality and "browser tab" in plain
    assert "ollama pull qwen2.5:3b" in plain
    assert "ConnectError" not in plain and "chroma" not in plain and "backend" not in plain
    assert "ConnectError" in folded and "chroma: in-process ephemeral" in folded
    tiny = status_words(backend="embedded", model="SmolLM2-135M", weak=True)
    assert "weak" in tiny.quality and 'class="da-weak"' in status_html(tiny, {}, weak_model=True)
    served = status_words(backend="ollama", model="qwen2.5:3b (Ollama)", weak=False)
    assert served.better == "" and "ollama pull" not in status_html(served, details)


HOSTILE_RENDERINGS = {
    "chat": lambda: render.chat_messages([message(1, HOSTILE), message(2, HOSTILE, "assistant", "lightmem")],
                                         HOSTILE)[0]["content"],
    "chat notice": lambda: render.chat_messages([], HOSTILE)[0]["content"],
    "trace": lambda: render.trace_html([{"name": HOSTILE, "duration_ms": 1, "decision": HOSTILE, "raw": [HOSTILE],
                                         "parsed": {"q": HOSTILE}, "error": HOSTILE}]),
    "turn": lambda: render.turn_panel({HOSTILE: result("lightmem", HOSTILE)}, show_answers=True),
    "memory": lambda: render.memory_list([memory(1, HOSTILE, origin=HOSTILE)], {1: message(1, HOSTILE)}),
    "learning": lambda: render.learning_placeholder(message(1, HOSTILE)),
    "writer": lambda: render.writer_panel(message(1, HOSTILE), None, running=True),
    "window": lambda: render.window_html(HOSTILE, [message(1, HOSTILE, role=HOSTILE)]),
    "history": lambda: render.history_html([message(1, HOSTILE, when=HOSTILE)]),
    "refused": lambda: render.refused_html([SimpleNamespace(op=HOSTILE, target_ids=[1], text=HOSTILE,
                                                            reason=HOSTILE, verdict=HOSTILE)]),
    "status": lambda: status_html(StatusWords(HOSTILE, HOSTILE, HOSTILE, ""), {HOSTILE: HOSTILE}),
    "compare": lambda: compare.columns_html([compare.ComparedTurn(
        HOSTILE, replies={"lightmem": HOSTILE, "rag": "x"}, seconds={"lightmem": 1, "rag": 1},
        evidence={"lightmem": [HOSTILE], "rag": []})]),
    "notice": lambda: render.notice_html(HOSTILE, ok=False),
}


@pytest.mark.parametrize("panel", sorted(HOSTILE_RENDERINGS))
def test_user_text_is_escaped_in_every_helper(panel):
    html = HOSTILE_RENDERINGS[panel]()
    assert ESCAPED in html
    assert "<img" not in html and "<script" not in html.lower()


def test_a_pending_turn_is_escaped_and_labelled_like_a_stored_one():
    bubbles = render.pending_turn("<img src=x> & me", {"lightmem": " It <b>is</b>", "rag": "Par"})
    assert bubbles == [
        {"role": "user", "content": "&lt;img src=x&gt; &amp; me"},
        {"role": "assistant", "content": "<b>LightMem</b> · It &lt;b&gt;is&lt;/b&gt;"},
        {"role": "assistant", "content": "<b>RAG</b> · Par"},
    ]
    assert render.pending_turn("Hi", {}) == [{"role": "user", "content": "Hi"}]  # queued: no reply yet


def test_dream_progress_counts_groups_and_says_when_there_is_none():
    assert "<b>2 of 5</b> groups" in render.dream_progress(2, 5) and 'value="2" max="5"' in render.dream_progress(2, 5)
    assert "<b>0 of 1</b> group of" in render.dream_progress(0, 1)
    assert "nothing new since the last Dream" in render.dream_progress(0, 0)
    assert "Writer" in render.dream_progress(None, 0)


@pytest.mark.parametrize("settled, shown", [
    (0, None),
    (1, "1 new entry kept as it is without asking the model"),
    (3, "3 new entries kept as they are without asking the model"),
])
def test_a_dream_says_how_many_new_entries_it_settled_without_the_model(settled, shown):
    from dreaming_agent.dream import DreamReport

    page = render.dream_html(DreamReport(4, "applied", "2026-03-02T23:00:00", settled=settled))
    assert "Nothing changed." in page
    assert (shown in page) if shown else "without asking the model" not in page


def test_the_profile_shows_each_value_now_since_when_and_what_it_replaced_escaped():
    rows = [Current("home", (Held("Bristol <b>", "2026-11-27", 8),),
                    (Held("Leeds", "2026-11-01", 2), Held("York", "2025-01-01", 1))),
            Current("occupation", (Held("a teacher", "2026-11-27", 9),), ())]
    html = profile.profile_html(rows)
    home, job = re.findall(r'<li class="da-profile-row".*?</li>', html)
    assert "Lives in</b> Bristol &lt;b&gt; <span" in home and "— since 2026-11-27; before: " in home
    assert re.search(r"Leeds <span class=\"da-id\">#2</span> until 2026-11-27.*York .*#1</span> until 2026-11-01",
                     home)
    assert 'data-id="8"' in home  # the delete button deletes the current value's entry
    assert "Works as</b> a teacher" in job and "before" not in job
    assert profile.profile_html([]) == ""
    whole = profile.profile_html([Current("home", (Held("The user's place is Krakowie", "2026-12-06", 2, True),), ())])
    assert "<b>Home</b> The user&#x27;s place is Krakowie" in whole  # a whole entry is not read as "Lives in The user…"
    moved = Event("2026-11-20", "the week before 27 November 2026", "The user moved to Bristol", 8, "2026-11-27",
                  "last week")
    assert ("— since the week before 27 November 2026; before: <span class=\"da-replaced\">Leeds <span "
            "class=\"da-id\">#2</span> until the week before 27 November 2026") in profile.profile_html(rows, [moved])


def test_the_timeline_lists_each_event_at_its_day_with_the_words_that_told_it_escaped():
    html = profile.timeline_html([Event("2026-02-16", "16 February 2026", "The user adopted <i>a cat</i>", 17,
                                       "2026-02-17", "yesterday")])
    assert "When things happened (1)" in html and 'data-id="17"' in html
    assert "<b>16 February 2026</b> · The user adopted &lt;i&gt;a cat&lt;/i&gt;" in html
    assert "said 2026-02-17: “yesterday”" in html
    assert profile.timeline_html([]) == ""
