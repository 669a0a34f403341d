"""The request models carry the limits; a bad request is one line naming each field, in the project's words."""

from __future__ import annotations

from typing import Any

import pytest

from kgbrain.errors import InvalidRequest
from kgbrain.models import AskIn, FactsIn, FactsQuery, QueryIn, RememberTool, VerifyClaimsTool, validated


@pytest.mark.parametrize(
    ("model", "data", "message"),
    [
        (AskIn, {"questio": "x"}, "field 'question': missing; field 'questio': unknown field"),
        (AskIn, {"question": "  "}, "field 'question': empty"),
        (AskIn, {"question": "x" * 1001}, "field 'question': 1,001 characters; at most 1,000"),
        (AskIn, {"question": "x", "priority": -0.5}, "field 'priority': -0.5 is outside 0..1"),
        (AskIn, {"question": "x", "goal": "dream"}, "field 'goal': Input should be 'answer_question'"),
        (FactsIn, {"facts": []}, "field 'facts': no facts given"),
        (FactsIn, {"facts": [{}], "trust": 7}, "field 'trust': 7 is outside 0..1"),
        (QueryIn, {"query": "x", "limit": 1001}, "field 'limit': 1001 is outside 1..1000"),
        (VerifyClaimsTool, {"claims": ["a"] * 101}, "field 'claims': at most 100 claims (got 101)"),
        (RememberTool, {"facts": []}, "field 'facts': no facts given"),
    ],
)
def test_a_bad_request_names_each_field(model: Any, data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRequest) as raised:
        validated(model, data)
    assert str(raised.value).startswith(message)


def test_a_query_string_says_how_to_give_a_missing_parameter() -> None:
    with pytest.raises(InvalidRequest, match=r"^field 'concept': missing \(add \?concept=\.\.\.\); field 'limit': 'x'"):
        validated(FactsQuery, {"limit": "x"}, query_string=True)
    assert validated(FactsQuery, {"concept": "neuron", "limit": "7"}, query_string=True).limit == 7


def test_the_schema_publishes_the_limits() -> None:
    props = AskIn.model_json_schema()["properties"]
    assert (props["priority"]["minimum"], props["priority"]["maximum"]) == (0, 1)
    assert props["question"]["maxLength"] == 1000
    assert FactsIn.model_json_schema()["properties"]["facts"]["minItems"] == 1
