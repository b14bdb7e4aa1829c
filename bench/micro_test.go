package main

import (
	"context"
	"net"
	"testing"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/local"
)

// BenchmarkKeystrokeRoundTrip5000 is one keystroke through the real
// language server in process: an incremental didChange on a 5,000-line Go
// file and the inline completion request after it, answered by the
// embedded local engine (no network), measured at the client.
func BenchmarkKeystrokeRoundTrip5000(b *testing.B) {
	repo, err := findRepo()
	if err != nil {
		b.Fatal(err)
	}
	src, err := stitchGo(repo, "big", 5000, 0)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	serverEnd, clientEnd := net.Pipe()
	srv := lsp.New(lsp.Options{Log: zap.NewNop(), Config: config.Default(),
		OpenModel: func(context.Context, config.Model) (transport.Model, error) { return local.New(local.Options{}), nil }})
	served := make(chan int, 1)
	go func() { served <- srv.Serve(ctx, serverEnd) }()
	c := client.New(clientEnd, client.Options{})
	defer func() {
		c.Shutdown(ctx)
		c.Close()
		<-served
	}()
	if _, err := c.Initialize(ctx, nil); err != nil {
		b.Fatal(err)
	}
	const uri = "file:///bench/big.go"
	cut := cutPoint(src, 0.6)
	if err := c.Open(ctx, uri, "go", src[:cut]); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		off := cut + i%2
		if i%2 == 0 {
			_, err = c.Replace(ctx, uri, off, off, "x")
		} else {
			_, err = c.Replace(ctx, uri, off-1, off, "")
		}
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.InlineCompletion(ctx, uri, cut+(i+1)%2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStitch5000 builds the 5,000-line trace file; it bounds the
// harness's own set-up cost.
func BenchmarkStitch5000(b *testing.B) {
	repo, err := findRepo()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := stitchGo(repo, "big", 5000, 0); err != nil {
			b.Fatal(err)
		}
	}
}
