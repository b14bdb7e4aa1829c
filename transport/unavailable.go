package transport

import "context"

// Unavailable returns a Model whose every generation fails with err. The
// server stands it in for a model that could not be opened, so requests
// get the reason instead of a crash.
func Unavailable(err error) Model { return unavailable{err} }

type unavailable struct{ err error }

func (u unavailable) Generate(context.Context, Request, func(string)) (Result, error) {
	return Result{}, u.err
}

func (unavailable) Close() error { return nil }
