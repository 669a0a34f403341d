"""Questions in anyone's words (#26), on a small museum's knowledge base (tests/nlu/museum_kb.py): polite
wrappers, typos, norms asked with an infinitive, "is it true that", periods and closing times, a yes/no question
that claims a value (a year included), and measures carried by a verb. Each mechanism in both languages, with
ask, verify and check-answer agreeing on the yes/no ones.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.nlu.polite import unwrap
from kgbrain.reasoning.results import Outcome
from tests.nlu.museum_kb import write


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = write(tmp_path_factory.mktemp("museum") / "facts.jsonl")
    with Brain.open(None) as b:
        b.load([path])
        yield b


# -- 1. polite wrappers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wrapped", "question"),
    [
        ("Could you tell me when the Maritime Museum was founded?", "When was the Maritime Museum founded?"),
        ("Would you please say what an audio guide is?", "What is an audio guide?"),
        ("I'd like to know the weight of the bronze anchor.", "What is the weight of the bronze anchor?"),
        ("Do you know how long the guided tour lasts?", "How long does the guided tour last?"),
        ("Can you tell me if the east wing is restored?", "Is it true that the east wing is restored?"),
        (
            "What is the closing time of the Maritime Museum, please?",
            "What is the closing time of the Maritime Museum?",
        ),
        ("Please, is the Maritime Museum a history museum?", "Is the Maritime Museum a history museum?"),
        ("Подскажите, пожалуйста, когда основан Морской музей?", "Когда основан Морской музей?"),
        ("Не подскажете ли, какой вес у бронзового якоря?", "Какой вес у бронзового якоря?"),
        ("Скажите, можно ли есть в выставочных залах", "Можно ли есть в выставочных залах?"),
        ("Хотелось бы узнать, что такое экскурсия.", "Что такое экскурсия?"),
    ],
)
def test_a_polite_wrapper_holds_the_question(wrapped: str, question: str) -> None:
    assert unwrap(wrapped) == question


@pytest.mark.parametrize(
    "text",
    [
        "Tell me about the Maritime Museum.",
        "Расскажи о музее",
        "Can visitors touch the exhibits?",
        "What is X?",
        "Tell me a joke about cats.",
    ],
)
def test_no_wrapper_no_change(text: str) -> None:
    assert unwrap(text) == text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Could you tell me when the Maritime Museum was founded?", "1911"),
        ("I'd like to know the weight of the bronze anchor.", "850 kg"),
        ("Подскажите, какое время закрытия у Морского музея?", "19:00"),
        ("Не подскажете ли, в каком году основан Морской музей?", "1911"),
    ],
)
def test_a_wrapped_question_is_answered(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert answer.intent == "value", answer.text
    assert said in answer.text, answer.text


# -- 7. a yes/no question that claims a value: a verdict, and a year is no number of years ---------------------


@pytest.mark.parametrize(
    ("question", "outcome", "said"),
    [
        (
            "Was the Maritime Museum founded in 1905?",
            Outcome.REFUTED,
            "No, the year of foundation of Maritime Museum is 1911, not 1905",
        ),
        (
            "Was the Maritime Museum founded in 1911?",
            Outcome.SUPPORTED,
            "Yes, the year of foundation of Maritime Museum is 1911.",
        ),
        ("Был ли Морской музей основан в 1920 году?", Outcome.REFUTED, "Нет, год основания (Морской музей): 1911"),
        ("Морской музей основан в 1911 году?", Outcome.SUPPORTED, "Да, год основания (Морской музей): 1911."),
        ("Does the bronze anchor weigh 900 kg?", Outcome.REFUTED, "No, the weight of bronze anchor is 850 kg"),
    ],
)
def test_a_claimed_value_gets_a_verdict(brain: Brain, question: str, outcome: Outcome, said: str) -> None:
    answer = brain.ask(question)
    assert answer.intent == "value_check", answer.text
    assert answer.outcome is outcome, answer.text
    assert answer.text.startswith(said), answer.text
    assert "years" not in answer.text, answer.text
    assert "лет" not in answer.text, answer.text


@pytest.mark.parametrize("question", ["When was the Maritime Museum founded?", "Когда основан Морской музей?"])
def test_a_year_is_not_a_number_of_years(brain: Brain, question: str) -> None:
    answer = brain.ask(question)
    assert "1911" in answer.text, answer.text
    assert "1911 years" not in answer.text, answer.text
    assert "1911 лет" not in answer.text, answer.text


# -- 2. typos: one letter off a known word, never over an exact name ------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Whats the weight of the bronze ancor?", "850 kg"),
        ("Is the Maritme Museum a history museum?", "Yes"),
        ("Какой вес бронзового якроя?", "850 кг"),
        ("Когда основан Морской мезей?", "1911"),
    ],
)
def test_a_typo_of_a_known_word_is_read_as_it(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert answer.action == "respond_direct", answer.text
    assert said in answer.text, answer.text


def test_typo_index_takes_one_close_long_word_only() -> None:
    from kgbrain.memory.typos import TypoIndex

    index = TypoIndex(["east wing", "bronze anchor", "guided tour", "бронзовый якорь", "книга", "museum"])
    assert index.correct("ancor") == "anchor"
    assert index.correct("anchro") == "anchor"
    assert index.correct("кингу") == "книга"  # «кингу» for «книгу»: two letters swapped
    assert index.correct("anchor") is None  # known: no correction
    assert index.correct("king") is None  # too short to correct
    assert index.correct("musuem") == "museum"
    assert index.correct("garage") is None  # nothing one letter away


def test_an_unknown_word_far_from_every_name_stays_unknown(brain: Brain) -> None:
    answer = brain.ask("Is the Maritime Museum a kingdom?")
    assert answer.outcome not in (Outcome.SUPPORTED, Outcome.REFUTED), answer.text


# -- 4. "Is it true that …?" / «Правда ли, что …?» / «Верно ли, что …?»: the statement asked yes or no ---------


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("Is it true that the bronze anchor weighs 850 kg?", Outcome.SUPPORTED),
        ("Is it true that the Maritime Museum was founded in 1920?", Outcome.REFUTED),
        ("Is it true that the east wing is part of the Maritime Museum?", Outcome.SUPPORTED),
        ("Правда ли, что Морской музей основан в 1911 году?", Outcome.SUPPORTED),
        ("Правда ли, что бронзовый якорь весит 900 кг?", Outcome.REFUTED),
        ("Верно ли, что вес бронзового якоря 850 кг?", Outcome.SUPPORTED),
        ("Правда ли, что Морской музей — художественный музей?", Outcome.REFUTED),
    ],
)
def test_is_it_true_that_asks_the_statement(brain: Brain, question: str, outcome: Outcome) -> None:
    assert brain.ask(question).outcome is outcome, brain.ask(question).text


def test_a_statement_asked_yes_or_no() -> None:
    from kgbrain.reasoning.nlu.polite import as_yes_no

    assert as_yes_no("the museum was founded in 1920", False) == "Was the museum founded in 1920?"
    assert as_yes_no("the anchor weighs 850 kg", False) == "Does the anchor weigh 850 kg?"
    assert as_yes_no("музей основан в 1920 году", True) == "Музей основан в 1920 году?"


# -- 5, 6, 8. periods, closing times and measures carried by a verb: a measure of the holder, never a norm ------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("How long can I keep an audio guide?", "3 hours"),  # the holder's own period, not another's duration
        ("На сколько выдают аудиогид?", "3 часа"),
        ("До скольки работает Морской музей?", "19:00"),
        ("Until what time is the Maritime Museum open?", "19:00"),
        ("When does the Maritime Museum close?", "19:00"),
        ("Когда закрывается Морской музей?", "19:00"),
        ("How long does the guided tour last?", "90 min"),
        ("Как долго длится экскурсия?", "90 мин"),
        ("Сколько длится экскурсия?", "90 мин"),
        ("How much does the bronze anchor weigh?", "850 kg"),
        ("Сколько весит бронзовый якорь?", "850 кг"),
    ],
)
def test_a_measure_asked_in_other_words(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert answer.intent == "value", answer.text
    assert said in answer.text, answer.text
    assert "validity" not in answer.text, answer.text  # no time reading ("how long" as "until when")
    assert "Срок действия" not in answer.text, answer.text


@pytest.mark.parametrize(
    ("question", "outcome", "claim"),
    [
        ("Аудиогиды выдаются на 3 часа?", Outcome.SUPPORTED, "Аудиогиды выдаются на 3 часа."),
        ("Can I keep an audio guide for 5 hours?", Outcome.REFUTED, "The rental period of an audio guide is 5 hours."),
        ("Does the guided tour last 90 minutes?", Outcome.SUPPORTED, "The guided tour lasts 90 minutes."),
    ],
)
def test_a_period_claimed_is_checked_on_the_measure(brain: Brain, question: str, outcome: Outcome, claim: str) -> None:
    answer = brain.ask(question)
    assert answer.intent == "value_check", answer.text
    assert answer.outcome is outcome, answer.text
    [verdict] = brain.verify([claim])
    assert verdict.verdict.value == outcome.value.upper(), verdict


# -- 3. norms asked with an infinitive and its object: the action's noun, its object in any case ---------------


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("Разрешено ли есть в выставочных залах?", "Нет, не разрешено: еда в выставочных залах"),
        ("Можно ли фотографировать со вспышкой?", "Нет, не разрешено: съёмка со вспышкой"),
        ("Можно ли трогать экспонаты?", "Нет, не разрешено: прикосновение к экспонатам"),
        ("Можно ли приносить рюкзаки в залы?", "Нет, не разрешено: пронос рюкзаков в залы"),
        ("Нужно ли сдавать верхнюю одежду в гардероб?", "Да, требуется: сдача верхней одежды в гардероб"),
        ("Can I bring rucksacks into the halls?", "No, carrying rucksacks into the halls is not permitted"),
        ("Can visitors eat in the exhibition halls?", "No, eating in the exhibition halls is not permitted"),
    ],
)
def test_a_norm_asked_with_a_verb(brain: Brain, question: str, opening: str) -> None:
    answer = brain.ask(question)
    assert answer.text.startswith(opening), answer.text


@pytest.mark.parametrize(
    "question",
    ["Можно ли продавать рюкзаки в залах?", "Можно ли курить в залах?", "Can I sell rucksacks in the halls?"],
)
def test_another_verb_on_the_same_object_is_another_action(brain: Brain, question: str) -> None:
    answer = brain.ask(question)
    assert answer.outcome not in (Outcome.SUPPORTED, Outcome.REFUTED), answer.text


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("Есть в выставочных залах запрещено.", "SUPPORTED"),
        ("Фотографировать со вспышкой разрешено.", "REFUTED"),
        ("Трогать экспонаты запрещено.", "SUPPORTED"),
    ],
)
def test_verify_reads_the_verb_as_ask_does(brain: Brain, claim: str, verdict: str) -> None:
    [found] = brain.verify([claim])
    assert found.verdict.value == verdict, found


# -- 8. counts, parts and article spans -------------------------------------------------------------------------


def test_kinds_are_one_level_and_members_are_the_individuals(brain: Brain) -> None:
    kinds = brain.ask("How many kinds of museum are there?")
    assert "3" in kinds.text, kinds.text
    assert "naval history museum" not in kinds.text, kinds.text  # a kind of a kind is not listed
    members = brain.ask("How many museums are there?")
    assert members.text.startswith("There are 3"), members.text
    assert "naval" not in members.text, members.text  # one level below the class, not its leaves
    ru = brain.ask("Сколько видов музеев существует?")
    assert "3" in ru.text, ru.text
    assert "военно-морской" not in ru.text, ru.text


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("Does the Maritime Museum have a map hall?", Outcome.SUPPORTED),  # through the east wing, a part of it
        ("Есть ли у Морского музея гардероб?", Outcome.SUPPORTED),
    ],
)
def test_having_a_part(brain: Brain, question: str, outcome: Outcome) -> None:
    assert brain.ask(question).outcome is outcome


@pytest.mark.parametrize(
    ("question", "said"),
    [("What is the Old Lighthouse?", "science museum"), ("Is Old Lighthouse a museum?", "Yes")],
)
def test_a_label_with_an_article_is_named_with_or_without_it(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert answer.action == "respond_direct", answer.text
    assert said in answer.text, answer.text


def test_verify_and_check_answer_say_a_year_as_a_year(brain: Brain) -> None:
    [verdict] = brain.verify(["The Maritime Museum was founded in 1905."])
    assert verdict.verdict.value == "REFUTED", verdict
    assert "1911 year" not in verdict.explanation, verdict.explanation
    report = brain.check_answer(
        "The Maritime Museum was founded in 1905.", question="When was the Maritime Museum founded?"
    )
    assert "1911 year" not in report.text, report.text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("How fast does the panoramic lift go?", "2 m/s"),  # the verb carries the holder's one speed
        ("С какой скоростью едет панорамный лифт?", "2"),
        ("Какого веса бронзовый якорь?", "850 кг"),
    ],
)
def test_a_degree_carried_by_a_verb_asks_the_holders_measure(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert answer.intent == "value", answer.text
    assert said in answer.text, answer.text


@pytest.mark.parametrize(
    "question", ["How fast does the bronze anchor sink?", "How heavy is the panoramic lift?", "How old is the anchor?"]
)
def test_a_degree_the_holder_has_no_measure_for_is_not_answered(brain: Brain, question: str) -> None:
    answer = brain.ask(question)
    assert answer.action != "respond_direct", answer.text


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("Does the Maritime Museum close at 19:00?", Outcome.SUPPORTED),
        ("Does the Maritime Museum close at 18:30?", Outcome.REFUTED),
    ],
)
def test_a_time_of_day_is_claimed_whole(brain: Brain, question: str, outcome: Outcome) -> None:
    answer = brain.ask(question)
    assert answer.outcome is outcome, answer.text
    assert " 00" not in answer.text, answer.text


@pytest.mark.parametrize("question", ["Who founded the Maritime Museum?", "Кто основал Морской музей?"])
def test_who_is_never_answered_by_a_year(brain: Brain, question: str) -> None:
    answer = brain.ask(question)
    assert answer.action != "respond_direct", answer.text


def test_clock_times_compare_as_times() -> None:
    from kgbrain.reasoning.modes.quantities import Match, compare

    assert compare("19:00", "19:00").match is Match.SAME
    assert compare("19:00", "18:00").match is Match.DIFFERENT
    assert compare("9:30", "09:30").match is Match.SAME
