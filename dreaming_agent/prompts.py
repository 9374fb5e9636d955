"""Prompt files from `prompts/`, rendered strictly: a missing variable is an error, never a blank."""
from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass
from pathlib import Path

from .errors import PromptError
from .llm.base import ChatMessage

_USER_MARK = "=== user ==="


@dataclass(frozen=True)
class Prompt:
    name: str
    template: str

    @property
    def version(self) -> str:
        """Content hash: recorded with each memory and bench result so results name their prompt."""
        return f"{self.name}@{hashlib.sha256(self.template.encode()).hexdigest()[:8]}"

    def render(self, **variables: object) -> list[ChatMessage]:
        """System part, then (after a line '=== user ===') the user part."""
        try:
            text = string.Template(self.template).substitute({k: str(v) for k, v in variables.items()})
        except KeyError as e:
            raise PromptError(f"Prompt '{self.name}' needs the variable {e.args[0]!r}") from e
        except ValueError as e:
            raise PromptError(f"Prompt '{self.name}' has a malformed placeholder: {e}") from e
        system, _, user = text.partition(_USER_MARK)
        messages: list[ChatMessage] = [{"role": "system", "content": system.strip()}]
        if user.strip():
            messages.append({"role": "user", "content": user.strip()})
        return messages


class PromptLibrary:
    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self._cache: dict[str, Prompt] = {}

    @classmethod
    def bundled(cls) -> "PromptLibrary":
        """The prompts shipped with the code: inside an installed wheel, else the checkout's `prompts/` folder."""
        package = Path(__file__).resolve().parent
        installed = package / "prompt_files"
        return cls(installed if installed.is_dir() else package.parent / "prompts")

    def __getitem__(self, name: str) -> Prompt:
        if name not in self._cache:
            path = self.directory / f"{name}.md"
            if not path.exists():
                raise PromptError(f"Prompt file {path} is missing; it ships in the repository's prompts/ folder.")
            self._cache[name] = Prompt(name, path.read_text(encoding="utf-8"))
        return self._cache[name]
