package main

import "testing"

// fixture is a test helper only tests see.
func fixture() string { return "x" }

func TestMain(t *testing.T) { _ = fixture() }
