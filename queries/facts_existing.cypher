// Which of the given fact ids are stored already, in any fact table.
UNWIND $ids AS i
MATCH (:Concept)-[r]->()
WHERE r.fact_id = i
RETURN DISTINCT i AS fact_id
