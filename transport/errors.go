package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrorKind classifies a model error by what the caller can do about it.
type ErrorKind int

// Error kinds. KindUnknown is the zero value, for errors that are not ours.
const (
	KindUnknown ErrorKind = iota
	// KindAuth: the endpoint rejected (or needs) the API key. Fix the key.
	KindAuth
	// KindRateLimited: try again after Error.RetryAfter (when known).
	KindRateLimited
	// KindBadRequest: the endpoint refused this request; retrying won't help.
	KindBadRequest
	// KindUnavailable: the endpoint could not be reached, failed, or the
	// connection dropped; a later request may succeed.
	KindUnavailable
	// KindCancelled: the caller's context ended the generation.
	KindCancelled
)

var kindNames = [...]string{"unknown", "auth", "rate-limited", "bad-request", "unavailable", "cancelled"}

// String names the kind.
func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// Error is the error every provider returns. Message is written for the
// user (what happened and what to do); it never contains the API key.
type Error struct {
	Kind ErrorKind
	// Status is the HTTP status (or the status an error event carried); 0
	// when there was none.
	Status int
	// Code is the provider's error code, e.g. "rate_limit_exceeded".
	Code string
	// Message is the complete, actionable description.
	Message string
	// RetryAfter is how long the endpoint asked us to wait; 0 if it didn't.
	RetryAfter time.Duration
	// Err is the underlying error, if any.
	Err error
}

// Error returns Message, followed by the underlying error when there is one.
func (e *Error) Error() string {
	if e.Err != nil && e.Message != "" {
		return e.Message + ": " + e.Err.Error()
	}
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf reports the kind of err: the Kind of the first *Error in its
// chain, KindCancelled for context cancellation and deadlines, else KindUnknown.
func KindOf(err error) ErrorKind {
	var e *Error
	switch {
	case err == nil:
		return KindUnknown
	case errors.As(err, &e):
		return e.Kind
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return KindCancelled
	}
	return KindUnknown
}

// IsCancelled reports whether err means the generation was cancelled by
// its caller. Cancellation is normal, not a failure: don't log it.
func IsCancelled(err error) bool { return KindOf(err) == KindCancelled }

// cancelled is the error Generate returns when ctx ends the generation.
func cancelled(ctx context.Context) *Error {
	return &Error{Kind: KindCancelled, Message: "generation cancelled", Err: context.Cause(ctx)}
}

// codeConnecting is the Code of the error a request gets when its context
// ended while it waited for a connection (endpoint.endedConnecting).
const codeConnecting = "connecting"

// endedConnecting is the error a request gets when ctx ended while it
// waited for a connection to ep: cancelled or timed out (a deadline, or
// WithDeadlines' first-token bound) while connecting, never a wait for a
// token from a model it never reached. It is KindCancelled, as any end
// of the caller's context is.
func (ep endpoint) endedConnecting(ctx context.Context) *Error {
	cause := context.Cause(ctx)
	what := "cancelled"
	var stall *stallError
	if errors.Is(cause, context.DeadlineExceeded) || errors.As(cause, &stall) {
		what = "timed out"
	}
	return &Error{Kind: KindCancelled, Code: codeConnecting,
		Message: fmt.Sprintf("%s while connecting to model endpoint %s", what, ep.host), Err: cause}
}

// endpoint describes where a provider sends requests, for error messages.
// It holds the key only to scrub it from anything we report.
type endpoint struct {
	host   string // host[:port] of the configured endpoint; the only host the key goes to
	keyEnv string // name of the variable holding the key; "" if none
	key    string // never printed
}

// redact removes the key from text that came from the server.
func (ep endpoint) redact(s string) string {
	if ep.key != "" {
		s = strings.ReplaceAll(s, ep.key, "[redacted]")
	}
	return s
}

// statusError turns an HTTP status (or an error event's status and code)
// into a typed Error with an actionable message. h may be nil.
func (ep endpoint) statusError(status int, code, msg string, h http.Header) *Error {
	msg = ep.redact(strings.TrimSpace(msg))
	detail := ""
	if msg != "" {
		detail = ": " + msg
	}
	e := &Error{Status: status, Code: code}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden ||
		code == "invalid_api_key" || code == "unauthorized":
		e.Kind = KindAuth
		if ep.keyEnv == "" {
			e.Message = fmt.Sprintf("model endpoint %s needs an API key: name the variable holding it in model.apiKeyEnv (%d)%s", ep.host, status, detail)
		} else {
			e.Message = fmt.Sprintf("model endpoint %s rejected the API key in $%s (%d)%s", ep.host, ep.keyEnv, status, detail)
		}
	case status == http.StatusTooManyRequests || code == "rate_limit_exceeded":
		e.Kind = KindRateLimited
		e.RetryAfter = retryAfter(h)
		e.Message = "rate limited by " + ep.host
		if e.RetryAfter > 0 {
			e.Message += ", retry after " + e.RetryAfter.String()
		}
		e.Message += detail
	case status >= 500 || code == "server_error" || code == codeConnLimit || code == codeStreamLimit:
		e.Kind = KindUnavailable
		e.Message = fmt.Sprintf("model endpoint %s failed (%d)%s", ep.host, status, detail)
	default:
		e.Kind = KindBadRequest
		e.Message = fmt.Sprintf("model endpoint %s refused the request (%d)%s", ep.host, status, detail)
	}
	return e
}

// unavailable reports a transport failure (dial, read, dropped stream).
func (ep endpoint) unavailable(what string, err error) *Error {
	if err != nil {
		err = errors.New(ep.redact(err.Error()))
	}
	return &Error{Kind: KindUnavailable, Message: fmt.Sprintf("model endpoint %s: %s", ep.host, what), Err: err}
}

// retryAfter parses Retry-After (seconds or an HTTP date) and the
// retry-after-ms extension; 0 when absent or unparsable.
func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}
