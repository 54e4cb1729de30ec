package main

import (
	"fmt"
	"sort"
)

func main() {
	freq := map[rune]int{}
	for _, r := range "hello world" {
		if r != ' ' {
			freq[r]++
		}
	}
	fmt.Println(freq)
	keys := make([]rune, 0)
	for r := range freq {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, r := range keys {
		fmt.Printf("%c:%d ", r, freq[r])
	}
	fmt.Println()
	bools := map[bool]int{true: 1, false: 0}
	fmt.Println(bools)
}
