package main

import (
	"fmt"
	"sort"
	"strings"
)

func key(w string) string {
	r := []rune(strings.ToLower(w))
	sort.Slice(r, func(i, j int) bool { return r[i] < r[j] })
	return string(r)
}

func main() {
	words := []string{"listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"}
	groups := map[string][]string{}
	for _, w := range words {
		k := key(w)
		groups[k] = append(groups[k], w)
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s: %v\n", k, groups[k])
	}
	fmt.Println(len(groups))
}
