# bench/src/calls.jq - the total number of calls in a `deepprof dump --format=json`:
# the sum of `calls` over the CSDs whose callee is a function (not the root or a
# thread node, which the runtime enters without a call).
(.ps | map({key: (.id | tostring), value: (.kind // "function")}) | from_entries) as $kind
| (.pd | map({key: (.id | tostring), value: $kind[.ps | tostring]}) | from_entries) as $pdkind
| [.csd[] | select(($pdkind[.callee | tostring] // "function") == "function") | .calls]
| add // 0
