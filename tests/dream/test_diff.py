"""The Dream report as JSON and as HTML: colours for what changed, reasons for what was refused, all escaped."""
from __future__ import annotations

import json

from dreaming_agent.dream import run_dream
from dreaming_agent.dream.diff import DreamReport, EntryView, OpReport
from dreaming_agent.testing import ScriptedLLM
from dreaming_agent.ui.render import dream_html

from .builders import planner, remember

SCRIPT = "<script>alert('x')</script>"
IMAGE = "<img src=x onerror=alert(1)>"


def test_every_user_derived_string_is_escaped():
    hostile = OpReport(
        op="MERGE", target_ids=[1, 2], text=f"The user {SCRIPT}", reason=IMAGE, verdict="Accepted.", new_memory_id=3,
        before=[EntryView(1, "mtm", "active", f"The user likes {SCRIPT}")],
        after=[EntryView(1, "mtm", "superseded", f"The user likes {SCRIPT}"), EntryView(3, "mtm", "active", IMAGE)],
    )
    refused = OpReport(op="UPDATE", target_ids=[4], text=IMAGE, reason=SCRIPT, verdict=f"Rejected because {IMAGE}.")
    report = DreamReport(dream_id=7, status="applied", started_at=f"2024-01-01 {SCRIPT}",
                         accepted=[hostile], rejected=[refused])

    html = dream_html(report)

    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "line-through" in html and "#e6ffec" in html
    assert "Refused proposals" in html and f"Rejected because {IMAGE}".replace("<", "&lt;").replace(">", "&gt;") in html


def test_report_from_a_real_dream_renders_and_serialises(store, index, embedder):
    first = remember(store, embedder, f"The user wrote {SCRIPT}", (f"I wrote {SCRIPT} on my blog.", "2024-01-01"))
    second = remember(store, embedder, f"The user posted {IMAGE}", (f"I posted {IMAGE} today.", "2024-01-02"))
    lonely = remember(store, embedder, "The user went to a concert on Friday", ("Concert on Friday!", "2024-01-03"))
    index.sync(store)
    llm = ScriptedLLM(defaults={"DreamProposal": planner(
        {"op": "MERGE", "target_ids": [first, second], "text": f"The user wrote {SCRIPT} and posted {IMAGE}",
         "reason": IMAGE},
        {"op": "UPDATE", "target_ids": [lonely], "text": f"The user met {SCRIPT} Zed", "reason": "why not"},
    )})

    report = run_dream(store, index, llm, embedder, now="2024-08-01T03:00:00", min_similarity=-1.0)
    html = dream_html(report)
    data = json.loads(json.dumps(report.to_json()))

    assert [o["op"] for o in data["accepted"]] == ["MERGE"] and [o["op"] for o in data["rejected"]] == ["UPDATE"]
    assert "Zed" in data["rejected"][0]["verdict"]
    assert data["raw_outputs"][0]["raw"] and data["llm_calls"] == 1
    assert "<script" not in html and "<img" not in html
    assert html.count("line-through") == 2  # the two merged entries
    assert f"[{data['accepted'][0]['new_memory_id']}] The user wrote &lt;script&gt;" in html
