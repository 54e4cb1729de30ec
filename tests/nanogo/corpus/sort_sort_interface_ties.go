package main

import (
	"fmt"
	"sort"
)

type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

func main() {
	words := []string{}
	for i := 0; i < 40; i++ {
		w := ""
		for k := 0; k <= (i*13)%5; k++ {
			w += string(rune('a' + (i+k)%26))
		}
		words = append(words, w)
	}
	sort.Sort(byLen(words))
	fmt.Println(words)
	counts := map[string]int{"go": 3, "c": 1, "js": 3, "py": 2, "rs": 2, "rb": 1, "ts": 3, "kt": 2}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sort.SliceStable(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	fmt.Println(keys)
}
