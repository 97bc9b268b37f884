# METADATA
# title: Unit rendering
# description: Renders byte counts and millisecond durations for messages, the way ckptlint's Go side does.
package ckptlint.lib.units

# bytes renders n bytes as "128 MiB", "1 MiB", "43 GiB", "1.5 GiB" or "1000 B".
bytes(n) := s if {
	some u in [["TiB", 1099511627776], ["GiB", 1073741824], ["MiB", 1048576], ["KiB", 1024]]
	n >= u[1]
	not _larger_unit_fits(n, u[1])
	s := _with_unit(n, u)
} else := sprintf("%d B", [n])

_larger_unit_fits(n, size) if {
	some bigger in [1099511627776, 1073741824, 1048576, 1024]
	bigger > size
	n >= bigger
}

_with_unit(n, u) := sprintf("%d %s", [n / u[1], u[0]]) if {
	n % u[1] == 0
} else := sprintf("%.1f %s", [n / u[1], u[0]])

# duration renders ms milliseconds as "10 min", "90 s", "1 h" or "250 ms".
duration(ms) := s if {
	some u in [["d", 86400000], ["h", 3600000], ["min", 60000], ["s", 1000]]
	ms >= u[1]
	ms % u[1] == 0
	not _larger_duration_fits(ms, u[1])
	s := sprintf("%d %s", [ms / u[1], u[0]])
} else := sprintf("%d ms", [ms])

_larger_duration_fits(ms, size) if {
	some bigger in [86400000, 3600000, 60000, 1000]
	bigger > size
	ms >= bigger
	ms % bigger == 0
}
