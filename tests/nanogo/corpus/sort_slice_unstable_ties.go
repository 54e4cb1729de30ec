package main

import (
	"fmt"
	"sort"
)

type Rec struct {
	Name  string
	Score int
}

func main() {
	recs := []Rec{}
	names := "abcdefghijklmnopqrstuvwxyz"
	for i := 0; i < 26; i++ {
		recs = append(recs, Rec{string(names[i]), (i * 7) % 4})
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Score < recs[j].Score })
	for _, r := range recs {
		fmt.Print(r.Name, r.Score, " ")
	}
	fmt.Println()
	words := []string{"pear", "fig", "kiwi", "plum", "apple", "date", "lime", "nut", "yam", "grape", "melon", "sloe", "bean"}
	sort.Slice(words, func(i, j int) bool { return len(words[i]) < len(words[j]) })
	fmt.Println(words)
}
