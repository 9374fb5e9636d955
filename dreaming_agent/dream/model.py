"""The Dream's own types: what the model proposes, the verdict on each operation, and the two paired."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel


class DreamOperation(BaseModel):
    op: Literal["MERGE", "UPDATE", "PROMOTE", "FORGET"]
    target_ids: list[int]
    text: str | None = None
    reason: str


class DreamProposal(BaseModel):
    """The schema of the model's answer for one cluster."""

    operations: list[DreamOperation]


@dataclass
class ClusterProposal:
    """What the model proposed for one cluster, with its raw output and how it was obtained."""

    cluster: list[int]
    operations: list[DreamOperation]
    raw: list[str] = field(default_factory=list)
    retried: bool = False
    fell_back: bool = False
    error: str | None = None
    duration_ms: float = 0.0
    calls: int = 0


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str


@dataclass(frozen=True)
class Decision:
    op: DreamOperation
    verdict: Verdict
