// Schema version 3: the cognitive loop's procedural memory. One row per action type (respond_hedged,
// ask_clarification, ...) with how often it was chosen and how often that ended well, so the action
// selector's success_rate term (seed 001) learns from use.
CREATE NODE TABLE ActionStat(action STRING, attempts INT64, successes INT64, updated_at TIMESTAMP, PRIMARY KEY(action));
