// Concepts that rules name (classes of unary atoms, constants) and no fact has created yet (rows of id).
LOAD FROM $rows
MERGE (c:Concept {id: id})
ON CREATE SET c.kind = 'class'
