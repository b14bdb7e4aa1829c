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
	// FaultMixed takes the other faults in turn: drop, stall, 429,
	// malformed, drop, … (one per faulted request).
	FaultMixed FaultKind = "mixed"
)

// mixedTurns is the order FaultMixed takes the faults in.
var mixedTurns = [...]FaultKind{FaultDrop, FaultStall, Fault429, FaultMalformed}

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
	// Every, when positive and Nth is 0, picks every Every-th request
	// (Every, 2·Every, …) instead of every request.
	Every int
}

// ParseFault parses "KIND", "KIND@N" (the Nth request only) or "KIND%N"
// (every Nth request), where KIND is drop, stall, 429, malformed or mixed.
// The empty string is NoFault.
func ParseFault(s string) (Fault, error) {
	if s == "" {
		return Fault{}, nil
	}
	kind, n, sep := s, "", ""
	for _, c := range []string{"@", "%"} {
		if k, v, ok := strings.Cut(s, c); ok {
			kind, n, sep = k, v, c
			break
		}
	}
	f := Fault{Kind: FaultKind(kind)}
	switch f.Kind {
	case FaultDrop, FaultStall, Fault429, FaultMalformed, FaultMixed:
	default:
		return Fault{}, fmt.Errorf("fault %q: kind must be drop, stall, 429, malformed or mixed", s)
	}
	if sep != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			return Fault{}, fmt.Errorf("fault %q: request number must be a positive integer", s)
		}
		if sep == "@" {
			f.Nth = v
		} else {
			f.Every = v
		}
	}
	return f, nil
}

// String formats f as ParseFault reads it.
func (f Fault) String() string {
	switch {
	case f.Nth > 0:
		return fmt.Sprintf("%s@%d", f.Kind, f.Nth)
	case f.Every > 0:
		return fmt.Sprintf("%s%%%d", f.Kind, f.Every)
	}
	return string(f.Kind)
}

// forRequest returns the fault that request number n (1-based) gets.
func (f Fault) forRequest(n int64) FaultKind {
	turn := n // how many requests so far were picked, this one included
	switch {
	case f.Nth != 0:
		if int64(f.Nth) != n {
			return NoFault
		}
		turn = 1
	case f.Every > 0:
		if n%int64(f.Every) != 0 {
			return NoFault
		}
		turn = n / int64(f.Every)
	}
	if f.Kind == FaultMixed {
		return mixedTurns[(turn-1)%int64(len(mixedTurns))]
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
