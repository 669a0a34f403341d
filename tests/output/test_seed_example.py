"""End to end: seed 001's full example, "Почему нейроны важны для мышления?", on the demo knowledge base.

The seed's digest reads:
    Goal:         answer_question("почему нейроны важны")
    Reasoning:    causal [нейрон → сигналы → мышление]
    Memory used:  semantic:нейрон, semantic:мышление
    Sources:      docs/нейробиология.pdf (trust=0.87)
    Contradiction: none
    Confidence:   0.78 (medium) → hedged response
    Action:       respond_hedged
"""

from __future__ import annotations

import json

from kgbrain.api import Brain
from kgbrain.reasoning.cognition.monitor import ResourceMonitor

QUESTION = "Почему нейроны важны для мышления?"


def field_lines(digest: str) -> dict[str, str]:
    out = {}
    for line in digest.splitlines()[1:]:
        key, _, value = line.strip().partition(":")
        out.setdefault(key, value.strip())
    return out


def test_the_seed_full_example(demo: Brain) -> None:
    demo.cognition.loop.monitor = ResourceMonitor(demo.config.resources, sampler=lambda: (45.0, 20.0))
    out = demo.think(QUESTION)
    d = field_lines(out.digest)
    assert out.digest.startswith("Cycle ")
    assert d["Query"] == f'"{QUESTION}"'
    assert d["Goal"] == f"answer_question({QUESTION})"
    assert d["Reasoning"] == "causal [нейрон → передача сигналов → мышление]"
    assert d["Memory used"].startswith("semantic:нейрон (conf=0.90), semantic:мышление (conf=0.87)")
    assert d["Sources"] == "docs/нейробиология.pdf (trust=0.87)"
    assert d["Contradiction"] == "none"
    assert d["Confidence"] == "0.78 (medium) → hedged response"
    assert d["Action"] == "respond_hedged"
    assert d["Duration"].endswith("ms | CPU: 45% | RAM: " + d["Duration"].split("RAM: ")[1])
    # --trace adds the ring, hypotheses with scores, why, and the alternatives.
    assert d["Ring"].startswith("2; Ring 2 triggers: the question asks for a causal answer")
    hypothesis = "causal     score=0.86 (support 0.89 - risk 0.03) conf=0.78 accepted  neuron causes"
    assert f"{hypothesis} signal_transmission enables thinking\n" in out.digest
    assert d["Why"] == "confidence=0.78 (medium) -> hedging applied"
    assert "respond_direct     0.80  blocked: tone_needs_hedging" in out.digest

    # The answer: content first (hedged as the seed's medium band says), confidence, the source with its trust.
    assert out.text == (
        "Вероятно, нейроны важны для мышления. Потому что: нейрон —вызывает→ передача сигналов —обеспечивает→ "
        "мышление. Уверенность: 78%. Источники: docs/нейробиология.pdf (доверие 0.87)."
    )
    assert out.validation.is_valid
    assert out.validation.issues == ()

    # The machine record (seed 000 JSONL format) is JSON and carries the decision.
    record = json.loads(json.dumps(out.record, ensure_ascii=False))
    assert record["module"] == "output_layer"
    assert record["event"] == "response_generated"
    assert record["state"]["goal"] == "answer_question"
    assert record["decision"]["action"] == "respond_hedged"
    assert record["decision"]["confidence"] == 0.783
    assert record["reasoning"] == ["нейрон", "→", "передача сигналов", "→", "мышление"]
    assert record["notes"] == "medium confidence, hedging applied"
    assert {"id", "type", "statement", "score", "support", "risk", "status"} <= set(record["hypotheses"][0])
    # Seed 002: the next probe is the uncertain hypothesis's check with the largest expected gain (an analogy).
    assert "kgbrain verify" in record["next_probe"]
    assert "Uncertainty:" not in out.digest  # nothing missing, no conflict, fresh and trusted evidence

    # Proposals only: nothing was executed.
    assert out.proposed_actions
    assert all(not p.executed for p in out.proposed_actions)
    assert out.proposed_actions[0].action_type == "add_association"


def test_the_same_example_in_english(demo: Brain) -> None:
    demo.cognition.loop.monitor = ResourceMonitor(demo.config.resources, sampler=lambda: (10.0, 20.0))
    out = demo.think("Why are neurons important for thinking?")
    assert out.language == "en"
    assert out.action == "respond_hedged"
    assert out.text.startswith(
        "Probably, neuron is important for thinking. Because: neuron —causes→ signal transmission"
    )
    assert "Confidence: 78%." in out.text
    assert field_lines(out.digest)["Reasoning"] == "causal [neuron → signal transmission → thinking]"
