"""Each kind of text has one home: SQL only in dreaming_agent/store/, HTML only in dreaming_agent/ui/."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dreaming_agent"

SQL = re.compile(
    r"\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b"
    r"|\bCREATE\s+(?:TABLE|INDEX)\b|\bPRAGMA\s+\w+"
)
HTML = re.compile(r"<(?:div|span|table|tr|td|p|ul|ol|li|b|i|small|h[1-6]|br|pre|code|button|style|script)\b[^<>]*>"
                  r"|\bstyle=")


def literals(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module with its line; an f-string's fixed parts joined around "{}"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
            found.append((node.lineno, "".join(parts)))
    return found


def offenders(pattern: re.Pattern, home: str) -> list[str]:
    return [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text[:80]!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith(home + "/")
        for line, text in literals(path)
        if pattern.search(text)
    ]


def test_sql_lives_only_in_the_store():
    assert offenders(SQL, "store") == []


def test_html_lives_only_in_the_ui():
    assert offenders(HTML, "ui") == []


@pytest.mark.parametrize("text, pattern", [
    ("SELECT id FROM memories", SQL), ("INSERT OR IGNORE INTO memory_sources", SQL),
    ("UPDATE dream_runs SET status = 'undone'", SQL), ("DELETE FROM dream_ops WHERE {}", SQL),
    ('<div class="dream-report">', HTML), ('<span style="{}">', HTML), ("<li>{}</li>", HTML),
])
def test_the_patterns_see_what_they_guard(text, pattern):
    assert pattern.search(text)


@pytest.mark.parametrize("text, pattern", [
    ("select the entries to update, then delete them", SQL), ("Entries from 2024 <= dates", HTML),
    ("linestyle", HTML), ("a <b", HTML),
])
def test_the_patterns_pass_plain_words(text, pattern):
    assert not pattern.search(text)
