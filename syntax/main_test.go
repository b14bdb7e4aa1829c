package syntax

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any leave goroutines behind (the
// binding starts one per parse under a cancellable context).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
