package modelserver

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestParseFault(t *testing.T) {
	for in, want := range map[string]Fault{
		"":            {},
		"drop":        {Kind: FaultDrop},
		"429@2":       {Kind: Fault429, Nth: 2},
		"malformed@1": {Kind: FaultMalformed, Nth: 1},
		"stall":       {Kind: FaultStall},
		"mixed%300":   {Kind: FaultMixed, Every: 300},
		"429%2":       {Kind: Fault429, Every: 2},
	} {
		got, err := ParseFault(in)
		if err != nil || got != want {
			t.Errorf("ParseFault(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if in != "" && got.String() != in {
			t.Errorf("String() = %q, want %q", got.String(), in)
		}
	}
	for _, bad := range []string{"explode", "drop@0", "drop@x", "429@", "drop%0", "mixed%"} {
		if _, err := ParseFault(bad); err == nil {
			t.Errorf("ParseFault(%q) succeeded", bad)
		}
	}
}

// Every picks every Every-th request; mixed takes the faults in turn.
func TestFaultEveryAndMixed(t *testing.T) {
	f := Fault{Kind: FaultMixed, Every: 3}
	var got []FaultKind
	for n := int64(1); n <= 15; n++ {
		got = append(got, f.forRequest(n))
	}
	want := []FaultKind{"", "", FaultDrop, "", "", FaultStall, "", "", Fault429, "", "", FaultMalformed, "", "", FaultDrop}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("requests 1..15 get %q, want %q", got, want)
		}
	}
	if k := (Fault{Kind: FaultStall, Nth: 4}).forRequest(4); k != FaultStall {
		t.Fatalf("Nth: %q", k)
	}
}

func TestHTTP429OnNthRequest(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: Fault429, Nth: 2}})
	body := chatBody("func add(a, b int) int {", "", false)
	for i, want := range []int{http.StatusOK, http.StatusTooManyRequests, http.StatusOK} {
		resp := post(t, base+"/v1/chat/completions", body)
		if resp.StatusCode != want {
			t.Fatalf("request %d: status %d, want %d", i+1, resp.StatusCode, want)
		}
		if want == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "1" {
			t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}
}

func TestHTTPDropCutsTheStream(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultDrop}})
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": "// long", "stream": true})
	data, err := sseData(resp.Body)
	if err == nil {
		t.Fatalf("stream ended cleanly after a drop: %q", data)
	}
	if len(data) != defaultFaultAfter {
		t.Fatalf("%d frames before the drop, want %d", len(data), defaultFaultAfter)
	}
}

func TestHTTPMalformedFrame(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultMalformed, After: 1}})
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": "// long", "stream": true})
	data, err := sseData(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, d := range data {
		if d != "[DONE]" && !json.Valid([]byte(d)) {
			bad++
		}
	}
	if bad != 1 || data[len(data)-1] != "[DONE]" {
		t.Fatalf("%d malformed frames in %q", bad, data)
	}
}

func TestHTTPStallThenClientLeaves(t *testing.T) {
	done := make(chan struct{}, 1)
	s, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultStall},
		requestDone: func() { done <- struct{}{} }})
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": "// long", "stream": true})
	br := bufio.NewReader(resp.Body)
	for frames := 0; frames < defaultFaultAfter; {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "data: ") {
			frames++
		}
	}
	resp.Body.Close() // the client gives up on the stall
	<-done
	if st := s.Stats(); st.Cancels != 1 || st.Tokens != defaultFaultAfter {
		t.Fatalf("stats %+v", st)
	}
}

func TestHTTPClientGoneStopsGeneration(t *testing.T) {
	done := make(chan struct{}, 1)
	s, base := start(t, Options{Backend: endless{}, requestDone: func() { done <- struct{}{} }})
	resp := post(t, base+"/v1/chat/completions", chatBody("x", "", true))
	if _, err := resp.Body.Read(make([]byte, 4096)); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	<-done
	if st := s.Stats(); st.Cancels != 1 || st.TokensAfterCancel >= 5 {
		t.Fatalf("stats %+v", st)
	}
}
