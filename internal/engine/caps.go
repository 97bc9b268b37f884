package engine

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Capabilities returns the OPA capabilities every policy is compiled with,
// embedded or user-supplied: without the builtins that reach outside the
// process (http.send, net.lookup_ip_addr and the other non-CIDR net.*
// builtins, opa.runtime, which exposes the environment), and with an empty
// AllowNet so JSON-schema builtins cannot fetch remote references either.
func Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(caps.Builtins, func(b *ast.Builtin) bool {
		switch {
		case b.Name == "http.send", b.Name == "opa.runtime", b.Name == "net.lookup_ip_addr":
			return true
		case strings.HasPrefix(b.Name, "net.") && !strings.HasPrefix(b.Name, "net.cidr"):
			return true
		}
		return false
	})
	caps.AllowNet = []string{}
	return caps
}
