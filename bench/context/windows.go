package main

import (
	"strings"

	"github.com/wisp-lsp/wisp/completion/gather"
)

// The naive baselines' split: three quarters of the budget before the
// cursor, one quarter after; whatever one side cannot use (the file
// starts or ends first) goes to the other.
const prefixPercent = 75

// byteWindow is the plain prefix/suffix window of lsp-ai and llm-ls: the
// bytes around the cursor that fit budget tokens, cut anywhere.
func byteWindow(doc string, cursor, budget int) string {
	before, after := split(fitBytes(doc[:cursor], true), fitBytes(doc[cursor:], false), budget)
	return doc[cursor-before : cursor+after]
}

// lineWindow is the same window in whole lines: the cursor's line
// (both its halves), then whole lines above and below, nearest first.
func lineWindow(doc string, cursor, budget int) string {
	ls := strings.LastIndexByte(doc[:cursor], '\n') + 1
	le := len(doc)
	if i := strings.IndexByte(doc[cursor:], '\n'); i >= 0 {
		le = cursor + i
	}
	left := budget - gather.Estimate(doc[ls:le])
	preCap := left * prefixPercent / 100
	start, end := ls, le // the window is doc[start:end]
	// up moves start one line up if the lines above still fit in tokens.
	up := func(tokens int) bool {
		if start == 0 {
			return false
		}
		s := strings.LastIndexByte(doc[:start-1], '\n') + 1
		if gather.Estimate(doc[s:ls]) > tokens {
			return false
		}
		start = s
		return true
	}
	// down moves end one line down likewise.
	down := func(tokens int) bool {
		if end == len(doc) {
			return false
		}
		e := len(doc)
		if i := strings.IndexByte(doc[end+1:], '\n'); i >= 0 {
			e = end + 1 + i
		}
		if gather.Estimate(doc[le:e]) > tokens {
			return false
		}
		end = e
		return true
	}
	for up(preCap) {
	}
	for down(left - gather.Estimate(doc[start:ls])) {
	}
	for up(left - gather.Estimate(doc[le:end])) {
	}
	return doc[start:end]
}

// split shares budget tokens between a prefix that could use up to pre
// bytes and a suffix that could use up to post, prefixPercent to the
// prefix, and returns the bytes each side gets.
func split(pre, post fitter, budget int) (before, after int) {
	preTok := budget * prefixPercent / 100
	postTok := budget - preTok
	if pre.full < preTok {
		postTok += preTok - pre.full
		preTok = pre.full
	}
	if post.full < postTok {
		preTok = min(pre.full, preTok+postTok-post.full)
		postTok = post.full
	}
	return pre.bytes(preTok), post.bytes(postTok)
}

// fitter measures how many bytes of one side of the cursor fit a number
// of tokens under wisp's estimator.
type fitter struct {
	s       string
	fromEnd bool // the side is before the cursor: bytes are taken from its end
	full    int  // the estimate of all of s
}

func fitBytes(s string, fromEnd bool) fitter {
	return fitter{s: s, fromEnd: fromEnd, full: gather.Estimate(s)}
}

// bytes returns the largest n such that the n bytes nearest the cursor
// estimate to at most tokens.
func (f fitter) bytes(tokens int) int {
	lo, hi := 0, len(f.s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		part := f.s[:mid]
		if f.fromEnd {
			part = f.s[len(f.s)-mid:]
		}
		if gather.Estimate(part) <= tokens {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
