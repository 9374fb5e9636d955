"""English: every word list and pattern the code reads English with. Word lists are whitespace-separated strings
(accents folded where the reader normalises); patterns are regular-expression fragments with their own boundaries."""
from __future__ import annotations

CODE = "en"

# -- telling the language apart ------------------------------------------------------------------------------------
# Frequent English words that are not Spanish words.
DISTINCT = """i i'm i've i'd my the an and is are was were to of in on at for with you your what what's who where when
    how do does did have has it this that from am be been will would can not don't"""
ALPHABET = "abcdefghijklmnopqrstuvwxyz"  # the letters its words are written with
MARKS = ""  # punctuation only this language writes
ACCENTS = ""  # letters that, on a tie of frequent words, make a text this language's

# -- the person speaking of themselves ----------------------------------------------------------------------------
FIRST_PERSON = "i i'm im i've i'd i'll my me mine myself"
FIRST_PERSON_PLURAL = "we we're we've us our ours"
FIRST_PERSON_VERBS = ""  # verbs that say "I" by their ending alone

# -- canned replies --------------------------------------------------------------------------------------------------
UNKNOWN = "I don't know."
ACKNOWLEDGED = "Got it, thanks for telling me."
# a message holding a credential (secrets.py): said instead of any reply; {id} is the message's number in the History tab
NOT_REMEMBERED = ("I have not remembered that: it looks like a password, PIN, code or account number, and those never "
                  "become memory. Your message stays only in your chat log; to remove it, delete message #{id} in the "
                  "History tab.")

# -- names, numbers, sentences (text.py) -------------------------------------------------------------------------
# Capitalised words that are not names: sentence openers, pronouns, titles.
NOT_NAMES = """the a an i i'm i've i'd i'll my me we our you your he she his her they their it its this that these those
    you're you've you'd you'll he's she's it's we're we've they're they've that's there's what's let's
    there here user person assistant yes no hi hello hey ok okay oh well so and but or also then when what who
    where why how which is was are were do does did have has had can could will would should may might
    today yesterday tomorrow tonight now"""
NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "hundred": "100",
}
ONE = "a an"  # the article that counts one
# Names whose English form shares too little spelling with this language's: English name -> this language's.
ALIASES: dict[str, str] = {}
# Titles and abbreviations whose full stop ends no sentence (regular-expression alternatives).
TITLES = r"dr|drs|mr|mrs|ms|mx|prof|st|jr|e\.g|i\.e|vs|approx"
# Whether a day's number is written with a full stop as an ordinal ("am 2. Dezember", "2. prosince"). English never
# does, so "My son is 7. He loves Lego." is two sentences. Where a language does, a stop after a day's number ends
# none (`text.split_sentences`): "Ich bin am 2. Dezember nach Leipzig gezogen!" had been stored in two halves.
ORDINAL_STOP = False
# Who someone is to the person, one entry per relation (the same keys in every language).
RELATIONS = {
    "sister": "sister sisters sis", "brother": "brother brothers", "mother": "mother mom mum", "father": "father dad",
    "grandmother": "grandmother grandma", "grandfather": "grandfather grandpa", "wife": "wife", "husband": "husband",
    "son": "son sons child children kids", "daughter": "daughter daughters child children kids",
    "boyfriend": "boyfriend partner", "girlfriend": "girlfriend partner", "friend": "friend friends", "aunt": "aunt",
    "uncle": "uncle", "cousin": "cousin", "niece": "niece", "nephew": "nephew", "grandson": "grandson",
    "granddaughter": "granddaughter", "neighbour": "neighbour neighbor", "boss": "boss manager supervisor",
    "son-in-law": "son-in-law", "daughter-in-law": "daughter-in-law", "mother-in-law": "mother-in-law",
    "father-in-law": "father-in-law", "brother-in-law": "brother-in-law", "sister-in-law": "sister-in-law",
}
ANIMALS = {"dog": "dog dogs puppy", "cat": "cat cats kitten"}
# Relation words that in a question of this language ask after nobody.
NOT_RELATIONS = ""
# Greeting, thanks, agreement, praise and exclamation: a sentence of only these and names tells nothing.
SMALL_TALK = """hi hello hey hiya howdy morning evening night good great nice cool awesome amazing wonderful lovely sweet
    fantastic sounds wow whoa oh ah aw aww haha hahaha lol thanks thank thx you so much very really totally definitely
    absolutely agreed agree exactly indeed sure bye goodbye later soon see talk to take care congrats
    congratulations cheers welcome glad hear same here too me that that's it's is what a
    yay woohoo hooray yippee phew ooh omg hmm job funny looks look true yes yep yeah yup nope no for"""
# Of which at least one must be said: a sentence of "you", "so" and names is not small talk, just short.
SMALL_TALK_FUNCTION = "you so much very really to take here too me that that's it's is what a for"

# -- questions (pipeline/controller.py) ---------------------------------------------------------------------------
QUESTION_WORDS = ("what", "what's", "which", "who", "whom", "whose", "where", "when", "why", "how")
ASKING_OPENERS = ("do i", "did i", "does my", "is my", "are my", "have i", "was i", "am i", "can you", "could you")
AND = "and"
# The person speaking of themselves in a question.
FIRST_PERSON_ASKING = r"\b(?:i|i'm|i've|i'd|my|me|mine|myself)\b"
NOW = r"\b(?:now|nowadays|current|currently|these days|lately|at the moment|right now|at present|still)\b"
# A sentence that says it tells what held when it was said ("I've had Luna for 6 months now", "27 species so far")
AS_OF_SAYING = (r"\b(?:now|nowadays|currently|these days|at the moment|right now|at present|so far|already|to date|"
                r"as of today)\b")
PAST = r"\b(?:before|first|used to|previous|previously|former|was|were|did)\b"
# ...or a verb in the past after who did it ("Which cities I lived in"); not any word ending in -ed: "What's my dog
# called?", "What breed is she?" ask what holds now
HISTORY = r"\b(?:have|has|had|ever|so far|times)\b|\b(?:i|we|you|he|she|they)\s+(?:\w+\s+)?\w+ed\b"
WHEN = (r"\b(?:when|what date|which date|what day|which day|what month|which month|what year|how long|"
        r"how many (?:days|weeks|months|years)|how old|ago|before or after|since when)\b")
# A pronoun or "that" with no name of its own, an opening "and", what was said in this conversation.
FOLLOW_UP = (r"\b(?:he|she|him|her|his|hers|it|its|they|them|their|that|those|there|then|you said|did you say|"
             r"you just)\b|^\W*(?:and|what about|how about|and what)\b")
SOMEONES = "he she him her his hers its they them their"  # a pronoun for someone or some animal
MINE = "my our"  # what opens a sentence about someone of the person's
WE = r"\b(?:we|we're|we've|us|our|ours)\b"  # the person among others

# -- the reply turned to the person (pipeline/voice.py) -----------------------------------------------------------
ASSISTANT_SPEAKS = (
    r"\bi\s+(?:do not|don't|did not|didn't|cannot|can't|can|could|couldn't|would|will|won't|apologi[sz]e|think|"
    r"believe|know|remember|recall|found|find|see|understand|have no|hope|need|am (?:sorry|afraid|not sure|unable))\b"
    r"|\bi['’](?:m (?:sorry|afraid|not sure|unable|here)|d|ll)\b|\b(?:to my|my) (?:knowledge|records|memory|notes)\b")
SPEAKS_TO_YOU = r"\b(?:you|your|yours|yourself|you're)\b"
CLAUSE_JOINERS = "that but and"
TO_YOU = {"i": "you", "i'm": "you're", "i've": "you've", "my": "your", "mine": "yours", "myself": "yourself"}
ME_TO_YOU = "you"
YOU = ("you", "you're")  # after these a verb of "I" takes the second person
AFTER_YOU = {"am": "are", "was": "were"}
VERBS_TO_YOU: dict[str, str] = {}
NOT_VERBS = "he"  # words of this language that another language's verb table holds
NOT_PRETERITE = ""
BEFORE_NOUNS = ""


def preterite_to_you(word: str) -> str | None:
    """English has no first-person verb ending to turn."""
    return None


def unknown_first_person_verb(word: str, previous: str) -> bool:
    return False


# Giving one's own name ("my name is Eve", "I'm Eve"), the person's or the model's speaking as someone else.
INTRODUCTION = r"my name is|my name's|call me|i['’]m|i am"
BEING = ""  # saying what one is, besides the words above ("estoy" in the 0.5B model's Spanish)
ARTICLE = r"an?"

# -- abstention (pipeline/abstain.py) ------------------------------------------------------------------------------
# Words that open a reply without naming anything ("Based on the memory, …").
OPENERS = """based according sorry unfortunately yes sure certainly actually currently now then also well hello hi
    note remember as from in on at by for with after before since during"""
OPENER_ENDINGS: tuple[str, ...] = ("ly", "ing")
OWN_NAME_ASKED = r"my (?:full )?name|who am i"
ASKS_NAME = "name names named called call who whom"
ASKS_NUMBER = r"how (?:many|much|old|long)"

# -- acknowledging a statement (pipeline/acknowledge.py) -----------------------------------------------------------
REFUSALS = ("i'm sorry", "i am sorry", "can't assist", "cannot assist", "can't help with", "cannot help with",
            "i apologize", "i don't have any information", "i do not have any information", "i don't know",
            "i do not know")
ECHOES = ("acknowledg",)  # the prompt's own instruction said back
SECOND_PERSON = "you you're your yours"

# -- dates (pipeline/dates.py) ---------------------------------------------------------------------------------
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DATE = "{day} {month} {year}"
WEEK_AROUND = {"before": "the week before", "after": "the week after"}
SAID_ON = "said {day}"  # a line dated at the day a thing happened, with the day it was told
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7}
# Relative dates by kind; {day} is any weekday, {count} and {unit} a number and a unit of time.
RELATIVE_DATES = {
    "two days ago": r"\b(?:the day before yesterday)\b",
    "in two days": r"\bthe day after tomorrow\b",
    "today": r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b",
    "yesterday": r"\b(?:yesterday|last night)\b",
    "tomorrow": r"\btomorrow\b",
    "last week": r"\b(?:last week)\b",
    "next week": r"\b(?:next week)\b",
    "last weekday": r"\blast ({day})\b|\bsince ({day})\b",
    "next weekday": r"\bnext ({day})\b",
    # a weekday said alone ("on Friday"), read by its sentence's `TENSE`; "every Friday", "on Fridays" say how often
    "weekday": r"(?<!every )(?<!each )\b({day})\b(?!s\b)",
    "ago": r"\b{count} ({unit}) ago\b",
    # Not "in three days": it is as often how long something took ("in two weeks I lost 3 kilos").
    "from now": None,
}
# A day said by its month ("on January 10th", "10 March", "March 3, 2026"); {month} is any month, the year optional.
DAY_OF_MONTH = (r"\b(?P<month>{month})\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?",
                r"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{month})\b(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?")
# How long between two things or since one, asked in a count of some unit ("How many days passed between…"); the
# unit's word is group 1. `SINCE_NOW`: counted up to the day asked ("How many weeks ago did I…").
ELAPSED = r"\bhow many (days?|weeks?|months?|years?)\b(?! (?:a|an|per|each|every)\b)"  # not how often
ELAPSED_UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30.44, "months": 30.44, "year": 365.25,
                 "years": 365.25}
ELAPSED_ONE = {"days": "day", "weeks": "week", "months": "month", "years": "year"}  # a count of 1, in words
SINCE_NOW = r"\bago\b"
COUNTED = "{count} {unit} passed from {start} to {end}"  # the count code made, first in what the Responder reads
# Whether a sentence tells of the past or of what is to come, for a weekday said alone: the one before the day it
# was said, or the one after; a sentence that tells both or neither ("We fly out on Saturday") is left unread.
TENSE = {
    # "-ed" as a verb's past, not "need" or "speed", nor a feeling ("I'm so excited about Friday")
    "past": (r"\b(?:was|were|had|did|went|got|came|took|made|met|saw|sold|bought|left|told|said|gave|tore|"
             r"broke|ran|won|lost|found|began|brought|wrote|drove|flew|ate|fell|felt|spent|paid|sent|kept|heard|"
             r"became|chose)\b|(?<!'m )(?<!\bam )(?<!'re )(?<!\bare )(?<!\bis )(?<!\bso )(?<!\bvery )(?<!\breally )"
             r"\b\w{2,}[^e\W]ed\b"),
    "future": r"\b(?:will|shall|won't|going to|gonna)\b|'ll\b|(?:'m|\bam|'re|\bare) \w+ing\b",
}

# -- grounding the Writer's facts (pipeline/grounding.py) ---------------------------------------------------------
THIRD_PERSON = "he she they"  # right before the words a fact gives to "The user": someone else did that

# -- the Dream (dream/roles.py, dream/vocab.py, dream/validate.py) ------------------------------------------------
WORK_CUES = "work works worked working job jobs employer employed employee company firm hired startup"
RESIDENCE_CUES = """live lives lived living moved move moves moving relocated based resides reside resided home hometown
    city town"""
PET_CUES = "pet pets dog dogs puppy cat cats kitten parrot bird hamster rabbit turtle fish horse"
PERSON_CUES = "baby colleague coworker fiance fiancee roommate"  # people besides the relations
JOB_TITLES = "manager supervisor"  # relations that are also jobs: "works as a manager at Acme"
NAMED_BY_TRADE = "teacher tutor coach trainer instructor therapist doctor dentist vet vets"
OWN_NAMING = "me my i'm im am user person"
NAME_CUES = "name named called nickname"
NAME_GAP = "is was"
SELF_RIGHT_BEFORE = "i'm im"
CALLERS = "i we you he she they"
FORWARD_SKIP = "is was , my the a an his her their our person user where i"
FORWARD_LINK = "is was ,"
COMMON_WORDS = """has had have likes liked loves loved lives lived works worked moved prefers preferred wants wanted plans
    planned enjoys enjoyed hates hated owns owned studies studied started visited went goes uses used knows met
    allergic recently currently previously usually often never always still now not born speaks spoke drinks eats
    user's person's"""
STOPWORDS = """the and but for with from into onto about over under after before since until than then that this these
    those there their them they she her his him its our your you was were are been being will would could should
    can may might must does did doing done also very just some any all each every more most much many such own
    user user's person person's who whom whose which what when where why how not now"""
DURABLE_TOPICS = {
    "health": """allergy allergic allergies allergen asthma diabetes diabetic celiac intolerant intolerance medication
        medicine pill pills doctor hospital illness disease sick pregnant vegan vegetarian gluten lactose surgery
        therapy depression anxiety migraine migraines epilepsy insulin cancer health injury""",
    "work": "work works worked working job jobs career employer employed company office boss salary profession "
            "colleague coworker",
    "family": """family sister brother mother mom mum father dad parent parents wife husband son daughter children
        child kids baby grandmother grandma grandfather grandpa cousin aunt uncle partner boyfriend girlfriend
        fiance fiancee""",
    "pets": "pet dog puppy cat kitten parrot bird hamster rabbit turtle",
    "plans": "plan plans planning planned intend intends intending goal goals wedding",
    "home": """live lives lived living moved move moving home house flat apartment neighbourhood neighborhood
        address""",
    "identity": "name named called nickname birthday born nationality pronouns identity religion hometown",
}
CONNECTIVES = """previously formerly earlier before now currently anymore longer instead both also still since until later
    later used then while whereas although though however"""
HABIT_WORDS = "every daily weekly monthly yearly always usually often regularly each"

# -- the word index (store/terms.py) --------------------------------------------------------------------------------
FUNCTION_WORDS = """
a an the and or but nor of to in on at for with from by about as into onto over after before than then so too very
is are was were be been being am do does did doing have has had having will would shall should can could may might
must just also any some all more most much many such own same other i you he she it we they me him her us them my
your his its our their mine yours hers ours theirs myself yourself what which who whom whose when where why how that
this these those there here not no yes if up down out off again ever never now still yet only even well oh"""

# -- the bench (bench/scoring.py, bench/forming.py) ------------------------------------------------------------------
# An answer that says it does not know (matched on normalised text).
ABSTENTIONS = (
    r"(?:don'?t|do not|does not|doesn'?t) know",
    r"not sure",
    r"no idea",
    r"(?:i have|there is|there's|i've got) no (?:information|info|record|data|details)",
    r"no (?:information|info) (?:available|about|on|regarding)",
    r"(?:don'?t|do not) have (?:any |that |this |the |enough )?(?:information|info|record|records|details|data)",
    r"(?:haven'?t|have not|didn'?t|did not|never) (?:told|tell|mentioned|mention|said|say|shared|share)",
    r"not mentioned",
    r"(?:can'?t|cannot|could not|couldn'?t|don'?t|do not) (?:recall|remember|find)",
    r"not aware",
    r"unknown to me",
)
UNNATURAL = ("i don't know", "i do not know", "can't assist", "cannot assist", "i'm sorry", "i am sorry", "as an ai",
             "don't have any information", "don't have enough information")

# -- the Writer's entries, written in English about "the user": en_entries.py --------------------------------------
from .en_entries import (  # noqa: E402,F401
    ENTRY_ABOUT_USER, ENTRY_SHAPES, ENTRY_KINDS, ASKS_KINDS, ASKS_THING, ENTRY_KIND_THINGS, ENTRY_KIND_WORDS,
    ENTRY_ANY_THING, ENTRY_THING, ENTRY_OF_THE_USER, ENTRY_MAY_STATE, ENTRY_WHEN, VALUE_ENDS, ARTICLES, LEFT,
    LEFT_ARTICLES, ENTRY_SUBJECT, ENTRY_OWNER, ENTRY_OWN_NAME, ENTRY_IS_NAMED, ENTRY_PEOPLE, ENTRY_SOMEONE_NAMED
)

# -- the assistant's own earlier words (pipeline/replies.py) ----------------------------------------------------
# How a question points at what the assistant said before (accents folded). Past tense only: "What do you
# recommend?" asks for a new reply, not an old one.
ASKS_ABOUT_REPLIES = (r"\byou (?:told|said|suggested|recommended|mentioned|gave|listed|provided|created|wrote|made|explained"
           r"|proposed|advised|shared|described|named|showed|picked|came up with)\b"
           r"|\bdid you (?:say|suggest|recommend|mention|call|name|list|give|tell)\b"
           r"|\b(?:our|that) (?:previous|earlier|last|past) (?:conversation|chat|discussion|talk|exchange|session)\b"
           r"|\bwe (?:talked|discussed|spoke|chatted) about\b")

# -- credentials (secrets.py): words naming one, as alternatives of one regular expression ---------------------------
CREDENTIALS = (r"pin|pin code|password|passwords|passcode|passphrase|security code|access code|one-time code"
               r"|verification code|cvv|cvc|api key|secret key|access token|card number|account number|sort code|iban")
