"""What the model is shown for one cluster, and what happens when its answer is unusable."""
from __future__ import annotations

import json

from dreaming_agent.dream.propose import load_entries, proposal_schema, propose
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.testing import ScriptedLLM
from dreaming_agent.text import proper_nouns

from .builders import remember

PROMPT = PromptLibrary.bundled()["dream"]


def test_prompt_shows_ids_tiers_texts_dated_sources_and_today(store, embedder):
    job = remember(store, embedder, "The user works as a UX designer",
                   ("Long week. I started a new job as a UX designer!", "2024-06-01T09:30:00"))
    name = remember(store, embedder, "The user's name is Marta", ("Hi, I'm Marta.", "2024-01-02T10:00:00"), tier="ltm")
    entries = load_entries(store)
    llm = ScriptedLLM()

    proposal = propose(llm, [entries[job], entries[name]], today="2024-07-15", prompt=PROMPT)

    (key, messages), = llm.calls
    system, user = messages[0]["content"], messages[-1]["content"]
    assert key == "DreamProposal" and "Today is 2024-07-15" in system
    assert f"[{job}] short-term" in user and f"[{name}] long-term" in user
    assert "entry: The user works as a UX designer" in user
    # Only the sentence that is about the entry, verbatim and dated.
    assert 'on 2024-06-01 the person said: "I started a new job as a UX designer!"' in user
    assert "Long week" not in user
    assert 'on 2024-01-02 the person said: "Hi, I\'m Marta."' in user
    assert proposal.operations == [] and not proposal.fell_back and proposal.cluster == [job, name]


def test_unusable_output_is_retried_once_then_nothing_is_proposed(store, embedder):
    memory = remember(store, embedder, "The user likes jazz", ("I like jazz.", "2024-01-01"))
    bad = ["Sure! I would merge them.", json.dumps({"operations": [{"op": "SHRED", "target_ids": [memory]}]})]
    llm = ScriptedLLM({"DreamProposal": bad})

    proposal = propose(llm, list(load_entries(store).values()), today="2024-07-15", prompt=PROMPT)

    assert proposal.operations == []
    assert proposal.fell_back and proposal.retried and proposal.calls == 2
    assert proposal.raw == bad
    assert "SHRED" in proposal.error or "op" in proposal.error


def test_parsed_operations_are_kept_as_proposed(store, embedder):
    memory = remember(store, embedder, "The user likes jazz", ("I like jazz.", "2024-01-01"))
    answer = {"operations": [{"op": "PROMOTE", "target_ids": [memory], "text": None, "reason": "said often"}]}
    llm = ScriptedLLM({"DreamProposal": [json.dumps(answer)]})

    proposal = propose(llm, list(load_entries(store).values()), today="2024-07-15", prompt=PROMPT)

    assert [o.model_dump() for o in proposal.operations] == answer["operations"]
    assert proposal.raw == [json.dumps(answer)] and proposal.calls == 1


def test_prompt_examples_are_placeholders_not_people():
    # The seed's example dog leaked into a real person's memory; only instruction words may be capitalised.
    instruction_words = {
        "code", "doing", "each", "entries", "forget", "if", "json", "keep", "merge", "never", "newest",
        "operations", "operations merge", "promote", "propose", "reply", "rules", "rules use", "shape",
        "update", "use", "write",
    }
    assert proper_nouns(PROMPT.template) <= instruction_words
    assert "<id>" in PROMPT.template and "$today" in PROMPT.template and "$entries" in PROMPT.template


def test_the_model_is_offered_only_this_clusters_ids_and_shapes_it_can_fill(store, embedder):
    allergy = remember(store, embedder, "The user is allergic to peanuts", ("I'm allergic to peanuts.", "2024-01-01"))
    name = remember(store, embedder, "The user's name is Marta", ("Hi, I'm Marta.", "2024-01-02"), tier="ltm")
    entries = load_entries(store)

    lone = json.dumps(proposal_schema([entries[allergy]]))
    assert '"MERGE"' not in lone and '"UPDATE"' not in lone  # one entry: nothing to merge with or update from
    assert '"PROMOTE"' in lone and '"FORGET"' in lone and f'"const": {allergy}' in lone
    pair = proposal_schema([entries[allergy], entries[name]])
    merge, = (shape for shape in pair["$defs"].values() if shape["properties"]["op"].get("const") == "MERGE")
    assert merge["properties"]["target_ids"]["minItems"] == 2 and merge["required"][:1] == ["op"]
    assert merge["properties"]["target_ids"]["items"]["enum"] == [allergy, name]
    promote, = (shape for shape in pair["$defs"].values() if shape["properties"]["op"].get("const") == "PROMOTE")
    assert promote["properties"]["target_ids"]["items"]["const"] == allergy  # a long-term entry is never promoted
    assert "text" not in promote["properties"]
