"""The Writer's English: how its entries, written in English about "the user" whatever language the person
wrote in, are read (store/attributes.py, store/kinds.py, pipeline/whose.py). Part of `en`, which imports every
name here; every other language module defines the same names, empty where its language has no such words."""
from __future__ import annotations

# "The user …" or "The user's job …", not "The user's sister …"
ENTRY_ABOUT_USER = (r"^\W*(?:the\s+)?user(?:'s\s+(?:new\s+|current\s+)?(?:job|work|workplace|home|house|flat|"
                    r"apartment|address)\b|\b(?!'s))")
_AUX = r"(?:(?:has|had|have|is|was|now|currently|recently|just|also|already)\s+)*"
_VERB_AT = r"(?:\b(?:the\s+)?user\s+|\band\s+)" + _AUX  # the verb of the user's own clause, or of one joined to it
# Each attribute's shapes; {value} is where its value stands.
ENTRY_SHAPES = {
    "home": (r"(?:" + _VERB_AT + r"(?:lives?|lived|living|moved|moving|relocated|settled)\s+(?:now\s+)?"
             r"(?:back\s+)?(?:in|to|into)\s+(?:an?\s+(?:new\s+)?(?:home|house|flat|apartment)\s+in\s+)?"
             r"|\buser's\s+(?:new\s+|current\s+)?(?:(?:home|address)\s+is\s+(?:now\s+)?(?:in\s+)?"
             r"|(?:house|flat|apartment)\s+is\s+(?:now\s+)?in\s+))" + "{value}"),
    "workplace": (r"(?:" + _VERB_AT + r"(?:works?|worked|working|started\s+working|is\s+employed)"
                  r"(?:\s+as\s+an?\s+[\w\s-]+?)?|\ba\s+(?:new\s+)?job"
                  r"|\buser's\s+(?:new\s+|current\s+)?(?:job|work|workplace)\s+is)"
                  r"\s+(?:now\s+)?(?:at|in|for)\s+" + "{value}"),
    # "works as a nurse"; "started a new job as a teacher", "has a position as…": a job as X is the occupation X
    "occupation": _VERB_AT + r"(?:(?:works?|worked|working|started\s+working)\s+(?:now\s+)?"
                  r"|(?:started|starts|starting|began|got|gets|took|takes|found|accepted|landed|has|had|have)\s+"
                  r"(?:an?\s+)?(?:new\s+)?(?:job|position|role)\s+)as\s+" + "{value}",
}
# What kind of thing an entry says, by the nearest of these examples (store/kinds.py): labelled entries in the Writer's
# English, not rules. An attribute here holds one value at a time, so a later entry of its kind with another value
# replaces the earlier; "other" holds what does not (where a relative lives, a trip, a feeling), so that an entry
# like them is nearer to it than to any attribute. A pet's name is keyed by the pet ("The user's dog …").
ENTRY_KINDS = {
    "home": ("The user lives in Porto", "The user moved to Glasgow", "The user has relocated to Osaka",
             "The user's new flat is in Hamburg", "The user is now a resident of Calgary",
             "The user settled in Lyon last month", "The user moved into an apartment in Kraków"),
    "workplace": ("The user works at Siemens", "The user got a job at Nordlicht Bank", "The user joined Acme Corp",
                  "The user started working for the city council", "The user accepted an offer from Vireo Labs",
                  "The user's employer is Kinto Logistics", "The user starts at Meridian on Monday"),
    "occupation": ("The user works as a nurse", "The user is a software engineer",
                   "The user's job title is product manager", "The user got promoted to team lead",
                   "The user is now a head chef", "The user became a teacher"),
    "partner": ("The user's girlfriend is Ana", "The user's husband is Tom", "The user is dating Priya",
                "The user is engaged to Sam", "The user's partner is called Lee", "The user's fiancé is Jonas"),
    "diet": ("The user is vegetarian", "The user eats a vegan diet", "The user stopped eating meat",
             "The user is pescatarian now", "The user follows a gluten-free diet"),
    "vehicle": ("The user drives a Volkswagen Golf", "The user bought a used Toyota Corolla",
                "The user's car is a Ford Focus", "The user rides a Vespa scooter"),
    "pet name": ("The user's dog is called Rex", "The user's cat is named Luna", "The user renamed the dog Milo",
                 "The user's parrot is called Kiwi"),
    "other": ("The user grew up in Nairobi", "The user is from Chile", "The user's sister lives in Madrid",
              "The user's brother works at a bank", "The user's mother is a doctor",
              "The user is planning to visit Rome in May", "The user went to Paris for a weekend",
              "The user's office is a short drive from home", "The user is nervous about the interview",
              "The user likes hiking", "The user enjoys pottery", "The user's friend Carla is from Lisbon",
              "The user's wedding is on 3 June", "The user ran a marathon on Sunday", "The user is allergic to peanuts",
              "The user has a headache", "The user drinks coffee every morning", "The user's car makes a grinding noise",
              "The user's cat sleeps on the sofa", "The user needs to break the lease", "The user's trip was moved to July",
              "The user will manage two people", "The user is working remotely", "The user's project is called Atlas",
              "The user bought a new camera", "The user's dog loves the snow", "The user sold their old bike",
              "The user's name is Sam", "The user is 34 years old", "The user speaks Portuguese",
              # people and things around a job or a diet that are not one: a manager, a team, a course, a meal,
              # a job offered and not yet taken
              "The user's manager is called Anna", "The user's team has five people", "The user's teacher is strict",
              "The user signed up for a cooking course", "The user's lunch was healthy",
              "The user got a job offer from a bank"),
}
# What kind of thing a question asks after, by the nearest of these (store/kinds.py): a question about now of a kind
# reads the profile's current value of it first. The embedder is multilingual, so these stand for other languages'
# questions too ("Dove vivo adesso?" is nearest to "Where do I live?"); "other" holds questions of no kind.
ASKS_KINDS = {
    "home": ("Where do I live?", "Which city am I living in now?", "What's my address these days?",
             "Which town did I move to?"),
    "workplace": ("Where do I work?", "Which company am I with now?", "Who is my employer?", "Which firm did I join?"),
    "occupation": ("What do I do for a living?", "What is my job?", "What's my role at work now?",
                   "What position do I have?"),
    "partner": ("Who am I dating?", "What's my boyfriend's name?", "Who is my girlfriend?", "Am I seeing anyone?"),
    "diet": ("What do I eat?", "Am I vegetarian?", "What are my eating habits now?", "Which foods do I avoid?"),
    "vehicle": ("Which car do I have?", "What do I drive these days?", "What's my car?", "What vehicle do I own?"),
    "pet name": ("What is my cat's name?", "What do I call my dog?", "What's my pet called?",
                 "What name did we give the puppy?"),
    "other": ("When is the wedding?", "Where did we go on holiday?", "How long did the race take?",
              "What's my sister's name?", "What did you recommend for dinner?", "Which museum did I visit?",
              "What hobby did I pick up?", "How old is my son?", "When did I start the course?",
              "What's my favourite book?", "Where did I grow up?", "Where does my brother live?",
              "What's my mother's job?", "What time is the flight?", "What did I buy last week?",
              "What's my manager's name?", "Who is my colleague at work?"),
}
# The question a value of a thing of theirs answers, and things it is often asked of: a question is about the thing
# whose question is nearest to it ("Wie heißt meine Katze?": the cat), of those memory holds a value for and these;
# nearest to one memory holds none for, it reads no other's ("the dog's name" is no answer about the cat).
ASKS_THING = {"pet name": ("What is my {thing}'s name?", "pet cat dog puppy kitten parrot rabbit horse hamster fish")}
# The things of theirs whose value is a kind's (store/kinds.py): "The user's flat is in Hamburg" says the home. An
# entry about another thing of theirs says that thing's, whatever it is nearest ("The user's office is in Glasgow" is
# no home, "The user's team is moving to Bergen" no occupation). A pet's name is keyed by its pet instead.
ENTRY_KIND_THINGS = {
    "home": "home house flat apartment place address location residence city town neighbourhood neighborhood",
    "workplace": "job work workplace employer company office firm",
    "occupation": "job title role position occupation profession work",
    "partner": "partner boyfriend girlfriend husband wife fiance fiancee fiancé spouse",
    "diet": "diet",
    "vehicle": "car vehicle model bike motorbike motorcycle scooter van truck",
}
# Kinds whose value is one of a few words (store/kinds.py): an entry of one that says none says something about it,
# not its value ("The user's diet is poor", said of a cat; "The user is eating honey"). Read as word beginnings.
ENTRY_KIND_WORDS = {
    "diet": "vegetarian vegan pescatarian pescetarian flexitarian omnivor keto paleo halal kosher gluten dairy lactose "
            "meat fish seafood plant-based carnivor",
}
ENTRY_ANY_THING = "new current latest official own"  # "The user's new flat …": the word after it is the thing
ENTRY_THING = r"^\W*(?:the\s+)?user's\s+(\w+)"  # whose a pet's name is: "The user's dog is called Rex" -> dog
ENTRY_OF_THE_USER = r"^\W*(?:the\s+)?user\b"  # an entry whose subject is the person or a thing of theirs
# Every shape holds one of these words (SQL LIKE patterns, for a first cut in the store)
ENTRY_MAY_STATE = ("%live%", "%living%", "%mov%", "%relocat%", "%settled%", "%work%", "%job%", "%employed%", "%home%",
                   "%house%", "%flat%", "%apartment%", "%address%")
# "works in the mornings" says when, not where
ENTRY_WHEN = (r"\b(?:mornings?|afternoons?|evenings?|nights?|shifts?|weekends?|weekdays?|summers?|"
              r"winters?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|"
              r"home|remotely|pairs?|teams?|silence)\b")
# Words that end a value: "lives in Vitoria and works…"
VALUE_ENDS = (r"and|but|for|with|since|because|after|before|from|as|at|in|this|last|next|on|where|which|who|"
              r"to\s+work|to\s+be|near|together|again|now|recently|already")
ARTICLES = "a an the"
LEFT = r"from|left|leaving|leave"  # what names the place left behind: "from Vitoria", "left Vitoria"
LEFT_ARTICLES = r"the"

# "The user's name is Claire", "The user is called Ro": the person's own name in the Writer's English, whatever
# language they told it in
ENTRY_SUBJECT = r"\buser(?:'s)?\b"  # whom an entry is about: the Dream keeps it ("Pepper's dog…" is not the user's)
ENTRY_OWNER = r"['’]s\b"  # after a name, it makes that name an owner: "Pepper's dog"
ENTRY_OWN_NAME = r"(?:the\s+)?user(?:'s\s+(?:full\s+|first\s+)?name\s+is|\s+is\s+(?:called|named))"
# "The user is Rafael": a name given as who the person is (pipeline/whose.py); a name only, nothing after it
ENTRY_IS_NAMED = r"(?:the\s+)?user\s+is"
# "The user's boyfriend Kenji …", "The user's work friend Marco …": a name memory holds as someone of theirs. Before
# the name: a relation (RELATIONS) or one of these, and a word before it at most
ENTRY_PEOPLE = "colleague coworker co-worker roommate flatmate housemate classmate teammate ex partner fiance fiancee"
ENTRY_SOMEONE_NAMED = r"^\W*(?:[Tt]he\s+)?[Uu]ser['’]s\s+(?:[a-z][\w-]*\s+)?(?:[a-z]+-)?(?:{people})\s+"
