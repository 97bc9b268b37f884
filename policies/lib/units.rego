# METADATA
# title: Unit rendering
# description: Renders byte counts and millisecond durations for messages, the way ckptlint's Go side does.
package ckptlint.lib.units

# bytes renders n bytes as "128 MiB", "1 MiB", "43 GiB", "1.5 GiB" or "1000 B":
# in the largest unit that n reaches (an else chain, largest unit first, so a
# call costs a few comparisons: it runs in many finding messages).
bytes(n) := _with_unit(n, "TiB", 1099511627776) if {
	n >= 1099511627776
} else := _with_unit(n, "GiB", 1073741824) if {
	n >= 1073741824
} else := _with_unit(n, "MiB", 1048576) if {
	n >= 1048576
} else := _with_unit(n, "KiB", 1024) if {
	n >= 1024
} else := sprintf("%d B", [n])

_with_unit(n, name, size) := sprintf("%d %s", [n / size, name]) if {
	n % size == 0
} else := sprintf("%.1f %s", [n / size, name])

# duration renders ms milliseconds as "10 min", "90 s", "1 h" or "250 ms": in
# the largest unit that divides ms exactly.
duration(ms) := sprintf("%d d", [ms / 86400000]) if {
	ms >= 86400000
	ms % 86400000 == 0
} else := sprintf("%d h", [ms / 3600000]) if {
	ms >= 3600000
	ms % 3600000 == 0
} else := sprintf("%d min", [ms / 60000]) if {
	ms >= 60000
	ms % 60000 == 0
} else := sprintf("%d s", [ms / 1000]) if {
	ms >= 1000
	ms % 1000 == 0
} else := sprintf("%d ms", [ms])
