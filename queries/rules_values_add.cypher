// Literal values that rule heads state (rows of id, lexical, datatype, unit, lang, number).
LOAD FROM $rows
MERGE (v:Value {id: id})
ON CREATE SET v.lexical = lexical, v.datatype = datatype, v.unit = unit, v.lang = lang, v.number = number
