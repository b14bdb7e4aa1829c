package edits

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Rewrite sends the region to the model, streams the reply to OnDelta and
// answers minimal edits of the whole document, at the region's place.
func TestRewrite(t *testing.T) {
	doc := text.New("keep\nold line\nkeep\n")
	region := Region{Start: 5, End: 14}
	m := &fakeModel{reply: "```\nnew line\n```\n"}
	var streamed string
	got, err := Rewrite(context.Background(), m, Quick{
		Doc: doc, Region: region, Instruction: "rename", Path: "f.txt",
		OnDelta: func(d string) { streamed += d },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.reqs) != 1 || m.reqs[0].Prefix != "old line\n" || m.reqs[0].Instruction != "rename" {
		t.Fatalf("requests: %+v", m.reqs)
	}
	if streamed != m.reply {
		t.Errorf("streamed %q, want the reply %q", streamed, m.reply)
	}
	out, err := Apply(doc.String(), got)
	if err != nil || out != "keep\nnew line\nkeep\n" {
		t.Fatalf("edits %v give %q, %v", got, out, err)
	}
	for _, e := range got {
		if e.Start < region.Start || e.End > region.End {
			t.Errorf("edit %v outside the region %v", e, region)
		}
	}
}

// A model failure says it came from the model and keeps the cause; a
// reply without code is ErrNotCode.
func TestRewriteErrors(t *testing.T) {
	doc := text.New("a\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Rewrite(ctx, &fakeModel{reply: "b\n"}, Quick{Doc: doc, Region: Region{0, 2}, Instruction: "x"})
	if !errors.Is(err, context.Canceled) || err.Error() != "model: context canceled" {
		t.Errorf("cancelled: %v", err)
	}
	_, err = Rewrite(context.Background(), &fakeModel{reply: "I'm sorry, I can't do that."}, Quick{Doc: doc, Region: Region{0, 2}, Instruction: "x"})
	if !errors.Is(err, ErrNotCode) {
		t.Errorf("refusal: %v, want ErrNotCode", err)
	}
}

// stallingModel sends first (if any) and then goes silent until the
// request is cancelled, as a model that accepted a request and hung does.
type stallingModel struct{ first string }

func (m stallingModel) Generate(ctx context.Context, _ transport.Request, onDelta func(string)) (transport.Result, error) {
	if m.first != "" {
		onDelta(m.first)
	}
	<-ctx.Done()
	return transport.Result{}, context.Cause(ctx)
}

func (stallingModel) Close() error { return nil }

// A quick edit whose model goes silent ends with an error naming the
// deadline that passed, never hangs: before the first token and between
// two tokens.
func TestRewriteStalls(t *testing.T) {
	doc := text.New("a\n")
	for _, c := range []struct {
		first, want string
	}{
		{"", "model: model sent no first token within 30s"},
		{"b", "model: model sent no next token within 15s"},
	} {
		synctest.Test(t, func(t *testing.T) {
			start := time.Now()
			_, err := Rewrite(context.Background(), stallingModel{c.first}, Quick{Doc: doc, Region: Region{0, 2}, Instruction: "x"})
			if err == nil || err.Error() != c.want {
				t.Errorf("stall after %q: %v, want %q", c.first, err, c.want)
			}
			if waited := time.Since(start); waited > time.Minute {
				t.Errorf("stall after %q: gave up after %v", c.first, waited)
			}
		})
	}
}
