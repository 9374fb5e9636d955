"""What every model behind an HTTP server shares: a token count learnt from the server's usage, a clamped reply."""
from __future__ import annotations

import math
import threading

from .base import LLM, ChatMessage

# Prior for the chars-per-token ratio, worth this many tokens of evidence; it matches the base-class
# estimate (3.5) so the first prompts are budgeted exactly as before any call was made.
_PRIOR_CHARS_PER_TOKEN = 3.5
_PRIOR_TOKENS = 200
# Ratios outside this range come from cached prompts (a server may count only the uncached tail) or
# empty messages, and would skew the estimate.
_PLAUSIBLE_RATIO = (1.0, 8.0)
_PER_MESSAGE_OVERHEAD = 8
_PROMPT_OVERHEAD = 32


class ServedLLM(LLM):
    """A model with no local tokenizer: tokens are estimated from characters, calibrated by each reply's usage."""

    def __init__(self, context_window: int):
        self.context_window = context_window
        self._ratio_lock = threading.Lock()
        self._seen_chars = _PRIOR_CHARS_PER_TOKEN * _PRIOR_TOKENS
        self._seen_tokens = float(_PRIOR_TOKENS)

    def count_tokens(self, text: str) -> int:
        """Estimate: characters / chars-per-token, the ratio learnt from the prompt token counts served."""
        # Template tokens count in the server's prompt tokens but not in the characters, so the learnt ratio
        # slightly overstates tokens, which keeps prompt budgets on the safe side.
        return self._estimate(len(text))

    @property
    def chars_per_token(self) -> float:
        with self._ratio_lock:
            return self._seen_chars / self._seen_tokens

    def _estimate(self, chars: int) -> int:
        return math.ceil(chars / self.chars_per_token)

    def _prompt_tokens(self, messages: list[ChatMessage], served: int | None) -> int:
        """The server's prompt token count (learning the ratio from it), or the estimate when it gave none."""
        chars = sum(len(m["content"]) for m in messages)
        if not served:
            return self._estimate(chars)
        low, high = _PLAUSIBLE_RATIO
        if low <= chars / served <= high:
            with self._ratio_lock:
                self._seen_chars += chars
                self._seen_tokens += served
        return served

    def _reply_budget(self, messages: list[ChatMessage], max_tokens: int) -> int:
        prompt_tokens = _PROMPT_OVERHEAD + sum(
            self.count_tokens(m["content"]) + _PER_MESSAGE_OVERHEAD for m in messages
        )
        return max(1, min(max_tokens, self.context_window - prompt_tokens))
