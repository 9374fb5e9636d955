"""How long between two things, or since one, counted in code; and what a sentence said held "now" until a newer one."""
import datetime as dt

import pytest

from dreaming_agent.pipeline import elapsed
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.pipeline.dates import resolve, when
from dreaming_agent.testing import ScriptedLLM


@pytest.mark.parametrize("said, on, day", [
    ("I got a new pair of Adidas running shoes on January 10th.", "2023-02-03", "2023-01-10"),
    ("The lace broke on the 24th of January.", "2023-02-03", "2023-01-24"),
    ("On March 3, 2022 I sold the boat.", "2023-02-03", "2022-03-03"),
    ("We adopted him on December 28th.", "2023-01-05", "2022-12-28"),  # the one just past, not next year's
    ("El 3 de marzo empecé en la academia.", "2026-04-01", "2026-03-03"),
])
def test_a_day_said_by_its_month_is_the_day_it_names_and_the_line_is_left_as_said(said, on, day):
    found = when(said, on)
    assert found is not None and found.day == dt.date.fromisoformat(day) and found.absolute
    assert resolve(said, on) == said  # its words already say the day


def test_a_day_no_calendar_has_is_no_day():
    assert when("It happened on February 30th.", "2023-03-01") is None


def test_a_weekday_said_alone_gives_way_to_any_other_date_its_sentence_says():
    said = "I'm glad I got to attend the Maundy Thursday service today, it was moving."
    assert when(said, "2023-04-06").day == dt.date(2023, 4, 6)  # "today", not the Thursday before
    assert when("I started on Monday.", "2023-04-06").day == dt.date(2023, 4, 3)


LINES = [("I bought my Adidas running shoes on January 10th.", dt.date(2023, 1, 10)),
         ("I wore my sneakers to play basketball.", dt.date(2023, 2, 1)),
         ("One of the shoelaces on my old Converse sneakers broke on January 24th.", dt.date(2023, 1, 24))]


def test_between_two_things_is_counted_from_the_two_lines_that_hold_the_questions_words():
    counted = elapsed.counted("How many days passed between buying my Adidas running shoes and the day the "
                              "shoelaces on my Converse broke?", "2023-02-03", LINES, "en")
    assert (counted.start, counted.end, counted.count) == (dt.date(2023, 1, 10), dt.date(2023, 1, 24), 14)
    weeks = elapsed.counted("How many weeks passed between buying my Adidas shoes and my Converse shoelaces "
                            "breaking?", "2023-02-03", LINES, "en")
    assert weeks.count == 2


def test_since_one_thing_is_counted_to_the_day_asked_in_the_questions_language():
    counted = elapsed.counted("How many days ago did I buy my Adidas running shoes?", "2023-02-03", LINES, "en")
    assert (counted.start, counted.end, counted.count) == (dt.date(2023, 1, 10), dt.date(2023, 2, 3), 24)
    spanish = elapsed.counted("¿Hace cuántos días compré las zapatillas Adidas?", "2023-02-03", LINES, "es")
    assert spanish.count == 24 and "10 de enero de 2023" in spanish.line


@pytest.mark.parametrize("question, code", [
    ("When did I buy my Adidas running shoes?", "en"),  # asks no count
    ("How many days passed between my dentist visit and my flight?", "en"),  # no line holds its words
    ("Quanti giorni sono passati da quando ho comprato le Adidas?", None),  # a language no module knows
    ("How many days a week do I wear my Adidas running shoes?", "en"),  # how often, not how long
    ("¿Cuántos días por semana uso las zapatillas Adidas?", "es"),
])
def test_nothing_is_counted_where_no_count_is_asked_or_no_line_holds_the_question(question, code):
    assert elapsed.counted(question, "2023-02-03", LINES, code) is None


def _shoes(agent):
    agent.ingest("I bought my Adidas running shoes on January 10th.", now="2023-02-03T03:00:00", learn=False)
    agent.ingest("One of the shoelaces on my old Converse sneakers broke on January 24th.",
                 now="2023-02-03T23:00:00", learn=False)
    agent.new_conversation()


QUESTION = "How many days passed between buying my Adidas running shoes and my Converse shoelaces breaking?"


def test_an_answer_with_another_number_than_the_count_code_made_is_that_count(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "2 days."}), AgentConfig(learn=False))
    _shoes(agent)
    result = agent.ask(QUESTION)
    assert "14 days passed from 10 January 2023 to 24 January 2023" in result.prompt_text
    assert result.answer == "14 days passed from 10 January 2023 to 24 January 2023."
    assert result.trace.step("Count").parsed == {"model": "2 days.", "count": 14}
    assert result.trace.step("Elapsed").parsed["count"] == 14


@pytest.mark.parametrize("reply, question", [
    ("14 days.", QUESTION),
    # a name the lines counted from do not say: code may have counted between the wrong things
    ("I don't know.", "How many days passed between buying my Nike shoes and my Converse shoelaces breaking?"),
])
def test_an_answer_giving_the_count_or_not_knowing_what_the_lines_do_not_name_stands(make_agent, reply, question):
    agent = make_agent(ScriptedLLM(defaults={"text": reply}), AgentConfig(learn=False))
    _shoes(agent)
    result = agent.ask(question)
    assert result.trace.step("Elapsed") is not None
    assert result.answer == reply and result.trace.step("Count") is None


def test_naive_rag_counts_nothing(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "2 days."}), AgentConfig(learn=False))
    _shoes(agent)
    result = agent.ask(QUESTION, mode="rag")
    assert result.answer == "2 days." and "passed from" not in result.prompt_text


def test_what_a_sentence_said_held_now_gives_way_to_a_newer_one_unless_an_earlier_time_is_asked(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "About 9 months."}), AgentConfig(learn=False))
    agent.ingest("I've had my cat Luna for about 6 months now.", now="2023-08-11", learn=False)
    agent.ingest("I've had my cat Luna for about 9 months now.", now="2023-11-30", learn=False)
    agent.new_conversation()
    result = agent.ask("How long have I had my cat Luna?")  # not "now", and yet about what holds now
    assert "9 months" in result.prompt_text and "6 months" not in result.prompt_text
    assert not result.trace.step("Controller").parsed["current"]
    earlier = agent.ask("How long had I had my cat Luna before I was asked in November?")
    assert "9 months" in earlier.prompt_text and "6 months" in earlier.prompt_text


def test_a_count_said_earlier_the_same_day_gives_way_to_the_one_said_after_it(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Six times."}), AgentConfig(learn=False))
    agent.ingest("I've worn my black Converse sneakers four times already.", now="2023-05-24T10:00:00", learn=False)
    agent.ingest("I've worn my black Converse sneakers six times now.", now="2023-05-24T10:00:00", learn=False)
    agent.new_conversation()
    result = agent.ask("How many times have I worn my black Converse sneakers?")
    assert "six times" in result.prompt_text and "four times" not in result.prompt_text


def test_a_sentence_that_did_not_say_it_told_what_held_then_stays(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Five."}), AgentConfig(learn=False))
    agent.ingest("I completed three online courses on Coursera.", now="2023-05-20", learn=False)
    agent.ingest("I completed two online courses on edX.", now="2023-05-30", learn=False)
    agent.new_conversation()
    result = agent.ask("How many online courses have I completed?")
    assert "Coursera" in result.prompt_text and "edX" in result.prompt_text


def test_an_answer_giving_a_count_the_person_said_stands(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "5 years."}), AgentConfig(learn=False))
    agent.ingest("I worked at the Boots pharmacy for five years.", now="2021-01-10", learn=False)
    agent.ingest("I have a new desk at the Boots pharmacy.", now="2023-03-01", learn=False)
    agent.new_conversation()
    result = agent.ask("How many years have I worked at the Boots pharmacy?", now="2023-03-02T10:00:00")
    assert result.trace.step("Elapsed").parsed["count"] == 2  # between the two lines' days
    assert result.answer == "5 years." and result.trace.step("Count") is None


@pytest.mark.parametrize("reply, shown", [
    ("1 day ago.", "1 day ago."),
    # Walked with the default model, shown the count: "How many days ago did I get the Toyota Yaris?" got "I don't know."
    ("I don't know.", "1 day passed from 6 December 2026 to 7 December 2026."),
])
def test_not_knowing_a_count_the_lines_naming_all_the_question_names_tell_is_that_count(make_agent, reply, shown):
    agent = make_agent(ScriptedLLM(defaults={"text": reply}), AgentConfig(learn=False))
    agent.ingest("Also, I traded the Fiesta in for a Toyota Yaris yesterday!", now="2026-12-07T09:00:00", learn=False)
    result = agent.ask("How many days ago did I get the Toyota Yaris?", now="2026-12-07T10:00:00")
    assert "1 day passed from 6 December 2026 to 7 December 2026" in result.prompt_text
    assert result.answer == shown
    abstention = result.trace.step("Abstention")  # the Count's own ruling is the last word when it gave the count
    assert abstention is None or not abstention.parsed["abstained"]
