"""Probe (round 43): the Writer on messages in languages no module knows, as they are (A) and translated into English by the model first (B). `python scripts/research/writer_unknown_language.py A,B > OUT.jsonl`; each row: the message, per variant the facts and whether grounding kept them."""
import json, sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_llm, build_embedder
from dreaming_agent.prompts import PromptLibrary, Prompt
from dreaming_agent.llm.structured import structured_call
from dreaming_agent.pipeline.writer import ExtractedFacts
from dreaming_agent.pipeline.grounding import lexical, semantic
from dreaming_agent.text import split_sentences
from dreaming_agent import lang

MESSAGES = [
 "Grosse nouvelle : la semaine dernière j'ai emménagé à Rennes, près de la gare.",
 "Je travaille maintenant comme infirmière à l'hôpital Sainte-Anne.",
 "Mon chien s'appelle Biscotte, c'est un petit teckel.",
 "Hier j'ai vendu ma vieille Clio et j'ai acheté un vélo électrique.",
 "Ma sœur Hélène est avocate à Bordeaux.",
 "Ich bin letzte Woche nach Freiburg umgezogen.",
 "Seit Montag arbeite ich bei der Firma Kranich als Buchhalter.",
 "Meine Katze heißt jetzt Wolke, vorher hieß sie Mimi.",
 "Ich esse seit einem Monat kein Fleisch mehr, ich bin Vegetarier.",
 "Am Samstag war ich mit meinem Bruder Lukas wandern.",
 "Ik woon sinds vorig jaar in Utrecht en ik werk bij een bakkerij.",
 "Mijn vriendin heet Sanne en ze is tandarts.",
 "Gisteren heb ik mijn enkel verstuikt tijdens het voetballen.",
 "Mi sono trasferita a Bologna a marzo per lavorare in una libreria.",
 "Il mio gatto si chiama Pepe ed è molto pigro.",
 "Domenica scorsa ho corso la mia prima mezza maratona.",
 "Moro em Coimbra e sou professor de matemática.",
 "O meu namorado Tiago toca guitarra numa banda.",
 "Ontem comprei um Fiat Panda usado.",
 "Mieszkam w Gdańsku i pracuję jako programistka.",
 "Mój pies ma na imię Burek.",
 "W zeszłym tygodniu zaczęłam kurs tańca.",
 "I moved to Leeds last month and I work at a bakery.",
 "My daughter Ana starts school on Monday.",
]

TRANSLATE = Prompt("translate", """Translate the person's message into English. Keep every name, place and number exactly as written, and keep what it says of time ("yesterday", "on Monday", "last week"). Reply with the English translation only.
=== user ===
$message""")

def main():
    s = Settings()
    llm = build_llm(s); emb = build_embedder(s)
    prompts = PromptLibrary.bundled()
    writer = prompts["writer"]
    variants = sys.argv[1].split(",") if len(sys.argv) > 1 else ["A", "B"]
    out = []
    for m in MESSAGES:
        row = {"message": m, "lang": lang.language(m)}
        sentences = split_sentences(m) or [m]
        svec = emb.embed_batch(sentences, role="passage")
        for v in variants:
            t0 = time.time()
            text = m
            if v in ("B", "C"):
                c = llm.complete(TRANSLATE.render(message=m), max_tokens=120)
                text = c.text.strip()
                row[v + "_translation"] = text
            p = writer if v in ("A", "B") else prompts["writer_c"]
            ex = structured_call(llm, p.render(today="2026-12-07", message=text), ExtractedFacts,
                                 lambda: ExtractedFacts(facts=[]), max_tokens=160)
            facts = [f.strip() for f in ex.value.facts if f.strip()]
            kept = []
            for f in facts:
                ver = lexical(f, m)
                if ver.ok:
                    fv = emb.embed_batch([f], role="passage")[0]
                    ver = semantic(fv, svec, 0.25)
                kept.append((f, ver.ok, ver.reason[:40]))
            row[v] = kept
            row[v + "_s"] = round(time.time() - t0, 1)
        out.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)

main()
