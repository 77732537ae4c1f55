// Package spantree renders the spans of a trace as an indented tree, for
// the tests that check a trace's shape and for the demo that prints one.
package spantree

import (
	"slices"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Render writes one line per span, label(span) indented two spaces per
// level under its parent, children in the order they started. A span
// whose parent is not among spans is a root.
func Render(spans []sdktrace.ReadOnlySpan, label func(sdktrace.ReadOnlySpan) string) string {
	present := map[trace.SpanID]bool{}
	for _, s := range spans {
		present[s.SpanContext().SpanID()] = true
	}
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent().SpanID(); p.IsValid() && present[p] {
			children[p] = append(children[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	byStart := func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) }
	var b strings.Builder
	var walk func(s sdktrace.ReadOnlySpan, depth int)
	walk = func(s sdktrace.ReadOnlySpan, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(label(s))
		b.WriteByte('\n')
		kids := children[s.SpanContext().SpanID()]
		slices.SortFunc(kids, byStart)
		for _, k := range kids {
			walk(k, depth+1)
		}
	}
	slices.SortFunc(roots, byStart)
	for _, r := range roots {
		walk(r, 0)
	}
	return b.String()
}

// Name is the label of a span that shows its name alone.
func Name(s sdktrace.ReadOnlySpan) string { return s.Name() }

// Attr is the value of a span's attribute key as text, "" when it has none.
func Attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.String()
		}
	}
	return ""
}
