package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	votes := []string{"go", "rust", "go", "python", "go", "rust", "zig"}
	tally := map[string]int{}
	for _, v := range votes {
		tally[v]++
	}
	type entry struct {
		lang  string
		count int
	}
	var ranking []entry
	for k, v := range tally {
		ranking = append(ranking, entry{k, v})
	}
	sort.Slice(ranking, func(i, j int) bool {
		if ranking[i].count == ranking[j].count {
			return ranking[i].lang < ranking[j].lang
		}
		return ranking[i].count > ranking[j].count
	})
	for i, e := range ranking {
		fmt.Printf("%d. %-7s %s (%d)\n", i+1, e.lang, strings.Repeat("#", e.count), e.count)
	}
	inverted := map[int][]string{}
	for k, v := range tally {
		inverted[v] = append(inverted[v], k)
	}
	for _, names := range inverted {
		sort.Strings(names)
	}
	fmt.Println(inverted)
	m := map[string]int{"a": 1}
	m2 := m
	m2["b"] = 2
	fmt.Println(m, len(m))
}
