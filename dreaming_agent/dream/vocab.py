"""Word lists the Dream reasons with (English and Spanish): durable topics, function words, common openers."""
from __future__ import annotations

from ..text import entities, normalize, words

# Sentence openers in memory texts are capitalised but are not names ("Moved to ...", "Likes ...").
COMMON_WORDS = frozenset(
    """has had have likes liked loves loved lives lived works worked moved prefers preferred wants wanted plans
    planned enjoys enjoyed hates hated owns owned studies studied started visited went goes uses used knows met
    allergic recently currently previously usually often never always still now not born speaks spoke drinks eats
    tiene tenia vive vivia trabaja trabajaba le gusta gustan prefiere quiere planea estudia estudio visito fue va
    habla conoce alergico alergica nacio empezo user's person's""".split()
)
STOPWORDS = COMMON_WORDS | frozenset(
    """the and but for with from into onto about over under after before since until than then that this these
    those there their them they she her his him its our your you was were are been being will would could should
    can may might must does did doing done also very just some any all each every more most much many such own
    user user's person person's usuario usuaria persona who whom whose which what when where why how not now
    los las una unos unas del con para por sin sobre desde hasta que quien donde cuando como pero muy mas
    menos esta este estos estas ese esa eso esto hay son era eran sus ella ello ellos ellas tambien""".split()
)

DURABLE_TOPICS: dict[str, frozenset[str]] = {
    "health": frozenset(
        """allergy allergic allergies allergen alergia alergias alergico alergica asthma asma diabetes diabetic
        diabetico diabetica celiac celiaco celiaca intolerant intolerance intolerante intolerancia medication
        medicine medicina medicamento medicamentos pill pills pastilla pastillas doctor medico hospital illness
        disease enfermedad enfermo enferma sick pregnant embarazada embarazo vegan vegano vegana vegetarian
        vegetariano vegetariana gluten lactose lactosa surgery cirugia therapy terapia depression depresion
        anxiety ansiedad migraine migraines migrana epilepsy epilepsia insulin insulina cancer health salud
        injury lesion""".split()
    ),
    "work": frozenset(
        """work works worked working job jobs career employer employed company office boss salary profession
        colleague coworker trabaja trabajo trabajas trabajaba trabajar empresa empleo oficina jefe jefa sueldo
        profesion colega""".split()
    ),
    "family": frozenset(
        """family sister brother mother mom mum father dad parent parents wife husband son daughter children
        child kids baby grandmother grandma grandfather grandpa cousin aunt uncle partner boyfriend girlfriend
        fiance fiancee familia hermana hermano madre mama padre papa padres esposa esposo marido hijo hija hijos
        hijas bebe abuela abuelo primo prima tia tio pareja novio novia prometido prometida""".split()
    ),
    "pets": frozenset(
        """pet dog puppy cat kitten parrot bird hamster rabbit turtle mascota perro perra perrito gato gata gatito
        loro pajaro conejo tortuga""".split()
    ),
    "plans": frozenset(
        """plan plans planning planned intend intends intending goal goals wedding planea planeo planear planes
        planeando proyecto boda objetivo meta""".split()
    ),
    # Where the person lives is who they are for a memory: the Dream prompt promises it is never forgotten.
    "home": frozenset(
        """live lives lived living moved move moving home house flat apartment neighbourhood neighborhood address
        vivo vive vives vivia vivir mudo mude mudamos mudanza casa piso apartamento barrio direccion""".split()
    ),
    "identity": frozenset(
        """name named called nickname birthday born nationality pronouns identity llamo llama nombre apodo
        cumpleanos naci nacio edad nacionalidad pronombres religion hometown""".split()
    ),
}


# Words a rewrite may add to join or date facts without adding one ("previously an architect").
CONNECTIVES = frozenset(
    """previously formerly earlier before now currently anymore longer instead both also still since until later
    later used then while whereas although though however antes ahora actualmente anteriormente todavia ya tambien
    ambos ambas mientras aunque luego despues""".split()
)

# Words that make an event a habit rather than a one-off.
HABIT_WORDS = frozenset(
    """every daily weekly monthly yearly always usually often regularly each cada diario diaria semanal mensual
    siempre normalmente suele suelo todos todas""".split()
)


def durable_topics(text: str) -> dict[str, list[str]]:
    """Durable topics (health, work, family, pets, plans, identity) the text touches, with the words that say so."""
    found: dict[str, list[str]] = {}
    for word in words(normalize(text)):
        for topic, keywords in DURABLE_TOPICS.items():
            if word in keywords or (word.endswith("s") and word[:-1] in keywords):
                found.setdefault(topic, []).append(word)
    return found


def names(text: str) -> set[str]:
    """Proper nouns and numbers, minus capitalised common words that open memory sentences."""
    return {e for e in entities(text) if e not in COMMON_WORDS}


def content_words(text: str) -> set[str]:
    """Normalised words that carry meaning: no function words, no generic "user"/"person", no bare digits."""
    return {w for w in words(normalize(text)) if len(w) >= 3 and w not in STOPWORDS and not w.isdigit()}
