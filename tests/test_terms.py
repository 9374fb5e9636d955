"""The word index: BM25 over the stored sentences, caught up from SQLite on each search."""
from dreaming_agent.store import Store, TermIndex
from dreaming_agent.store.terms import terms


def test_a_sentences_terms_leave_out_function_words_accents_case_and_possessives():
    assert terms("What is Melanie's new job at Haar Analytics?") == ["melanie", "new", "job", "haar", "analytics"]
    assert terms("¿Dónde está mi gato Pimentón?") == ["gato", "pimenton"]
    assert terms("What is it that you do?") == []


def test_the_rarest_shared_word_ranks_first_and_a_new_sentence_is_found_on_the_next_search(tmp_path):
    store = Store(tmp_path / "memory.sqlite3")
    try:
        for day, text in enumerate(["My job at the bank is busy.", "I got a new job in May.",
                                    "The job fair was crowded.", "Haar Analytics sponsored the chess final."], start=1):
            store.add_message("s", "user", text, f"2026-03-{day:02d}T12:00:00")
        index = TermIndex()
        found = index.search(store, "What is my job at Haar?", 4)
        by_id = {s.id: s.text for s in store.sentences()}
        assert by_id[found[0][0]].startswith("Haar Analytics")  # "job" is in three sentences, "haar" in one
        assert len(found) == 4 and [score for _, score in found] == sorted((score for _, score in found), reverse=True)
        assert index.search(store, "What is it that you do?", 4) == []  # only function words: nothing shared
        assert len(index) == 4
        store.add_message("s", "user", "Ane works at Haar too.", "2026-03-05T12:00:00")
        found = index.search(store, "Who works at Haar?", 2)
        assert len(index) == 5 and by_id.get(found[0][0]) is None  # the newest sentence, read from SQLite
        assert [s.text for s in store.sentences(ids=[found[0][0]])] == ["Ane works at Haar too."]
    finally:
        store.close()
