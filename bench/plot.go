package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// plotColors are the series colours, in configuration order.
var plotColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"}

// writeCDF draws each configuration's time-to-first-ghost-text CDF as an
// SVG, the x axis logarithmic from 0.1 ms to the largest sample.
func writeCDF(w io.Writer, rs []result) error {
	const width, height, left, right, top, bottom = 820.0, 460.0, 60.0, 250.0, 20.0, 50.0
	pw, ph := width-left-right, height-top-bottom
	lo, hi := 0.1, 1.0
	for _, r := range rs {
		for _, v := range r.FirstGhostMs {
			hi = max(hi, v)
		}
	}
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	x := func(v float64) float64 {
		v = min(max(v, lo), hi)
		return left + pw*math.Log10(v/lo)/math.Log10(hi/lo)
	}
	y := func(p float64) float64 { return top + ph*(1-p) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for d := lo; d <= hi*1.001; d *= 10 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="middle">%g ms</text>`+"\n",
			x(d), top, x(d), top+ph, x(d), top+ph+16, d)
	}
	for p := 0.0; p <= 1.0001; p += 0.25 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n",
			left, y(p), left+pw, y(p), left-6, y(p)+4, 100*p)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">time to first ghost text (client side, log scale)</text>`+"\n", left+pw/2, height-12)
	for i, r := range rs {
		s := slices.Clone(r.FirstGhostMs)
		slices.Sort(s)
		color := plotColors[i%len(plotColors)]
		if len(s) > 0 {
			var pts []string
			for j, v := range s {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f %.1f,%.1f", x(v), y(float64(j)/float64(len(s))), x(v), y(float64(j+1)/float64(len(s)))))
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", color, strings.Join(pts, " "))
		}
		ly := top + 10 + 18*float64(i)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			left+pw+12, ly, left+pw+32, ly, color, left+pw+38, ly+4, escapeXML(r.Setup.Name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
