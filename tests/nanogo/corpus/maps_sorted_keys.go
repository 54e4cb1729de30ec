package main

import (
	"fmt"
	"sort"
)

func main() {
	scores := map[string]int{
		"zoe": 88, "adam": 95, "mia": 72, "liam": 95, "emma": 60,
	}
	names := make([]string, 0, len(scores))
	for n := range scores {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("%s: %d\n", n, scores[n])
	}
	sort.Slice(names, func(i, j int) bool {
		if scores[names[i]] == scores[names[j]] {
			return names[i] < names[j]
		}
		return scores[names[i]] > scores[names[j]]
	})
	fmt.Println(names)
	ints := map[int]bool{10: true, -3: false, 7: true}
	fmt.Println(ints)
	floats := map[float64]string{2.5: "b", -1: "a", 10: "c"}
	fmt.Println(floats)
}
