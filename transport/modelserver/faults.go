package modelserver

import (
	"fmt"
	"strconv"
	"strings"
)

// FaultKind names a misbehaviour the server can inject.
type FaultKind string

// The faults. Each is injected into a request's reply as its wire allows.
const (
	// NoFault serves normally.
	NoFault FaultKind = ""
	// FaultDrop closes the connection (the WebSocket, or the HTTP stream)
	// after a few tokens, without a terminal event.
	FaultDrop FaultKind = "drop"
	// FaultStall stops sending after a few tokens and keeps the connection
	// open until the client cancels or goes away.
	FaultStall FaultKind = "stall"
	// Fault429 refuses the request as rate-limited: HTTP 429 with
	// Retry-After: 1, or an error event with status 429 on the WebSocket.
	Fault429 FaultKind = "429"
	// FaultMalformed sends one frame that is not valid JSON after a few
	// tokens, then carries on.
	FaultMalformed FaultKind = "malformed"
)

// defaultFaultAfter is how many tokens are sent before a mid-stream fault.
const defaultFaultAfter = 3

// Fault says which misbehaviour to inject and into which requests.
type Fault struct {
	// Kind is the misbehaviour; NoFault disables injection.
	Kind FaultKind
	// Nth picks the request (1-based, counted across all wires since the
	// server started or its stats were reset); 0 means every request.
	Nth int
	// After is how many tokens are sent before a mid-stream fault fires;
	// 0 means 3. A reply shorter than that faults before its end.
	After int
}

// ParseFault parses "KIND" or "KIND@N" (the Nth request only), where KIND
// is drop, stall, 429 or malformed. The empty string is NoFault.
func ParseFault(s string) (Fault, error) {
	if s == "" {
		return Fault{}, nil
	}
	kind, nth, hasNth := strings.Cut(s, "@")
	f := Fault{Kind: FaultKind(kind)}
	switch f.Kind {
	case FaultDrop, FaultStall, Fault429, FaultMalformed:
	default:
		return Fault{}, fmt.Errorf("fault %q: kind must be drop, stall, 429 or malformed", s)
	}
	if hasNth {
		n, err := strconv.Atoi(nth)
		if err != nil || n < 1 {
			return Fault{}, fmt.Errorf("fault %q: request number must be a positive integer", s)
		}
		f.Nth = n
	}
	return f, nil
}

// String formats f as ParseFault reads it.
func (f Fault) String() string {
	if f.Nth > 0 {
		return fmt.Sprintf("%s@%d", f.Kind, f.Nth)
	}
	return string(f.Kind)
}

// forRequest returns the fault that request number n (1-based) gets.
func (f Fault) forRequest(n int64) FaultKind {
	if f.Nth != 0 && int64(f.Nth) != n {
		return NoFault
	}
	return f.Kind
}

// after returns how many tokens precede a mid-stream fault.
func (f Fault) after() int {
	if f.After > 0 {
		return f.After
	}
	return defaultFaultAfter
}
