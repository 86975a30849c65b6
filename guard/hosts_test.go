package guard

import (
	"path/filepath"
	"strings"
	"testing"
)

// isProdNameLowered is isProdName without its first look: every word
// lowered, then searched.
func isProdNameLowered(s string) bool {
	return prodWords(strings.ToLower(s))
}

// TestMayNameProd checks that isProdName's first look drops no word the
// lowering would keep, over every word of every corpus line and words
// whose lowering turns non-ASCII letters into ASCII ones.
func TestMayNameProd(t *testing.T) {
	words := []string{"PROD", "Prd", "LIVE", "api-PROD-1", "L\u0130VE", "\u212aprod", "pr\u00f8d", "preprod", "nonprod", "product", "deliver", "x"}
	dirs, _ := filepath.Glob(corpusDir + "/*")
	for _, dir := range dirs {
		dg, bn := loadCorpusDir(t, dir)
		for _, e := range dg {
			words = append(words, strings.Fields(e.Cmd)...)
		}
		for _, e := range bn {
			words = append(words, strings.Fields(e.Cmd)...)
		}
	}
	prod := 0
	for _, w := range words {
		got, want := isProdName(w), isProdNameLowered(w)
		if got != want {
			t.Errorf("isProdName(%q) = %t, lowered first %t", w, got, want)
		}
		if got {
			prod++
		}
	}
	if prod < 100 {
		t.Errorf("only %d of %d words name production", prod, len(words))
	}
	t.Logf("%d of %d words name production", prod, len(words))
}
