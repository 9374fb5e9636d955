"""Calibrate the Writer's grounding on the development conversation: what each check stops, what it wrongly drops.

Runs the real Writer (pipeline.writer.write, keeping what it extracted before any check) over the 57 user turns of
bench/scenarios/dev.json with each model and writer prompt below, scores every extracted fact with the lexical,
semantic (USE embedder) and role checks, and compares the verdicts with the hand labels in LABELS. Extractions are
cached per run (greedy decoding, so a rerun gives the same facts); --fresh recomputes them.

Run: .venv/bin/python scripts/grounding_check.py [--runs NAME,...] [--cache DIR] [--fresh] [--threshold T]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dreaming_agent.llm.llamacpp import default_gguf_path  # noqa: E402
from dreaming_agent.pipeline.grounding import lexical, role, semantic  # noqa: E402
from dreaming_agent.pipeline.writer import WriterSettings  # noqa: E402
from dreaming_agent.text import split_sentences  # noqa: E402

EVAL_MODEL = ROOT / "models" / "qwen2.5-coder-0.5b-instruct.gguf"
DEV = ROOT / "dreaming_agent" / "bench" / "scenarios" / "dev.json"

# Writer prompts tried against the shipped one (prompts/writer.md). "rewrite" asks for third-person English
# sentences; "no-example" is the shipped prompt without its answer-shape example.
REWRITE_PROMPT = """\
You write down facts about a person from one message they wrote on $today. The message may mix Spanish and English.
Write each fact as one short sentence in the third person that starts with "The user", never with "I". Use the message's own words where you can.
Rules:
- Only what the person tells about themselves and their life: people, pets, places, work, studies, health, diet, plans, hobbies, tastes.
- Keep who did what exactly as in the message; never give the person something another one did or has.
- Copy names and numbers exactly as written. Never add a name, place, number or detail that the message does not give.
- Skip weather, greetings, thanks, questions and passing moods. If nothing is worth remembering, return an empty list.
Reply with JSON only: {"facts": [...]}, a list of strings.
=== user ===
Message: $message
"""
NO_EXAMPLE_PROMPT = """\
You extract facts about the person from one message they wrote on $today.
Rules:
- Only facts the person states about themselves or their own life (people, pets, places, work, health, plans, tastes, dates).
- One short sentence per fact, starting with "The user". Keep every name, place and number exactly as written.
- Nothing about the weather, greetings, questions, or what the assistant said. Never add anything not in the message.
- If there is nothing durable to remember, return an empty list.
Reply with JSON only: {"facts": [...]}, a list of strings.
=== user ===
Message: $message
"""
PROMPTS = {"shipped": None, "rewrite": REWRITE_PROMPT, "no-example": NO_EXAMPLE_PROMPT}
MODELS = {"qwen0.5b": lambda: str(EVAL_MODEL), "smollm2": default_gguf_path}  # the app's default model
RUNS = ["qwen0.5b/shipped", "qwen0.5b/rewrite", "qwen0.5b/no-example", "smollm2/shipped", "smollm2/no-example"]

# Hand labels for every fact the runs above extracted (fact text -> label), judged against its source message:
#   ok    - everything it says, the message says about the person (copies, translations, clumsy grammar included);
#   noise - supported, but what the prompt says to skip (weather, traffic, thanks, one-off errands);
#   bad   - invented, garbled into a different claim, negated, or given to the wrong person.
# Grounding is judged on ok+noise ("supported") against bad; noise is counted separately for the prompt comparison.
OK, NOISE, BAD = "ok", "noise", "bad"
LABELS: dict[str, str] = {
    # 1 Hola! Soy Noemí. I'm trying out this app to keep track of things, a ver qué tal 😅
    "I'm trying out this app to keep track of things, a ver qué tal 😅": OK,
    "The user I'm trying out this app to keep track of things, a ver qué tal 😅": OK,
    "The user is trying out this app to keep track of things, a ver qué tal 😅": OK,
    # 2 vivo en Valencia, en el barrio de Ruzafa, y trabajo como farmacéutica en el hospital. Night shifts this week
    "I am a person who lives in Valencia, in the barrio of Ruzafa, and works as a farmacéutica in the hospital. Night shifts this week, ugh.": OK,
    "I am from Valencia, in the barrio de Ruzafa, and work as a farmacéutica in the hospital.": BAD,  # lives -> is from
    "Night shifts this week": OK,
    "The user en el barrio de Ruzafa": OK,
    "The user trabaja como farmacéutica en el hospital": OK,
    "The user vivo en Valencia": OK,
    "The user <fact 1>": BAD,  # the prompt's answer-shape placeholder, copied
    "The user <fact 2>": BAD,
    # 3 I have a cat called Pimentón, he's three... Cree que las 6 de la mañana es hora de desayunar.
    "The user Pimentón is a cat, he's three and extremely dramatic, and the 6 of the mañana is a holiday.": BAD,
    "The user has a cat called Pimentón, he's three and extremely dramatic. Cree que las 6 de la mañana es hora de desayunar.": OK,
    # 4 Speaking of breakfast: tostada con tomate y un café con avena, same as every day.
    "The user Tostada con Tomate y un café con Avena, same as every day": OK,
    "The user is speaking of breakfast": NOISE,
    "The user is the same as every day": BAD,
    "The user is tostada with tomatoes and a café with avens": BAD,  # the person *is* toast
    "The user is tostada with tomatoes and a coffee with avens": BAD,
    # 5 Llevo casi dos años siendo vegetariana, so please don't suggest recipes with meat or fish.
    "Llevo casi dos años siendo vegetariana, so please don't suggest recipes with meat or fish": OK,
    "The user Llevo casi dos años siendo vegetariana, so please don't suggest recipes with meat or fish.": OK,
    "The user has been vegetarian for nearly two years.": OK,
    "The user": BAD,  # says nothing
    # 6 My older sister Itziar keeps telling me to use some kind of planner, so this is me trying.
    "Itziar keeps telling me to use some kind of planner, so this is me trying": OK,
    "My older sister Itziar keeps telling me to use some kind of planner, so this is me trying": OK,
    "The user Itziar keeps telling me to use some kind of planner, so this is me trying": OK,
    # 7 Hace un frío raro para marzo, 9 grados esta mañana en la parada del bus.
    "The user Hace un frío raro para marzo, 9 grados esta mañana en la parada del bus.": NOISE,
    "The user has a cold weather on March 9, 2026, in the bus park.": BAD,  # 9 degrees became a date
    "The user is in a cold weather in March, with 9 degrees Celsius": NOISE,
    # 8 Took the ginger monster to the vet this morning for his yearly check-up.
    "The user Took the ginger monster to the vet this morning for his yearly check-up.": OK,
    "The user took the ginger monster to the vet this morning for his yearly check-up.": OK,
    # 9 El veterinario dice que está gordito: 6,4 kilos. He has to go on a diet...
    "The user El veterinario dice que está gordito: 6,4 kilos.": OK,
    "The user El veterinario has to go on a diet, poor thing, se acabaron las chuches.": BAD,  # the cat, not the vet
    "The user's pet has a weight of 6.4 kilograms, which is considered overweight.": OK,
    # 10 Also today I started a data analytics bootcamp, online, evenings and weekends. SQL, Python, dashboards...
    "I started a data analytics bootcamp online, evenings and weekends.": OK,
    "SQL, Python, dashboards, todo eso.": OK,
    "The user Started a data analytics bootcamp online, evenings and weekends.": OK,
    "The user Used SQL, Python, dashboards, and todo eso.": OK,
    # 11 Honestly I'm tired of the hospital shifts. Me gusta la farmacia pero quiero algo con horarios normales.
    "The user I'm tired of the hospital shifts.": OK,
    "The user Me gusta la farmacia pero quiero algo con horarios normales.": OK,
    "The user enjoys the farmacia.": OK,
    "The user is tired of hospital shifts.": OK,
    "The user loves the farmacia.": OK,
    "The user wants to have a normal schedule.": OK,
    # 12 soy alérgica a los anacardos. Nothing else, just cashews, pero es seria, llevo siempre el autoinyector.
    "The user Nothing else, just cashews, but es seria, llevo siempre el autoinyector.": OK,
    "The user The user alérgica a los anacardos.": OK,
    "The user is alérgica to anacardos.": OK,
    "The user is alérgica to the anacardos.": OK,
    # 13 El tráfico en la avenida del Puerto estaba imposible, el bus tardó 50 minutos.
    "El bus tardó 50 minutos": NOISE,
    "El tráfico en la avenida del Puerto estaba imposible": NOISE,
    "The bus tardó 50 minutos.": NOISE,
    "The user El tráfico en la avenida del Puerto estaba imposible, el bus tardó 50 minutos.": NOISE,
    # 14 Anyway, voy a hacer la compra. Thanks!
    "The user Thanks!": NOISE,
    "The user is going to make the purchase.": NOISE,
    "The user thanks for the purchase.": BAD,
    "The user wants to buy a product.": NOISE,
    # 15 Today I ran my first half marathon!! 2 horas y 4 minutos, my legs are dead.
    "The user ran his first half marathon in 2 hours and 4 minutes, my legs are dead.": OK,
    "The user ran their first half marathon, 2 hours and 4 minutes, my legs are dead.": OK,
    # 16 Itziar me mandó un audio gritando de emoción, she couldn't come this time.
    "The user Itziar me mandó un audio gritando de emoción, she couldn't come this time.": OK,
    "The user couldn't come this time": BAD,  # Itziar couldn't
    "The user couldn't come this time.": BAD,
    # 17 Also I started cello lessons last week, con una profesora que se llama Amparo. ...
    "I started cello lessons last week, con una profesora que se llama Amparo. I'm terrible but I love it.": OK,
    "The user I started cello lessons last week, con una profesora que se llama Amparo. I'm terrible but I love it.": OK,
    # 18 I applied for a junior data job in Edinburgh y me han dado entrevista para abril, once the bootcamp is over.
    "I applied for a junior data job in Edinburgh and have given interviews for April, once the bootcamp is over.": BAD,
    "The user applied for a junior data job in Edinburgh and gave an interview for April, once the bootcamp is over.": BAD,
    "The user applied for a junior data job in Edinburgh y me han dado entrevista para abril, once the bootcamp is over.": OK,
    # 19 Si sale bien tendría que dejar Valencia... all my friends are here, me da mucha pena.
    "Si sale bien tendría que dejar Valencia... all my friends are here, me da mucha pena.": OK,
    "The user The user Si sale bien tendría que dejar Valencia... all my friends are here, me da mucha pena.": OK,
    "The user's friends are here, me da mucha pena.": OK,
    # 20 El desayuno post-carrera: churros con chocolate. Zero regrets.
    "The user El desayuno post-carrera: churros con chocolate. Zero regrets.": OK,
    "The user ate a chocolate chip sandwich at the post-carrera.": BAD,
    "The user ate churros with chocolate.": OK,
    # 21 Está lloviendo a cántaros, which is so weird for Valencia.
    "The user Está lloviendo a cántaros, which is so weird for Valencia.": NOISE,
    "The user is lloviendo a cántaros, which is so weird for Valencia": BAD,  # the person is raining
    "Valencia is a city with a strange weather pattern.": NOISE,
    # 22 Hoy presenté el proyecto final del bootcamp! A dashboard on antibiotic stock in hospital pharmacies
    "The user The project final of the bootcamp! A dashboard on antibiotic stock in hospital pharmacies, obviously 😂": OK,
    "The user presented the final project of the bootcamp! A dashboard on antibiotic stock in hospital pharmacies, obviously 😂": OK,
    "The user presenté the project final of the bootcamp! A dashboard on antibiotic stock in hospital pharmacies, obviously 😂": OK,
    # 23 So that's the bootcamp done. Ha sido intensísimo, I barely slept, pero ha merecido la pena.
    "The user Ha sido intensísimo, I barely slept, pero ha merecido la pena": OK,
    "The user barely slept": OK,
    "The user had been intensísimo, I barely slept, but ha merecido la pena.": OK,
    "The user merecido la pena": OK,
    # 24 I got the job!! Junior data analyst at Haar Analytics, in Edinburgh. Empiezo a finales de mayo.
    "The user got the job!! Junior data analyst at Haar Analytics, in Edinburgh.": OK,
    "The user got the job!! Junior data analyst at Haar Analytics, in Edinburgh. Empiezo a finales de mayo.": OK,
    # 25 Así que nos mudamos a Escocia, the cat and me. Ya estoy mirando pisos en Leith.
    "The user The cat and me are from Escocia.": BAD,  # moving to, not from
    "The user The cat and me are from Leith.": BAD,
    "The user is looking at pisos in Leith.": OK,
    "The user is moving to Escocia, the cat and me.": OK,
    "The user is moving to Spain, the cat and me.": BAD,
    # 26 Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, but she's happy for me.
    "Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, pero she's happy for me": OK,
    "Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, pero she's happy for me.": OK,
    "The user Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, but she's happy for me.": OK,
    # 27 Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo.
    "Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo": OK,
    "Tengo que pensar un regalo": OK,
    "The user Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo.": OK,
    "Unai cumple 7 años el sábado que viene": OK,
    # 28 The ginger furball knocked my coffee onto the laptop this morning. Sobrevivió el portátil, por suerte.
    "The ginger furball knocked my coffee onto the laptop this morning.": OK,
    "The ginger furball knocked my coffee onto the laptop this morning. Sobrevivió el portátil, por suerte.": OK,
    "The user The ginger furball knocked my coffee onto the laptop this morning. Sobrevivió el portátil, por suerte.": OK,
    # 29 Hace un día precioso, 22 grados. Me voy a la playa un rato.
    "The user Hace un día precioso, 22 grados. Me voy a la playa un rato.": NOISE,
    "The user is going to the beach.": NOISE,
    "The user is in a hot day with 22 degrees Celsius.": NOISE,
    # 30 he vuelto a comer pescado. My doctor said my iron was low and honestly I missed it, so I'm pescatarian now.
    "The user Pequeña novedad: he vuelto a comer pescado. My doctor said my iron was low and honestly I missed it, so I'm pescatarian now. Carne sigue sin, eso sí.": OK,
    "The user ate pescado": OK,
    "The user missed it": OK,
    "The user's doctor said iron was low": OK,
    "The user's iron was low": OK,
    # 31 Le mandé a Unai un arnés de escalada para niños por su cumple, he's obsessed with climbing like his aunt.
    "Le mandé a Unai un arnés de escalada para niños por su cumple, he's obsessed with climbing like his aunt.": OK,
    "The user Le mandé a Unai un arnés de escalada para niños por su cumple, he's obsessed with climbing like his aunt.": OK,
    # 32 Últimos días en el hospital. My last shift as a pharmacist is this Thursday, qué raro se me hace.
    "The user The user Últimos días en el hospital. My last shift as a pharmacist is this Thursday, qué raro se me hace.": OK,
    "The user's last shift as a pharmacist is Thursday, which raro se me hace.": OK,
    "The user's last shift as a pharmacist is this Thursday, which raro se me hace.": OK,
    # 33 Tenemos vuelo a Edimburgo a primeros de mayo. El gato viaja conmigo en cabina, he already hates the carrier.
    "The user The user tenemos vuelo a Edimburgo a primeros de mayo. El gato viaja conmigo en cabina, he already hates the carrier.": OK,
    "The user has a vacation to Edimburgo in the first month of May. The cat has already hated the carrier.": BAD,
    "The user has a vacation to Edimburgo in the first month, and the cat has already disliked the carrier.": BAD,
    # 34 Packing is chaos. Tengo cajas hasta en la bañera.
    "Packing is chaos": OK,
    "Tengo cajas hasta en la bañera": OK,
    "The user Tengo cajas hasta en la bañera.": OK,
    "The user packs is chaos. Tengo cajas hasta en la bañera.": OK,
    # 35 Breakfast today was just coffee standing up between boxes, no judgement please.
    "The user Breakfast today was just coffee standing up between boxes, no judgement please.": OK,
    "The user breakfast today was just coffee standing up between boxes, no judgement please.": OK,
    # 36 Qué calor hoy, por cierto. 27 grados en abril, esto no es normal.
    "The user 27.10.2027": BAD,
    "The user La temperatura actual en abril es de 27 grados Celsius, lo que no es normal.": NOISE,
    "The user is currently experiencing a mild temperature of 27 degrees Celsius in April, which is not considered normal.": BAD,  # hot, not mild
    "The user's current temperature is 27 degrees Celsius, which is not normal.": BAD,  # reads as a body temperature
    # 37 Hola desde Edimburgo!! We landed on Tuesday and I still can't believe it.
    "I landed on Tuesday and I still can't believe it.": OK,
    "The user We landed on Tuesday and I still can't believe it.": OK,
    "We landed on Tuesday and I still can't believe it.": OK,
    # 38 Pimi survived the flight, solo maulló dos veces. Now he sits at the window judging the seagulls.
    "Pimi survived the flight, solo maulló dos veces. Now he sits at the window judging the seagulls.": OK,
    "The user Pimi survived the flight, solo maulló dos veces. Now he sits at the window judging the seagulls.": OK,
    # 39 My friend Dunya came up from London to help me unpack, sin ella todavía estaría durmiendo en el suelo.
    "Dunya came up from London to help me unpack, sin ella todavía estaría durmiendo en el suelo": OK,
    "The user Dunya came up from London to help me unpack, sin ella todavía estaría durmiendo en el suelo.": OK,
    # 40 El piso está en Leith, cerca del puerto. Small, but the light is amazing.
    "Small, but the light is amazing.": OK,
    "The piso está en Leith, cerca del puerto.": OK,
    "The user <smaller 1>": BAD,
    "The user <smaller 2>": BAD,
    "The user The piso está en Leith, cerca del puerto. Small, but the light is amazing.": OK,
    "The user's light is amazing.": OK,
    "The user's location is Leith, near the port.": OK,
    "The user's small piso is located in Leith.": OK,
    # 41 Weather report: 11 grados en mayo y viento de lado. Me he comprado un chubasquero amarillo.
    "The user The user comprado un chubasquero amarillo.": OK,
    "The user bought a chubasquero amarillo.": OK,
    "The user has bought a chubasquero amarillo": OK,
    # 42 Still need to find a cello teacher here, echo de menos las clases con Amparo.
    "The user Still need to find a cello teacher here, echo de menos las clases con Amparo.": OK,
    "The user still needs to find a cello teacher here, echo de menos las clases con Amparo.": OK,
    # 43 Desayuno escocés de prueba: porridge con sal. Not a fan.
    "The user Desayuno escocés de prueba: porridge con sal. Not a fan.": OK,
    "The user ate a porridge with a sweet, savory flavor.": BAD,
    "The user is a fan of porridge with sal.": BAD,  # "Not a fan"
    # 44 Mañana empiezo en Haar Analytics! Nervous and excited a partes iguales.
    "The user Mañana empiezo en Haar Analytics! Nervous and excited a partes iguales.": OK,
    "The user started in Haar Analytics! Nervous and excited a parts iguales.": BAD,  # starts tomorrow
    "The user started their day at Haar Analytics, feeling nervous and excited.": BAD,
    # 45 I bought a second-hand bike to get to work, son 20 minutos junto al río. No more buses for me.
    "The user bought a second-hand bike to get to work, son 20 minutes together al río. No more buses for me.": OK,
    "The user bought a second-hand bike to get to work, son 20 minutes together with the river.": OK,
    # 46 Took my boy to the new vet for his check-up: 5,8 kilos! The diet worked, estoy orgullosísima.
    "The user Took my boy to the new vet for his check-up: 5,8 kilos! The diet worked, estoy orgullosísima.": OK,
    "The user took his boy to the new vet for his check-up, 5,8 kilos! The diet worked, estoy orgullosísima.": OK,
    # 47 My manager seems nice from the onboarding emails, we'll see.
    "My manager seems nice from the onboarding emails, we'll see.": OK,
    "The user My manager seems nice from the onboarding emails, we'll see.": OK,
    # 48 Ayer fui a un rocódromo en el centro, the bouldering here is way harder than back home.
    "Ayer fui a un rocódromo en el centro, the bouldering here is way harder than back home": OK,
    "I went to a bouldering camp in the center, which was much harder than back home.": OK,
    "The user Ayer fui a un rocódromo en el centro, the bouldering here is way harder than back home.": OK,
    # 49 Traffic here is nothing compared to Valencia, aunque los autobuses van llenísimos.
    "The user Traffic here is nothing compared to Valencia, aunque los autobuses van llenísimos.": NOISE,
    "Traffic here is nothing compared to Valencia, although the autobuses van llenísimos.": NOISE,
    # 50 Lunch: a salmon sandwich, porque ahora puedo 🐟
    "The user I can eat a salmon sandwich because now I can 🐟": OK,
    "The user can eat a salmon sandwich because now I can 🐟": OK,
    "The user can eat a salmon sandwich because now I can 🐟.": OK,
    # 51 Two weeks into the job and I love it. Estoy haciendo dashboards de consumo eléctrico para parques eólicos.
    "I love it": OK,
    "I'm making dashboards of consumption electricity for parques and ólicos": OK,
    "I'm making dashboards of consumption electricity for parques andólicos": OK,
    "The user Estoy haciendo dashboards de consumo eléctrico para parques eólicos": OK,
    "The user I love it": OK,
    # 52 Found a cello teacher! Se llama Fiona, she's from Aberdeen and very patient with my horrible vibrato.
    "The user Fiona is from Aberdeen and very patient with my horrible vibrato": OK,
    "The user found a cello teacher! Fiona is from Aberdeen and very patient with my horrible vibrato.": OK,
    "The user found a cello teacher! Se llama Fiona, she's from Aberdeen and very patient with my horrible vibrato.": OK,
    # 53 Dunya came back for the weekend y le hice arroz negro para darle las gracias por lo de la mudanza. ...
    "The user Dunya came back for the weekend y le hice arroz negro para darle las gracias por lo de la mudanza. Me salió bastante bien.": OK,
    "The user Me salió bastante bien": OK,
    "The user came back for the weekend": BAD,  # Dunya did
    "The user gave thanks for the mudanza": BAD,  # the user thanked Dunya for helping with the move
    "The user le hice arroz negro": OK,
    "The user para darle las gracias por lo de la mudanza": OK,
    "The user was very well": BAD,
    "The user y le hice arroz negro": OK,
    # 54 Mi gato ahora duerme encima del radiador, even in June. Scottish summer, I guess.
    "The user The user mi gato ahora duerme encima del radiador, even in June. Scottish summer, I guess.": OK,
    "The user's cat now sleeps encapulated in the radiator, even in June.": OK,
    "The user's pet now duersme encima del radiador, even in June. Scottish summer, I guess.": OK,
    # 55 Itziar y Unai vienen a verme en agosto, I need to plan things for a 7-year-old.
    "I need to plan things for a 7-year-old": OK,
    "Itziar y Unai vienen a verme en agosto": OK,
    "Itziar y Unai vienen a verme en agosto, I need to plan things for a 7-year-old": OK,
    "The user Itziar y Unai vienen a verme en agosto, I need to plan things for a 7-year-old.": OK,
    # 56 It's been raining all week, pero hoy salió el sol una hora y la gente estaba en la calle ...
    "It's been raining all week, but hoy salió el sol una hora y la gente estaba en la calle como si fuera verano.": NOISE,
    "The user It's been raining all week, pero hoy salió el sol una hora y la gente estaba en la calle como si fuera verano.": NOISE,
    # 57 Breakfast: porridge again, but with honey this time. Me estoy adaptando.
    "The user Breakfast: porridge again, but with honey this time. Me estoy adaptando.": OK,
    "The user is adapting to a new breakfast with honey.": OK,
    "The user is adapting.": OK,
}


@dataclass(frozen=True)
class ScoredFact:
    run: str
    turn: int
    fact: str
    label: str  # ok | noise | bad | ? (not labelled yet)
    lexical_ok: bool
    role_ok: bool
    similarity: float  # max cosine to the message's sentences, as the Writer computes it

    @property
    def supported(self) -> bool:
        return self.label in (OK, NOISE)


def dev_turns() -> list[tuple[int, str, str]]:
    """(turn number from 1, date, text) for every user turn of the development conversation."""
    scenario = json.loads(DEV.read_text(encoding="utf-8"))
    turns = [(s["date"], t) for s in scenario["sessions"] for t in s["turns"]]
    return [(n, date, text) for n, (date, text) in enumerate(turns, start=1)]


def extract(model_path: str, prompt_text: str | None) -> dict:
    """Every turn through the real Writer; the facts as the model gave them, before any check."""
    from dreaming_agent.embed.offline import default_offline_embedder
    from dreaming_agent.llm.llamacpp import LlamaCppLLM
    from dreaming_agent.pipeline.writer import write
    from dreaming_agent.prompts import PromptLibrary
    from dreaming_agent.store import Store, VectorIndex, make_client

    prompts = PromptLibrary.bundled()
    if prompt_text is not None:
        directory = Path(tempfile.mkdtemp(prefix="writer-prompt-"))
        (directory / "writer.md").write_text(prompt_text, encoding="utf-8")
        prompts = PromptLibrary(directory)
    llm = LlamaCppLLM(model_path, n_ctx=2048)
    embedder = default_offline_embedder()
    store, index = Store(), VectorIndex(make_client())
    keep_all = WriterSettings(semantic_threshold=-2.0, duplicate_threshold=2.0)
    rows, started = [], time.perf_counter()
    for turn, date, text in dev_turns():
        message = store.add_message("dev", "user", text, date + "T12:00:00")
        outcome = write(store, index, embedder, llm, prompts, message, settings=keep_all)
        # The Writer still drops facts that fail the lexical or role check; "extracted" has them all.
        rows.append([turn, list(outcome.step.parsed["extracted"])])
        print(f"  turn {turn:2d}: {len(rows[-1][1])} facts", file=sys.stderr)
    index.drop()
    llm.close()
    return {"prompt_version": prompts["writer"].version, "seconds_per_turn": (time.perf_counter() - started) / len(rows),
            "rows": rows}


def load_run(name: str, cache: Path, fresh: bool) -> dict:
    model, prompt = name.split("/")
    path = cache / (name.replace("/", "--") + ".json")
    if path.exists() and not fresh:
        return json.loads(path.read_text(encoding="utf-8"))
    print(f"extracting {name} ...", file=sys.stderr)
    run = extract(MODELS[model](), PROMPTS[prompt])
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(run, ensure_ascii=False, indent=1), encoding="utf-8")
    return run


def score(name: str, run: dict) -> list[ScoredFact]:
    from dreaming_agent.embed.offline import default_offline_embedder

    embedder = default_offline_embedder()
    messages = {turn: text for turn, _, text in dev_turns()}
    scored = []
    for turn, facts in run["rows"]:
        if not facts:
            continue
        message = messages[turn]
        sentences = split_sentences(message) or [message]
        vectors = embedder.embed_batch(facts + sentences, role="passage")
        for fact, vector in zip(facts, vectors[: len(facts)]):
            similarity = semantic(vector, vectors[len(facts):], 0.0).similarity
            scored.append(ScoredFact(name, turn, fact, LABELS.get(fact, "?"), lexical(fact, message).ok,
                                     role(fact, message).ok, round(similarity, 4)))
    return scored


def verdicts(fact: ScoredFact, threshold: float) -> dict[str, bool]:
    """Whether each check (alone and chained as the Writer chains them) keeps the fact."""
    semantic_ok = fact.similarity >= threshold
    return {
        "lexical": fact.lexical_ok,
        f"semantic >= {threshold:.2f}": semantic_ok,
        "role": fact.role_ok,
        "lexical + semantic": fact.lexical_ok and semantic_ok,
        "lexical + semantic + role": fact.lexical_ok and semantic_ok and fact.role_ok,
    }


def check_table(facts: list[ScoredFact], threshold: float) -> list[str]:
    bad = [f for f in facts if f.label == BAD]
    good = [f for f in facts if f.supported]
    lines = [f"| check | bad stopped (of {len(bad)}) | supported dropped (of {len(good)}) |", "|---|---|---|"]
    for check in verdicts(facts[0], threshold):
        stopped = sum(not verdicts(f, threshold)[check] for f in bad)
        dropped = sum(not verdicts(f, threshold)[check] for f in good)
        lines.append(f"| {check} | {stopped} | {dropped} |")
    return lines


def sweep_table(facts: list[ScoredFact], thresholds: list[float]) -> list[str]:
    bad = [f for f in facts if f.label == BAD]
    good = [f for f in facts if f.supported]
    lines = ["| threshold | semantic: bad stopped | semantic: supported dropped | with lexical: bad stopped | with lexical: supported dropped |",
             "|---|---|---|---|---|"]
    for t in thresholds:
        def stops(f, with_lexical):
            return f.similarity < t or (with_lexical and not f.lexical_ok)
        lines.append(f"| {t:.2f} | {sum(stops(f, False) for f in bad)} | {sum(stops(f, False) for f in good)} | "
                     f"{sum(stops(f, True) for f in bad)} | {sum(stops(f, True) for f in good)} |")
    return lines


def run_table(runs: dict[str, dict], scored: dict[str, list[ScoredFact]], threshold: float) -> list[str]:
    lines = ["| run | prompt version | s/turn | turns with facts | facts | ok | noise | bad | stored ok | stored noise | stored bad |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, run in runs.items():
        facts = scored[name]
        stored = [f for f in facts if verdicts(f, threshold)["lexical + semantic + role"]]
        counts = [sum(f.label == label for f in group) for group in (facts, stored) for label in (OK, NOISE, BAD)]
        lines.append(f"| {name} | {run['prompt_version']} | {run['seconds_per_turn']:.2f} | "
                     f"{sum(1 for _, fs in run['rows'] if fs)} | {len(facts)} | " + " | ".join(map(str, counts)) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, from: {', '.join(RUNS)}")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "grounding-check")
    parser.add_argument("--fresh", action="store_true", help="re-extract even when a cached run exists")
    parser.add_argument("--threshold", type=float, default=WriterSettings().semantic_threshold)
    args = parser.parse_args()
    names = [n.strip() for n in args.runs.split(",") if n.strip()]
    runs = {name: load_run(name, args.cache, args.fresh) for name in names}
    scored = {name: score(name, run) for name, run in runs.items()}
    unlabelled = sorted({(f.turn, f.fact) for fs in scored.values() for f in fs if f.label == "?"})
    out = [f"## Runs (stored = kept by lexical + semantic >= {args.threshold:.2f} + role)", *run_table(runs, scored, args.threshold)]
    groups = {"0.5B model, all prompts": [f for n in names if n.startswith("qwen") for f in scored[n]],
              "SmolLM2, all prompts": [f for n in names if n.startswith("smollm2") for f in scored[n]]}
    thresholds = [round(0.05 * i, 2) for i in range(0, 13)] + [0.70, 0.80]  # 0.80: the default before calibration
    for title, facts in groups.items():
        if not facts:
            continue
        out += ["", f"## Checks: {title}", *check_table(facts, args.threshold),
                "", f"## Semantic threshold sweep: {title}", *sweep_table(facts, thresholds)]
    for name in names:
        out += ["", f"## Checks: {name}", *check_table(scored[name], args.threshold)] if scored[name] else []
    role_stops = [f for fs in scored.values() for f in fs if not f.role_ok]
    out += ["", "## What the role check stops", *[f"- [{f.label}] turn {f.turn}: {f.fact}" for f in role_stops]]
    if unlabelled:
        out += ["", f"## {len(unlabelled)} facts without a label (add them to LABELS)",
                *[f"- turn {t}: {json.dumps(f, ensure_ascii=False)}" for t, f in unlabelled]]
    print("\n".join(out))


if __name__ == "__main__":
    main()
