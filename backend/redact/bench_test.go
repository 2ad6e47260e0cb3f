package redact

import (
	"strings"
	"testing"
)

var benchText = strings.Repeat("lorem ipsum ", 9)

func BenchmarkStreamWrite(b *testing.B) {
	var s Stream
	b.SetBytes(int64(len(benchText)))
	for i := 0; i < b.N; i++ {
		s.Write(benchText)
	}
}

func BenchmarkString(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for i := 0; i < b.N; i++ {
		String(benchText)
	}
}

func BenchmarkHoldFrom(b *testing.B) {
	for i := 0; i < b.N; i++ {
		holdFrom(benchText)
	}
}
