"""The sentence check on 28 labelled sentences (kind, whether the person's own words say it, the sentence): `python
docs/results/round41/contrast_probe.py` from a checkout. A: the kept check, against the example questions of no kind
(`ASKS_KINDS["other"]`); B: tried and not kept, against a contrast set of questions for each kind. 20 sentences
come from seen scenarios' fed memories, the memory-forming conversations and the walk; 8 were written for it."""
import numpy as np, sys
sys.path.insert(0,'.')
from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
from dreaming_agent.store import kinds
emb = UniversalSentenceEncoderEmbedder(); ex = kinds.for_embedder(emb)
labs=np.array(ex.asks_labels)
CONTRASTS = {
 "home": ("Where does my brother live?", "Where did we go on holiday?", "Where did I grow up?", "Where is the party?",
          "Which city am I visiting?", "Where is my trip to?"),
 "workplace": ("Where does my sister work?", "Which company offered me a job?", "Where did I take my dog?",
               "Which shop did I go to?"),
 "occupation": ("What's my mother's job?", "What hobby did I pick up?", "Who is my manager?", "What does my colleague do?",
                "Which course am I taking?", "What did my dog learn?"),
 "partner": ("Who is my best friend?", "Who is my colleague at work?", "Who is my brother married to?"),
 "diet": ("What does my dog eat?", "What did I have for lunch?", "What does my sister eat?"),
 "vehicle": ("What car does my brother drive?", "Which bike did I rent?"),
 "pet name": ("What is my neighbour's dog called?", "What's my friend's cat called?"),
}
CV = {k: np.asarray(emb.embed_batch(list(v), role='query'), dtype=np.float32) for k, v in CONTRASTS.items()}
cases = [
 ("occupation", 0, "Her name is Lieke, she's a graphic designer, and we talked for an hour after the class."),
 ("occupation", 0, "My manager there is Priya, she leads the data department."),
 ("home", 0, "Tomorrow is mum's party in Leeuwarden."),
 ("workplace", 0, "Byliśmy z Kluską pierwszy raz u weterynarza w Gdańsku."),
 ("occupation", 0, "Also I started cello lessons last week, con una profesora que se llama Amparo."),
 ("home", 0, "Scottish summer, I guess."),
 ("occupation", 0, "Ieri Totò ha finito il corso di obbedienza, quasi il primo della classe!"),
 ("home", 0, "Estoy aprendiendo japonés para un viaje a Tokio en octubre."),
 ("occupation", 0, "Moja siostra jest pielęgniarką."),
 ("home", 0, "My brother lives in Madrid."),
 ("home", 0, "We went to Paris for the weekend."),
 ("workplace", 0, "Meine Schwester arbeitet bei der Bank."),
 ("occupation", 1, "Found out on Thursday that I passed probation early, and they've changed my title from research lead to Design Research Manager!"),
 ("pet name", 1, "I've renamed him Totò, after the old Italian comedian my nonna loves, and he already turns his head when I say it."),
 ("occupation", 1, "My name is Lucía and I work as a nurse at the Hospital del Mar."),
 ("home", 1, "Me mudé de Valencia a Barcelona hace dos años."),
 ("home", 1, "Hi! I'm Dana, I live in Leeds and I work as a pharmacist."),
 ("occupation", 1, "Hi! I'm Dana, I live in Leeds and I work as a pharmacist."),
 ("home", 1, "Big news: I moved to Bristol last week and started a new job as a teacher."),
 ("occupation", 1, "Big news: I moved to Bristol last week and started a new job as a teacher."),
 ("home", 1, "Jag heter Dana, jag bor i Leeds och jobbar som apotekare."),
 ("home", 1, "Je m'appelle Claire et j'habite à Lyon."),
 ("partner", 1, "Mi novio Jordi es profesor de música."),
 ("occupation", 1, "I'm Tomás, I'm 34 and I teach history at a secondary school in Bilbao."),
 ("vehicle", 1, "I traded the Fiesta in for a Toyota Yaris."),
 ("diet", 1, "Ik ben sinds maandag volledig veganistisch."),
 ("workplace", 1, "I joined Kestrel Health on Monday."),
 ("home", 1, "Sinds afgelopen zaterdag woon ik officieel in Utrecht."),
]
agreeA = agreeB = 0
for kind, keep, s in cases:
    v = np.asarray(emb.embed_batch([s], role='passage'), dtype=np.float32)
    sc = (v @ ex.asks_vectors.T)[0]
    k = sc[labs == kind].max()
    a = bool(sc[labs == 'other'].max() - k < ex.margin)
    c = float((v @ CV[kind].T).max())
    b = bool(c - k < ex.margin)
    agreeA += a == bool(keep); agreeB += b == bool(keep)
    print(f"{kind:10} keep={keep} A={a!s:5} ({sc[labs=='other'].max()-k:+.2f}) B={b!s:5} ({c-k:+.2f}) {s[:70]}")
print("agree A", agreeA, "B", agreeB, "of", len(cases), "margin", ex.margin)
