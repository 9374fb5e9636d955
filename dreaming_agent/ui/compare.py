"""Compare as two chat columns, LightMem beside RAG, aligned turn by turn: pure formatting, every string escaped."""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any, Mapping, Sequence

from ..text import normalize

MODES = ("lightmem", "rag")
LABELS = {"lightmem": "LightMem", "rag": "RAG"}

STYLE = """<style>
.da-cmp{display:grid;grid-template-columns:1fr 1fr;gap:6px 12px;align-items:start}
.da-cmp-head{font-weight:600;color:#334155;border-bottom:2px solid #e2e8f0;padding-bottom:2px}
.da-cmp-q{grid-column:1/-1;justify-self:end;max-width:80%;background:#eff6ff;border-radius:10px;padding:6px 10px;
white-space:pre-wrap;margin-top:8px}
.da-cmp-a{background:#f8fafc;border:1px solid #e2e8f0;border-radius:10px;padding:6px 10px;white-space:pre-wrap}
.da-cmp-a .da-cmp-label{display:none;font-weight:600;margin-right:4px}
.da-cmp-meta{display:block;color:#64748b;font-size:.8em;margin-top:4px;white-space:normal}
.da-cmp-differs .da-cmp-a{border-color:#f59e0b}
.da-cmp-why{grid-column:1/-1;font-size:.85em;background:#fffbeb;border:1px solid #fcd34d;border-radius:6px;padding:4px 8px}
.da-cmp-why ul{margin:2px 0 0 16px;padding:0}
@media (max-width:700px){.da-cmp{grid-template-columns:1fr}.da-cmp-head{display:none}
.da-cmp-a .da-cmp-label{display:inline}}
</style>"""


@dataclass
class ComparedTurn:
    """One message answered both ways: what each said (as far as it has streamed), its time, tokens and evidence."""

    question: str
    replies: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    prompt_tokens: dict[str, int] = field(default_factory=dict)
    evidence: dict[str, list[str]] = field(default_factory=dict)  # the lines of memory each prompt held
    message_id: int | None = None  # the stored message, once answered

    @property
    def answered(self) -> bool:
        return all(mode in self.seconds for mode in MODES)


def from_results(question: str, results: Mapping[str, Any]) -> ComparedTurn:
    """A finished Compare turn from the agent's two TurnResults."""
    turn = ComparedTurn(question)
    for mode, result in results.items():
        turn.replies[mode] = result.answer
        turn.seconds[mode] = float(result.timings.get("total_ms", 0)) / 1000
        turn.prompt_tokens[mode] = sum(int(step.prompt_tokens or 0) for step in result.trace.steps
                                       if step.name == "Responder")
        turn.evidence[mode] = prompt_lines(result)
        turn.message_id = result.message_id
    return turn


def prompt_lines(result: Any) -> list[str]:
    """The lines of memory the answer's prompt held (facts and dated evidence, each a "- " line of the system
    message, as the model read them); without a prompt, the evidence entries' texts."""
    if result.prompt is None or not result.prompt.messages:
        return [c.record.text for c in result.evidence]
    system = result.prompt.messages[0]["content"]
    return [line[2:].strip() for line in system.splitlines() if line.startswith("- ")]


def differs(turn: ComparedTurn) -> bool:
    """The two finished answers say different things (case, spacing and end punctuation aside)."""
    said = {_comparable(turn.replies.get(mode, "")) for mode in MODES}
    return turn.answered and len(said) > 1


def only_in(turn: ComparedTurn, mode: str) -> list[str]:
    """Evidence lines one side's prompt held and the other's did not."""
    other = set(turn.evidence.get(next(m for m in MODES if m != mode), []))
    return [line for line in turn.evidence.get(mode, []) if line not in other]


def columns_html(turns: Sequence[ComparedTurn]) -> str:
    """Both columns, a row per turn; a turn whose answers differ is marked with the evidence only one side had."""
    if not turns:
        return ('<p class="da-empty">Compare answers each message twice, with LightMem\'s memory and with plain RAG, '
                "side by side.</p>")
    head = "".join(f'<div class="da-cmp-head">{LABELS[m]}</div>' for m in MODES)
    return f'<div id="compare-columns" class="da-cmp">{head}{"".join(_row(t) for t in turns)}</div>'


def _row(turn: ComparedTurn) -> str:
    marked = differs(turn)
    cells = "".join(_answer(turn, mode) for mode in MODES)
    row = f'<div class="da-cmp-q">{escape(turn.question)}</div>{cells}'
    if marked:
        row += _why(turn)
    # display:contents keeps the cells on the page's grid while the row still carries its "differs" mark.
    return f'<div class="da-cmp-row{" da-cmp-differs" if marked else ""}" style="display:contents">{row}</div>'


def _answer(turn: ComparedTurn, mode: str) -> str:
    text = turn.replies.get(mode, "")
    if mode in turn.seconds and not turn.prompt_tokens.get(mode):
        meta = f"{turn.seconds[mode]:.1f} s · answered in code, no model call"
    elif mode in turn.seconds:
        meta = f"{turn.seconds[mode]:.1f} s · {turn.prompt_tokens[mode]} prompt tokens"
    else:
        meta = "answering…" if text else "waiting…"
    return (f'<div class="da-cmp-a" data-mode="{mode}"><span class="da-cmp-label">{LABELS[mode]} ·</span>'
            f'{escape(text.strip())}<span class="da-cmp-meta">{meta}</span></div>')


def _why(turn: ComparedTurn) -> str:
    parts = []
    for mode in MODES:
        lines = only_in(turn, mode)
        if lines:
            items = "".join(f"<li>{escape(line)}</li>" for line in lines[:5])
            more = f"<li>… and {len(lines) - 5} more</li>" if len(lines) > 5 else ""
            parts.append(f"<div>Only {LABELS[mode]} had:<ul>{items}{more}</ul></div>")
    in_code = [LABELS[m] for m in MODES if not turn.prompt_tokens.get(m)]
    if in_code:  # one side never asked the model: the difference is its own check, not the evidence
        parts.append(f"<div>{' and '.join(in_code)} answered without asking the model (its trace says why).</div>")
    evidence = "".join(parts) or "<div>Both had the same evidence; the model read it differently.</div>"
    return f'<div class="da-cmp-why"><b>The answers differ.</b>{evidence}</div>'


def _comparable(text: str) -> str:
    return normalize(text).strip(" .!?¡¿")
