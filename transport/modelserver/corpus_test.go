package modelserver

import (
	"strings"
	"testing"
)

// testdataCorpus is the module's testdata folder: real code in several
// languages, with the near-repeats real workspaces have.
const testdataCorpus = "../../testdata"

// scanLocate is Continuation.locate by scanning every file for every
// tail: the reference the indexed corpus must agree with.
func scanLocate(files []string, prefix string) (string, bool) {
	// scan returns how often tail occurs (0, 1 or 2 for more) and what
	// follows its first occurrence.
	scan := func(tail string) (found int, first string) {
		for _, f := range files {
			i := strings.Index(f, tail)
			if i < 0 {
				continue
			}
			if found == 0 {
				first = f[i+len(tail):]
			}
			found++
			if strings.Contains(f[i+1:], tail) {
				found++
			}
			if found > 1 {
				return 2, first
			}
		}
		return found, first
	}
	seen := false
	var seenTail, seenFirst string
	for n := min(len(prefix), minTail); ; n = min(2*n, len(prefix)) {
		found, first := scan(prefix[len(prefix)-n:])
		switch {
		case found == 1:
			return first, true
		case found == 0 && seen:
			return scanClosest(files, prefix, seenTail, seenFirst), true
		case found == 0:
			for n := min(minTail, len(prefix)) / 2; n >= minTail/8; n /= 2 {
				switch found, first := scan(prefix[len(prefix)-n:]); found {
				case 1:
					return first, true
				case 2:
					return scanClosest(files, prefix, prefix[len(prefix)-n:], first), true
				}
			}
			return "", false
		case n == len(prefix):
			return first, true
		}
		seen, seenTail, seenFirst = true, prefix[len(prefix)-n:], first
	}
}

// scanClosest is Continuation.closest by scanning: among the occurrences
// of tail in files (joined as the corpus joins them), what follows the
// one whose text before agrees most with the rest of prefix; first when
// there are more than maxCandidates.
func scanClosest(files []string, prefix, tail, first string) string {
	joined := strings.Join(files, sep)
	type occurrence struct{ at, end int }
	var all []occurrence
	start := 0
	for _, f := range files {
		for i := 0; ; i++ {
			j := strings.Index(f[i:], tail)
			if j < 0 {
				break
			}
			i += j
			all = append(all, occurrence{start + i, start + len(f)})
		}
		start += len(f) + len(sep)
	}
	if len(all) > maxCandidates {
		return first
	}
	best, bestScore := all[0], -1
	for _, o := range all {
		if score := agreement(joined[max(0, o.at-agreementWindow):o.at], prefix[:len(prefix)-len(tail)]); score > bestScore {
			best, bestScore = o, score
		}
	}
	return joined[best.at+len(tail) : best.end]
}

// files returns the corpus's files, in order.
func (c *corpus) files() []string {
	var files []string
	start := 0
	for _, end := range c.ends {
		files = append(files, c.text[start:end])
		start = end + len(sep)
	}
	return files
}

// locateCases returns prefixes to locate in files: tails of many lengths
// ending all through each file, each also with a byte changed at its start
// (found by a short tail but not by a longer one), and the text across each
// boundary between files (which no file holds).
func locateCases(files []string) []string {
	var cases []string
	for i, f := range files {
		for end := 1; end <= len(f); end += 5 + end/4 {
			for _, n := range []int{1, 3, 12, 64, 255, 256, 257, 400, 600, 1500, end} {
				p := f[max(0, end-n):end]
				cases = append(cases, p, "\x00"+p[1:])
			}
		}
		if i > 0 {
			prev := files[i-1]
			cases = append(cases, prev[max(0, len(prev)-300):]+sep+f[:min(len(f), 20)], prev[max(0, len(prev)-5):]+f[:min(len(f), 5)])
		}
	}
	return cases
}

// The indexed locate answers every prefix as the scan of every file did,
// on the testdata corpus: unique tails, tails that need doubling, prefixes
// found several times, and prefixes the files lack.
func TestLocateAnswersAsTheScan(t *testing.T) {
	c, err := NewContinuation(testdataCorpus, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := c.corpus.files()
	if len(files) < 50 {
		t.Fatalf("%d files in %s", len(files), testdataCorpus)
	}
	var found, doubled, several, shorter, lost int
	for _, prefix := range locateCases(files) {
		want, wantOK := scanLocate(files, prefix)
		got, ok := c.locate(prefix)
		if got != want || ok != wantOK {
			t.Fatalf("locate(%.60q…%.60q) = %.40q, %v; the scan gave %.40q, %v", prefix, prefix[max(0, len(prefix)-60):], got, ok, want, wantOK)
		}
		tail := prefix[len(prefix)-min(len(prefix), minTail):]
		switch n := len(c.corpus.find(tail, 2)); {
		case !ok:
			lost++
		case n == 0:
			shorter++
		case n > 1 && len(tail) < len(prefix):
			doubled++
		case n > 1:
			several++
		default:
			found++
		}
	}
	t.Logf("found: %d by their last %d bytes, %d by a longer tail, %d several times, %d by a shorter tail; lost: %d",
		found, minTail, doubled, several, shorter, lost)
	if found == 0 || doubled == 0 || several == 0 || shorter == 0 || lost == 0 {
		t.Errorf("the cases miss a kind of answer")
	}
}
