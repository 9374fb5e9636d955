"""Spanish: every word list and pattern the code reads Spanish with, under the same names as `en.py`."""
from __future__ import annotations

CODE = "es"

# -- telling the language apart ------------------------------------------------------------------------------------
# Frequent Spanish words that are not English words.
DISTINCT = """el la los las un una de del que qué en y mi mis me se por para con como cómo cuál cuándo dónde quién cuánto
    cuántos cuántas es está estoy tengo tiene hay ahora antes después hace fue era llama vive trabajo ya pero muy
    más desde hoy ayer todo esto eso su sus nos le lo al"""
ALPHABET = "abcdefghijklmnopqrstuvwxyzáéíóúüñ"  # the letters its words are written with
MARKS = "¿¡"
ACCENTS = "ñáéíóú"

# -- the person speaking of themselves ----------------------------------------------------------------------------
FIRST_PERSON = "yo mi mis me conmigo"
FIRST_PERSON_PLURAL = "nosotros nosotras nos nuestro nuestra nuestros nuestras"
FIRST_PERSON_VERBS = "soy estoy tengo vivo"

# -- canned replies --------------------------------------------------------------------------------------------------
UNKNOWN = "No lo sé."
ACKNOWLEDGED = "Entendido, gracias por contármelo."
NOT_REMEMBERED = ("No lo he recordado: parece una contraseña, un PIN, un código o un número de cuenta, y eso nunca pasa "
                  "a la memoria. Tu mensaje queda solo en tu historial; para quitarlo, borra el mensaje #{id} en la "
                  "pestaña History.")

# -- names, numbers, sentences (text.py) -------------------------------------------------------------------------
NOT_NAMES = """el la los las un una unos unas yo mi mis me nosotros nuestro tu tus usted el ella ellos ellas su sus
    este esta estos estas ese esa eso esto hay aqui alli si no hola vale pues y pero o tambien entonces cuando
    que quien donde por porque como cual es era son fue soy estoy tengo tiene hoy ayer manana ahora
    del al de en con para sin sobre desde hasta muy mas menos ya usuario usuaria"""
NUMBER_WORDS = {
    "uno": "1", "una": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6", "siete": "7",
    "ocho": "8", "nueve": "9", "diez": "10", "once": "11", "doce": "12", "veinte": "20", "treinta": "30",
    "cuarenta": "40", "cincuenta": "50", "cien": "100",
}
ONE = "un"
ALIASES = {
    "spain": "espana", "germany": "alemania", "england": "inglaterra", "london": "londres",
    "new york": "nueva york", "japan": "japon", "mexico city": "ciudad de mexico", "netherlands": "paises bajos",
    "switzerland": "suiza", "seville": "sevilla", "saragossa": "zaragoza", "majorca": "mallorca",
}
TITLES = r"dra|dres|sr|sra|srta|sres|profa|sto|sta|dña|aprox|p\.ej"
ORDINAL_STOP = False  # "el 2 de diciembre"
RELATIONS = {
    "sister": "hermana hermanas", "brother": "hermano hermanos", "mother": "mama madre", "father": "papa padre",
    "grandmother": "abuela", "grandfather": "abuelo", "wife": "esposa mujer", "husband": "esposo marido",
    "son": "hijo hijos", "daughter": "hija hijas hijos", "boyfriend": "novio pareja", "girlfriend": "novia pareja",
    "friend": "amigo amiga amigos amigas", "aunt": "tia", "uncle": "tio", "cousin": "primo prima", "niece": "sobrina",
    "nephew": "sobrino", "grandson": "nieto", "granddaughter": "nieta", "neighbour": "vecino vecina",
    "boss": "jefe jefa encargado encargada", "son-in-law": "yerno", "daughter-in-law": "nuera",
    "mother-in-law": "suegra", "father-in-law": "suegro", "brother-in-law": "cunado", "sister-in-law": "cunada",
}
ANIMALS = {"dog": "perro perra perrito perrita", "cat": "gato gata gatito gatita"}
NOT_RELATIONS = "son"  # also "they are"
SMALL_TALK = """hola buenas buenos dias tardes noches gracias muchas muchisimas guau vaya uau ay jaja jajaja genial estupendo
    perfecto claro vale bien muy super que chulo adios hasta luego pronto nos vemos hablamos felicidades
    enhorabuena bienvenido bienvenida igualmente cuidate besos abrazo saludos de acuerdo uf uff bravo guay ole mola
    si"""
SMALL_TALK_FUNCTION = "muy que de nos hasta"

# -- questions (pipeline/controller.py) ---------------------------------------------------------------------------
QUESTION_WORDS = (
    "qué", "que", "cuál", "cual", "cuáles", "cuales", "quién", "quien", "quiénes", "quienes", "dónde", "donde",
    "cuándo", "cuando", "cómo", "como", "cuánto", "cuanto", "cuánta", "cuanta", "cuántos", "cuantos",
    "cuántas", "cuantas", "por qué", "en qué", "a qué", "de qué", "con quién", "a quién", "en cuál", "de dónde",
)
ASKING_OPENERS = ("sabes", "me dijiste", "recuerdas")  # not "tengo": "Tengo un gato…" tells
AND = "y"
_PRETERITE = r"\b\w{3,}(?<!caf)(?<!beb)[éí](?!\w)"  # the first-person preterite: llegué, corrí, viví
FIRST_PERSON_ASKING = r"\b(?:mi|mis|me|yo|tengo|estoy|soy|vivo|trabajo|llevo|hice|fui)\b|" + _PRETERITE
NOW = r"\b(?:ahora|actual|actuales|actualmente|hoy en d[ií]a|estos d[ií]as|en este momento)\b"
AS_OF_SAYING = r"\b(?:ahora|actualmente|hoy en d[ií]a|estos d[ií]as|en este momento|hasta ahora|hasta la fecha)\b"
PAST = (r"\b(?:antes|primer|primera|primero|anterior|solía|solia|fue|fueron|era|eran)\b"
        r"|\b\w+(?:aba|abas|ábamos|abamos|aban)\b|\b\w{2,}(?<!d)ía\b")
HISTORY = r"\b(?:veces|hasta ahora|he|hemos)\b|" + _PRETERITE
WHEN = (r"\b(?:cuándo|cuando|qué fecha|que fecha|qué día|que dia|qué mes|que mes|en qué año|cuánto tiempo|"
        r"cuanto tiempo|cuántos días|cuantos dias|cuántas semanas|cuantas semanas|cuántos meses|cuantos meses|"
        r"cuántos años|cuantos años|hace cuánto|cuánto duró|cuanto duro|antes o después|antes o despues|"
        r"desde cuándo)\b")
FOLLOW_UP = (r"\b(?:él|ella|ellos|ellas|eso|esa|ese|esos|esas|esto|allí|allá|ahí|entonces|dijiste|me has dicho|su|sus)\b"
             r"|^\W*(?:y|¿?y qué|¿?qué tal)\b")
SOMEONES = "él ella ellos ellas su sus"
MINE = "mi mis nuestro nuestra nuestros nuestras"
WE = r"\b(?:conmigo|nosotros|nosotras|nos|nuestro|nuestra|nuestros|nuestras|hemos|\w+(?:amos|emos|imos))\b"

# -- the reply turned to the person (pipeline/voice.py) -----------------------------------------------------------
ASSISTANT_SPEAKS = (
    r"\b(?:no lo sé|no sé|lo siento|lo lamento|no puedo|puedo|creo|no recuerdo|no encuentro|según mi)\b"
    r"|\bno tengo (?:la |esa |suficiente |ningún |ninguna )?(?:información|datos|acceso|registro|constancia)\b")
SPEAKS_TO_YOU = r"\b(?:tú|tus|ti|contigo|eres|estás|tienes|vives|trabajas|vas|sabes|\w{2,}(?:aste|iste))\b"
CLAUSE_JOINERS = "pero que aunque y"
TO_YOU = {"mi": "tu", "mis": "tus", "mío": "tuyo", "mía": "tuya", "míos": "tuyos", "mías": "tuyas", "yo": "tú",
          "mí": "ti", "conmigo": "contigo"}
ME_TO_YOU = "te"
YOU: tuple[str, ...] = ()
AFTER_YOU: dict[str, str] = {}
# First person singular to second, the verbs a person tells about themselves with. Not "como" ("as"), and no
# imperfect ("vivía", "era"): its first and third person are the same word, so "Amparo me daba clases" stays.
VERBS_TO_YOU = {
    "soy": "eres", "estoy": "estás", "voy": "vas", "tengo": "tienes", "he": "has", "hago": "haces", "digo": "dices",
    "quiero": "quieres", "vengo": "vienes", "salgo": "sales", "pongo": "pones", "conozco": "conoces",
    "prefiero": "prefieres", "juego": "juegas", "duermo": "duermes", "pienso": "piensas", "empiezo": "empiezas",
    "sigo": "sigues", "veo": "ves", "doy": "das", "traigo": "traes", "vuelvo": "vuelves", "conduzco": "conduces",
    "almuerzo": "almuerzas", "fui": "fuiste", "estuve": "estuviste", "tuve": "tuviste", "hice": "hiciste",
    "pude": "pudiste", "puse": "pusiste", "dije": "dijiste", "vine": "viniste", "quise": "quisiste", "di": "diste",
    "vi": "viste", "conduje": "condujiste", "traje": "trajiste",
    **{f"{stem}o": f"{stem}as" for stem in (
        "trabaj", "estudi", "llam", "dedic", "us", "llev", "habl", "nad", "cocin", "tom", "pag", "necesit", "odi",
        "ayud", "busc", "compr", "cuid", "dibuj", "enseñ", "escuch", "gan", "lleg", "mir", "pint", "practic",
        "prepar", "qued", "alquil", "viaj", "toc", "cant", "bail", "mont", "manej", "cobr", "ahorr", "visit", "mud",
        "intent", "entren", "desayun", "cen", "coleccion", "cultiv", "escal", "camin")},
    **{f"{stem}o": f"{stem}es" for stem in (
        "beb", "aprend", "corr", "comprend", "vend", "deb", "viv", "escrib", "sub", "recib", "decid", "abr",
        "sufr", "compart", "asist")},
}
NOT_VERBS = ""
# Words that end like a first-person preterite and are not one.
NOT_PRETERITE = "aquí allí ahí así josé café bebé puré comité chalé canapé esquí maní rubí"
# After these a word is a noun ("mi trabajo", "al trabajo"), not a verb ("trabajo en Basurto").
BEFORE_NOUNS = """mi tu su el la los las un una al del de en a con por para sin este ese esta esa nuevo nueva mismo
    misma"""


def preterite_to_you(word: str) -> str | None:
    """A first-person preterite or future in the second person (llegué -> llegaste, viví -> viviste, trabajaré ->
    trabajarás); None when the word is no such form."""
    if not (len(word) > 3 and word[-1] in "éí" and word not in NOT_PRETERITE.split()):
        return None
    if word.endswith(("aré", "eré", "iré")) and len(word) > 5:
        return word[:-1] + "ás"
    if word[-1] == "í":
        return word[:-1] + "iste"
    stem = word[:-1]  # busqué -> buscaste, empecé -> empezaste
    for written, said in (("gu", "g"), ("qu", "c"), ("c", "z")):
        if stem.endswith(written):
            return stem[:-len(written)] + said + "aste"
    return stem + "aste"


def unknown_first_person_verb(word: str, previous: str) -> bool:
    """"me dedico", "yo vivimos": after a pronoun already turned, a first-person verb not in `VERBS_TO_YOU`."""
    return previous in ("te", "tú") and word.endswith(("o", "mos")) and len(word) > 2


INTRODUCTION = r"me llamo|mi nombre es|soy"
BEING = r"estoy"
ARTICLE = r"una?"

# -- abstention (pipeline/abstain.py) ------------------------------------------------------------------------------
# The last two lines: a reply in the second person opens with its verb, capitalised like a name ("Eres alérgica…").
OPENERS = """según claro perdón lamentablemente actualmente ahora entonces también bueno hola sí vale desde en con
    después antes durante aunque pero porque pues sin
    eres eras fuiste estás estabas tienes tenías tuviste vives vivías viviste trabajas trabajabas trabajaste
    vas ibas haces hiciste te"""
OPENER_ENDINGS: tuple[str, ...] = ()
OWN_NAME_ASKED = r"me llamo|mi nombre|quien soy"
ASKS_NAME = "llama llaman llamaba llamo nombre nombres quien quienes"
ASKS_NUMBER = r"cuant[oa]s?|que edad"

# -- acknowledging a statement (pipeline/acknowledge.py) -----------------------------------------------------------
REFUSALS = ("lo siento", "no puedo ayudar", "no tengo información", "no lo sé", "no lo se")
ECHOES: tuple[str, ...] = ()
SECOND_PERSON = "tu tus tú te ti contigo usted"

# -- dates (pipeline/dates.py) ---------------------------------------------------------------------------------
MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre")
DATE = "{day} de {month} de {year}"
WEEK_AROUND = {"before": "la semana anterior al", "after": "la semana siguiente al"}
SAID_ON = "dicho el {day}"
WEEKDAYS = {"lunes": 0, "martes": 1, "miercoles": 2, "miércoles": 2, "jueves": 3, "viernes": 4, "sabado": 5,
            "sábado": 5, "domingo": 6}
UNITS = {"dia": 1, "dias": 1, "día": 1, "días": 1, "semana": 7, "semanas": 7}
RELATIVE_DATES = {
    "two days ago": r"\b(?:anteayer|antier|antes de ayer)\b",
    "in two days": r"\bpasado mañana\b",
    "today": r"\b(?:hoy|esta mañana|esta tarde|esta noche)\b",
    "yesterday": r"\b(?:ayer|anoche)\b",
    # "mañana" is also "morning": only a "mañana" no article or "esta/cada/por" comes before means tomorrow.
    "tomorrow": r"(?<![\w])(?<!la )(?<!esta )(?<!cada )(?<!una )(?<!por )mañana\b(?! por la)",
    "last week": r"\b(?:la semana pasada)\b",
    "next week": r"\b(?:la semana que viene|la próxima semana|la proxima semana)\b",
    "last weekday": r"\bel ({day}) pasado\b|\bdesde el ({day})\b",
    "next weekday": r"\bel próximo ({day})\b|\bel proximo ({day})\b|\bel ({day}) que viene\b",
    "weekday": r"\b(?:el|este) ({day})\b",  # "los viernes" says how often
    "ago": r"\bhace {count} ({unit})\b",
    "from now": r"\bdentro de {count} ({unit})\b",
}
DAY_OF_MONTH = (r"\b(?P<day>\d{{1,2}})\s+de\s+(?P<month>{month})\b(?:\s+(?:de|del)\s+(?P<year>(?:19|20)\d\d)\b)?",)
ELAPSED = r"\bcu[aá]nt[oa]s (d[ií]as?|semanas?|mes(?:es)?|años?)\b(?! (?:a la|al|por|cada)\b)"
ELAPSED_UNITS = {"dia": 1, "dias": 1, "día": 1, "días": 1, "semana": 7, "semanas": 7, "mes": 30.44, "meses": 30.44,
                 "año": 365.25, "años": 365.25}
ELAPSED_ONE = {"días": "día", "dias": "día", "semanas": "semana", "meses": "mes", "años": "año"}
SINCE_NOW = r"\bhace\b"
COUNTED = "{count} {unit} pasaron del {start} al {end}"
TENSE = {
    "past": (r"\b(?:fue|fui|fuimos|fueron|tuve|tuvo|tuvimos|hice|hizo|estuve|estuvo|dijo|vino|"
             r"\w{3,}(?:é|ó|aste|aron|ieron))\b"),
    "future": r"\b(?:voy|vas|va|vamos|van) a\b|\b\w{2,}(?:ré|rá|remos|rán)\b",
}

# -- grounding the Writer's facts (pipeline/grounding.py) ---------------------------------------------------------
THIRD_PERSON = "el ella ellos ellas"

# -- the Dream (dream/roles.py, dream/vocab.py, dream/validate.py) ------------------------------------------------
WORK_CUES = """trabaja trabajo trabajas trabajaba trabajar trabajando empresa empleo empleado empleada empleador
    contratado contratada"""
RESIDENCE_CUES = """vive vivo vives vivia vivir viviendo mude mudo mudamos mudaron mudarse mudado resido ciudad
    pueblo casa"""
PET_CUES = "mascota perro perra perrito perrita gato gata gatito loro pajaro conejo tortuga pez caballo"
PERSON_CUES = "bebe colega companero companera prometido prometida"
JOB_TITLES = "encargado encargada"
NAMED_BY_TRADE = """profesor profesora tutora entrenador entrenadora monitor monitora terapeuta medico medica doctora
    dentista veterinario veterinaria"""
OWN_NAMING = "mi usuario usuaria persona"
NAME_CUES = "llama llamo llamas llaman llamaba nombre apodo"
NAME_GAP = "es era fue"
SELF_RIGHT_BEFORE = "soy"
CALLERS = "yo"
FORWARD_SKIP = "es era fue mi mis un una el la su sus nuestro nuestra usuario usuaria persona de del donde"
FORWARD_LINK = "es era fue"
COMMON_WORDS = """tiene tenia vive vivia trabaja trabajaba le gusta gustan prefiere quiere planea estudia estudio visito fue
    va habla conoce alergico alergica nacio empezo"""
STOPWORDS = """los las una unos unas del con para por sin sobre desde hasta que quien donde cuando como pero muy mas
    menos esta este estos estas ese esa eso esto hay son era eran sus ella ello ellos ellas usuario usuaria persona
    tambien"""
DURABLE_TOPICS = {
    "health": """alergia alergias alergico alergica asma diabetico diabetica celiaco celiaca intolerante intolerancia
        medicina medicamento medicamentos pastilla pastillas medico enfermedad enfermo enferma embarazada embarazo
        vegano vegana vegetariano vegetariana lactosa cirugia terapia depresion ansiedad migrana epilepsia insulina
        salud lesion""",
    "work": "trabaja trabajo trabajas trabajaba trabajar empresa empleo oficina jefe jefa sueldo profesion colega",
    "family": """familia hermana hermano madre mama padre papa padres esposa esposo marido hijo hija hijos hijas bebe
        abuela abuelo primo prima tia tio pareja novio novia prometido prometida""",
    "pets": "mascota perro perra perrito gato gata gatito loro pajaro conejo tortuga",
    "plans": "planea planeo planear planes planeando proyecto boda objetivo meta",
    "home": "vivo vive vives vivia vivir mudo mude mudamos mudanza casa piso apartamento barrio direccion",
    "identity": "llamo llama nombre apodo cumpleanos naci nacio edad nacionalidad pronombres",
}
CONNECTIVES = "antes ahora actualmente anteriormente todavia ya tambien ambos ambas mientras aunque luego despues"
HABIT_WORDS = "cada diario diaria semanal mensual siempre normalmente suele suelo todos todas"

# -- the word index (store/terms.py) --------------------------------------------------------------------------------
FUNCTION_WORDS = """
el la los las lo un una unos unas y e o u ni pero sino de del al a en con sin por para sobre entre hasta desde como
es son era eran fue fueron ser estar esta este esto estos estas ese esa eso estoy estas está están he ha han has
hay había que qué cual cuál cuales quien quién quienes cuando cuándo donde dónde cómo cuanto cuánto mi mis tu tus su
sus me te se le les nos os ya no sí si muy más menos también tan yo él ella ellos ellas nosotros usted"""

# -- the bench (bench/scoring.py, bench/forming.py) ------------------------------------------------------------------
# "no sé" normalises to "no se", also the reflexive "no se mudó": it counts only at a clause end or before a word that
# introduces what is unknown.
ABSTENTIONS = (
    r"no (?:lo )?se(?=$|[.,;:!?)]| (?:nada|si|que|cual|cuales|donde|cuando|cuanto|cuanta|cuantos|cuantas|como"
    r"|quien|quienes|eso|esto|exactamente|bien|de|lo que)\b)",
    r"ni idea",
    r"desconozco",
    r"no estoy (?:segur[oa]|al tanto)",
    r"no (?:tengo|dispongo de|hay|encuentro|consta) (?:ninguna |ningun |esa |ese |esta |este |la |el |suficiente )?"
    r"(?:informacion|info|datos?|registro|constancia)",
    r"no me consta",
    r"(?:no|nunca) (?:me )?(?:lo |la )?(?:has|habias|habeis) (?:dicho|contado|mencionado|comentado|hablado)",
    r"(?:no|nunca) (?:me )?(?:lo |la )?(?:dijiste|contaste|mencionaste|comentaste)",
    r"no (?:lo )?recuerdo",
    r"no me (?:lo )?acuerdo",
)
UNNATURAL = ("no lo se", "lo siento")

# -- the Writer's entries (store/attributes.py): written in English, so only words met inside them are here ---------
ENTRY_ABOUT_USER = ""
ENTRY_SUBJECT = ""
ENTRY_OWNER = ""
ENTRY_SHAPES: dict[str, str] = {}
ENTRY_MAY_STATE: tuple[str, ...] = ()
ENTRY_WHEN = ""
ENTRY_OWN_NAME = ""
ENTRY_IS_NAMED = ""
ENTRY_PEOPLE = ""
ENTRY_SOMEONE_NAMED = ""
ENTRY_KINDS: dict[str, tuple[str, ...]] = {}  # labelled in English only: the entries are English
ENTRY_KIND_THINGS: dict[str, str] = {}
ENTRY_KIND_WORDS: dict[str, str] = {}  # the entries are English
ENTRY_ANY_THING = ""
ENTRY_THING = ""
ENTRY_OF_THE_USER = ""
ASKS_KINDS: dict[str, tuple[str, ...]] = {}  # the embedder is multilingual: English examples stand for Spanish too
ASKS_THING: dict[str, tuple[str, str]] = {}
VALUE_ENDS = r"y|por"
ARTICLES = "el la los las un una"
LEFT = r"de|desde|dej[eé]|dejamos"
LEFT_ARTICLES = r"el|la"

# -- the assistant's own earlier words (pipeline/replies.py) ----------------------------------------------------
ASKS_ABOUT_REPLIES = (r"\bme (?:dijiste|recomendaste|sugeriste|mencionaste|diste|contaste|explicaste|propusiste|aconsejaste)\b"
           r"|\b(?:nuestra|la) (?:conversacion|charla) (?:anterior|pasada)\b"
           r"|\b(?:hablamos|comentamos) (?:de|sobre)\b")

# -- credentials (secrets.py) ------------------------------------------------------------------------------------------
CREDENTIALS = (r"pin|código pin|contraseña|contraseñas|clave|código de seguridad|código de acceso|código de verificación"
               r"|número de tarjeta|número de cuenta|iban")
