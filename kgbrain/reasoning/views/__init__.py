"""Read models over the store: the fact mirror, the hierarchy, reachability labels, caches."""
