// The latest episode of a conversation (what "No, that is wrong: ..." corrects).
MATCH (e:Episode)
WHERE e.session = $session
RETURN e.id AS id
ORDER BY e.asked_at DESC, e.id DESC
LIMIT 1
