"""What LightMem's gather shows the Responder, against what naive RAG shows: the floor, the entries, the budget."""
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.pipeline.evidence import stating
from dreaming_agent.pipeline.gather_config import GatherConfig
from dreaming_agent.testing import ScriptedLLM


def test_lightmem_shows_every_sentence_rag_shows(make_agent):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    for i in range(12):
        agent.ingest(f"Sentence {i} about my bicycle trips to the coast.", now=f"2026-03-{i + 1:02d}", learn=False)
    rag = agent.ask("Where did my bicycle trips to the coast go?", mode="rag")
    lightmem = agent.ask("Where did my bicycle trips to the coast go?", mode="lightmem")
    rag_keys = {c.key for c in rag.evidence}
    assert len(rag_keys) == 8 and rag_keys <= {c.key for c in lightmem.evidence}


def test_naive_rag_shows_its_eight_lines_when_the_persons_own_questions_crowd_the_search(make_agent, store, index):
    from dreaming_agent.pipeline.retriever import search

    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    for i in range(20):  # asked, never told: never evidence, but nearest to the question
        agent.ingest(f"Where did my bicycle trips to the coast go on day {i}?", now=f"2026-03-{i + 1:02d}", learn=False)
    for i in range(10):
        agent.ingest(f"My bicycle trip number {i} went to the harbour.", now=f"2026-04-{i + 1:02d}", learn=False)
    question = "Where did my bicycle trips to the coast go?"
    once = search(store, index, agent.embedder.embed_batch([question], role="query"), k=8, memories=False)
    assert len(once.top_sentences(0, 8)) < 8  # one search of 16 is mostly the questions
    for mode in ("rag", "lightmem"):
        shown = [c for c in agent.ask(question, mode=mode).evidence if c.kind == "sentence"]
        assert len(shown) >= 8 and all("harbour" in c.text for c in shown), mode


def _trips_each_with_an_entry(agent, store, index, embedder) -> None:
    """Twelve messages of two sentences, and an entry drawn from each that states its first one."""
    messages = [agent.ingest(f"Trip {i} on my bicycle to the coast took {i} hours. The weather was fine.",
                             now=f"2026-03-{i + 1:02d}", learn=False) for i in range(12)]
    for m in messages:
        text = f"The user cycled to the coast on trip {m.id}"
        vector = embedder.embed_batch([text], role="passage")[0]
        index.add("memories", [store.add_memory(text, source_message_ids=[m.id], embedding=vector,
                                                created_at=m.created_at)], vector[None, :])


def test_an_entry_can_be_shown_as_the_sentences_it_quotes(make_agent, store, index, embedder):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False, gather=GatherConfig(memory_min_score=0.0)))
    _trips_each_with_an_entry(agent, store, index, embedder)
    result = agent.ask("Which bicycle trips did I make?")
    assert all(c.kind == "sentence" for c in result.evidence) and "The user" not in result.prompt_text
    quoted = [c for c in result.evidence if c.record.position == 0]  # "Trip i on my bicycle…", what an entry quotes
    assert len({c.sources[0].message_id for c in result.evidence}) == 10  # RAG's 8 messages, and 2 by their entries
    assert len(quoted) == 10 and all(f"- {c.date[:10]}: {c.text}" in result.prompt_text for c in quoted)


def test_what_lightmem_adds_to_rags_sentences_fits_in_a_share_of_their_tokens(make_agent, store, index, embedder):
    def agent(extra_share):
        return make_agent(ScriptedLLM(), AgentConfig(learn=False, gather=GatherConfig(
            memory_min_score=0.0, extra_share=extra_share)))

    unlimited = agent(None)
    _trips_each_with_an_entry(unlimited, store, index, embedder)
    question = "Which bicycle trips did I make?"
    rag = unlimited.ask(question, mode="rag")
    floor = {c.key for c in rag.evidence}
    every = unlimited.ask(question)
    assert len(every.evidence) == 10  # RAG's 8 sentences and one quoted by each of two entries
    limited = agent(0.15).ask(question)  # room for one more line of the same length, not two
    assert floor < {c.key for c in limited.evidence} and len(limited.evidence) == 9
    lines = lambda result: [line for line in result.prompt_text.splitlines() if line.startswith("- ")]
    count = unlimited.llm.count_tokens
    assert sum(map(count, lines(limited))) <= 1.15 * sum(map(count, lines(rag)))
    added = [c.key for c in limited.evidence if c.key not in floor]
    best = max((c for c in every.evidence if c.key not in floor), key=lambda c: c.score)
    assert added == [best.key]  # the better of the two


def test_small_talk_naming_someone_is_never_lightmems_evidence(make_agent):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    small_talk = ["Thanks, Mel!", "Wow, Mel!", "Hey Mel!", "Totally agree, Mel.", "Good to see you, Mel!",
                  "Sounds great, Mel!"]
    told = ["Mel paints landscapes on Sundays.", "Mel ran a charity race in May.", "Mel has two kids and a dog.",
            "Mel took her family camping at the lake.", "Mel signed up for a pottery class.",
            "Mel plays the violin in the evenings.", "Mel reads a lot of fantasy novels.",
            "Mel went to a concert with her husband.", "Mel bakes bread for her neighbours.",
            "Mel swims early in the morning."]
    for day, text in enumerate(small_talk + told, start=1):
        agent.ingest(text, now=f"2026-03-{day:02d}", learn=False)
    question = "What does Mel like?"
    rag = agent.ask(question, mode="rag")
    lightmem = agent.ask(question, mode="lightmem")
    assert {c.text for c in rag.evidence} & set(small_talk)  # found by the name, naive RAG shows it
    said = [c.text for c in lightmem.evidence if c.kind == "sentence"]
    assert len(said) >= 8 and not set(said) & set(small_talk)  # sentences that tell something in its place


def test_evidence_is_in_date_order_and_never_the_persons_questions(make_agent):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    agent.ingest("I moved to Bilbao for work.", now="2026-05-01", learn=False)
    agent.ingest("Where did I move to?", now="2026-05-02", learn=False)
    agent.ingest("I lived in Valencia before the move.", now="2026-01-01", learn=False)
    for mode in ("rag", "lightmem"):
        result = agent.ask("Where did I move to?", mode=mode)
        said = [c.text for c in result.evidence]
        assert said == ["I lived in Valencia before the move.", "I moved to Bilbao for work."], mode
        assert "Where did I move to?" not in result.prompt.messages[0]["content"]


def test_an_entry_quotes_neither_small_talk_nor_questions_of_its_message(make_agent, store, index, embedder):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False, gather=GatherConfig(memory_min_score=0.0)))
    messages = [agent.ingest(f"Thanks so much, Jon! Did you get my photos? Trip {i} on my bicycle to the coast took "
                             f"{i} hours.", now=f"2026-03-{i + 1:02d}", learn=False) for i in range(12)]
    for m in messages:  # an entry sharing no word with any sentence of its message quotes the whole message
        text = f"Outing number {m.id} went well"
        vector = embedder.embed_batch([text], role="passage")[0]
        index.add("memories", [store.add_memory(text, source_message_ids=[m.id], embedding=vector,
                                                created_at=m.created_at)], vector[None, :])
    result = agent.ask("Which bicycle trips did I make?")
    floor = {c.key for c in agent.ask("Which bicycle trips did I make?", mode="rag").evidence}
    quoted = [c for c in result.evidence if c.key not in floor]
    assert quoted and all(c.text.startswith("Trip ") for c in quoted)
    assert "Thanks so much" not in result.prompt_text and "photos?" not in result.prompt_text


def test_a_speakers_name_is_not_a_word_a_sentence_shares_with_an_entry():
    message = "Gina: The weather was fine. Trip 3 on my bicycle to the coast took 3 hours."
    assert stating("Gina cycled to the coast on trip 3", message) == "Trip 3 on my bicycle to the coast took 3 hours."
    assert stating("Gina enjoys fine weather", message) == "Gina: The weather was fine."


def test_lightmem_adds_the_sentence_that_sets_itself_apart_where_naive_rag_sees_only_remarks(store, index):
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.pipeline.agent import Agent

    remarks = ["That was a while back.", "Same as last time.", "I think so too, Mel.", "Since I was twelve or so.",
               "It was a long day.", "Not really, just the usual.", "We'll see how it goes.",
               "That's what I was thinking.", "It depends on the day.", "I guess it was fine.", "Maybe next week then.",
               "It happens sometimes.", "Just a little bit.", "I was there all afternoon.", "Only when it rains."]
    told = ["I fixed my neighbour's bike this morning.", "Every Sunday I sing in the choir at St. Mary's church.",
            "I started a pottery class last month.", "We adopted a grey cat called Pixel."]
    def agent(distinctive_from=None):  # the word index is another test's
        return Agent(store=store, index=index, llm=ScriptedLLM(), embedder=UniversalSentenceEncoderEmbedder(),
                     config=AgentConfig(learn=False, gather=GatherConfig(lexical_k=0, distinctive_from=distinctive_from)))
    plain = agent()
    for day, text in enumerate(remarks + told, start=1):
        plain.ingest(f"Caroline: {text}", now=f"2026-03-{day:02d}", learn=False)
    plain.new_conversation()  # asked later: what was told is memory, not the recent turns
    question = "Would Caroline be considered religious?"
    rag = plain.ask(question, mode="rag")
    assert "choir" not in rag.prompt_text
    lightmem = plain.ask(question)
    assert "choir" in lightmem.prompt_text
    # found only once what every sentence shares was taken out of the question
    found = {c["key"]: c["text"] for c in lightmem.trace.step("Retriever").parsed}
    assert any("choir" in found[key] for key in lightmem.trace.step("Selector").parsed["set_apart"])
    assert {c.key for c in rag.evidence} < {c.key for c in lightmem.evidence}  # naive RAG's lines are all still there
    # A memory of n sentences is short for a start at n + 1, and long for one at n: then naive RAG's own 8 are found
    # that way, and they are LightMem's floor
    n = index.held("sentences")
    assert n == len(store.sentence_vectors()) >= len(remarks + told)
    assert [c.key for c in agent(distinctive_from=n + 1).ask(question, mode="rag").evidence] == \
        [c.key for c in rag.evidence]
    long = agent(distinctive_from=n).ask(question, mode="rag")
    assert "choir" in long.prompt_text
    assert "ranked less what every sentence shares" in long.trace.steps[0].decision
    assert "ranked less" not in rag.trace.steps[0].decision
    on_long = agent(distinctive_from=n).ask(question)
    assert {c.key for c in long.evidence} <= {c.key for c in on_long.evidence}
    assert {c.key for c in long.evidence} != {c.key for c in rag.evidence}
    # There the search's own first 3 are in the floor, so LightMem adds nothing that way
    assert {c.key for c in on_long.evidence} == {c.key for c in long.evidence}


def test_in_a_long_memory_lightmem_adds_the_sentence_that_shares_the_questions_rare_word(store, index):
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.pipeline.agent import Agent

    # Work, and much else; the company is named once, beside a tournament (the memory has other tournaments)
    told = ["My job at the bank is getting stressful.", "I started a new job at the library in May.",
            "Work has been busy this quarter.", "My boss wants the report by Friday.",
            "I changed jobs twice last year.", "The office moved to a bigger building.",
            "My colleague quit her job last week.", "I got a promotion at work in March.",
            "The commute to my workplace takes an hour.", "My first job was at a bakery.",
            "I work from home on Mondays.", "Our team hired two new analysts.",
            "Haar Analytics sponsored the chess tournament downtown.", "Thanks, that's great!",
            "We went hiking in the Alps in June.", "My sister adopted a kitten.",
            "I baked bread for the neighbours.", "The concert on Saturday was loud.",
            "I'm reading a novel about Japan.", "Our garden finally has tomatoes.",
            "I fixed the kitchen sink myself.", "My brother is getting married in Seville.",
            "The marathon training is going well.", "We watched a documentary about whales.",
            "My job interview at the hospital is on Tuesday.", "I quit my job at the call centre.",
            "My new job pays better.", "I love my job at the school.", "My old job at the factory was boring.",
            "I might get a job at the post office.", "My part-time job at the café ends soon.",
            "The chess club meets on Thursdays.", "A bakery sponsored the football tournament.",
            "I lost the chess final downtown.", "The bank sponsored the marathon.",
            "Our chess team won the city tournament.", "The tournament downtown drew a big crowd.",
            "My manager praised my presentation.", "I applied for a job at the museum.",
            "My salary went up this year.", "I hate the night shifts at work.",
            "The interview for the teaching job went well.", "I'm training the new intern at work."]
    embedder = UniversalSentenceEncoderEmbedder()

    def agent(distinctive_from, lexical_k=2):
        return Agent(store=store, index=index, llm=ScriptedLLM(), embedder=embedder,
                     config=AgentConfig(learn=False, gather=GatherConfig(distinctive_from=distinctive_from,
                                                                         lexical_k=lexical_k)))
    first = agent(None)
    for day, text in enumerate(told, start=1):
        first.ingest(text, now=f"2026-03-{day:02d}", learn=False)
    first.new_conversation()
    question = "What is my job at Haar?"
    n = index.held("sentences")
    rag = agent(n).ask(question, mode="rag")
    assert "Haar Analytics" not in rag.prompt_text  # cosine ranks the sentence low: little of its meaning is the question's
    without = agent(n, lexical_k=0).ask(question)
    assert "Haar Analytics" not in without.prompt_text
    lightmem = agent(n).ask(question)
    assert "Haar Analytics sponsored" in lightmem.prompt_text
    assert "Thanks" not in lightmem.prompt_text  # small talk is never evidence, however it is found
    # found by the question's rarest words, and shown for them alone
    found = {c["key"]: c["text"] for c in lightmem.trace.step("Retriever").parsed}
    assert any("Haar Analytics" in found[key] for key in lightmem.trace.step("Selector").parsed["by_words"])
    assert without.trace.step("Selector").parsed["by_words"] == []
    assert {c.key for c in without.evidence} < {c.key for c in lightmem.evidence}  # what it showed is still there
    # A short memory: the words add nothing (measured: at 100 sentences as often worse as better)
    assert "Haar Analytics" not in agent(n + 1).ask(question).prompt_text


def test_an_entry_adds_the_sentence_it_quotes_that_the_floor_lacks_though_its_message_is_shown(
        make_agent, store, index, embedder):
    """A message of several sentences, one of them among naive RAG's: the entry drawn from another of them still
    brings that one in (one sentence shown says nothing of the rest of its message)."""
    # Only the entries add to naive RAG's lines here: the search that sets sentences apart is off
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False, gather=GatherConfig(
        memory_min_score=0.0, distinctive_k=0, lexical_k=0)))
    for i in range(7):  # with the renamed dog's first sentence, naive RAG's eight
        agent.ingest(f"My dog loves the beach walk number {i}.", now=f"2026-03-{i + 1:02d}", learn=False)
    renamed = agent.ingest("We renamed the dog and she loves the beach walk too! She's called Motte now.",
                           now="2026-03-20", learn=False)
    text = "The user's dog is called Motte"
    vector = embedder.embed_batch([text], role="passage")[0]
    index.add("memories", [store.add_memory(text, source_message_ids=[renamed.id], embedding=vector,
                                            created_at=renamed.created_at)], vector[None, :])
    question = "What is my dog called on the beach walk?"
    rag = {c.text for c in agent.ask(question, mode="rag").evidence}
    assert "We renamed the dog and she loves the beach walk too!" in rag  # the message is shown...
    assert "She's called Motte now." not in rag  # ...but not the sentence the entry was drawn from
    shown = agent.ask(question).evidence
    assert "She's called Motte now." in {c.text for c in shown}
    assert all(c.kind == "sentence" for c in shown)  # quoted verbatim, not in the Writer's words


def test_an_entry_whose_sentences_are_all_shown_adds_nothing(store):
    from dreaming_agent.pipeline.evidence import adds_to
    from dreaming_agent.pipeline.retriever import Candidate

    message = store.add_message("s", "user", "We renamed the dog! She's called Motte now. It rained.").id
    entry_id = store.add_memory("The user's dog is called Motte", source_message_ids=[message])
    entry = store.memories(ids=[entry_id], with_sources=True)[0]
    sentences = {s.text: Candidate(s, 0.5) for s in store.sentences(message_ids=[message])}
    assert set(sentences) >= {"We renamed the dog!", "She's called Motte now."}
    assert adds_to(entry, [sentences["We renamed the dog!"]])
    assert not adds_to(entry, [sentences["We renamed the dog!"], sentences["She's called Motte now."]])
    assert not adds_to(entry, [sentences["We renamed the dog!"], sentences["She's called Motte now."],
                               sentences["It rained."]])
