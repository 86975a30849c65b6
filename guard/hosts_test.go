package guard

import (
	"bufio"
	"encoding/json"
	"os"
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
	files, _ := filepath.Glob(corpusDir + "/*/*.jsonl")
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var e struct{ Cmd string }
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				words = append(words, strings.Fields(e.Cmd)...)
			}
		}
		f.Close()
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
