"""The Responder's prompt shows how to say "I don't know" in the question's own language, from prompts/unknown.*.md."""
from __future__ import annotations

import pytest

from dreaming_agent.context.budget import BudgetLimits
from dreaming_agent.pipeline.responder import build_prompt, unknown_example
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.testing import ScriptedLLM

def system_prompt(question: str, template: str) -> str:
    packed = build_prompt(ScriptedLLM(), PromptLibrary.bundled(), BudgetLimits(), template=template,
                          question=question, today="2026-01-05", facts=["The user lives in Leeds"], summary="",
                          evidence=[], recent=[])
    return packed.messages[0]["content"]

@pytest.mark.parametrize("template", ["responder", "answer"])
@pytest.mark.parametrize("question, shown, hidden", [
    ("Where does my sister work?", "I don't know", "No lo sé"),
    ("¿Dónde trabaja mi hermana?", "No lo sé", "I don't know"),
])
def test_the_unknown_example_is_in_the_question_language(template, question, shown, hidden):
    system = system_prompt(question, template)
    assert shown in system and hidden not in system

def test_a_language_without_an_example_file_gets_the_plain_rule(tmp_path):
    library = PromptLibrary.bundled()
    plain = library["unknown"].template.strip()

    assert unknown_example(PromptLibrary(library.directory), "Where do I live?") == library["unknown.en"].template.strip()
    empty = PromptLibrary(tmp_path)
    (tmp_path / "unknown.md").write_text(plain, encoding="utf-8")
    assert unknown_example(empty, "Where do I live?") == plain
