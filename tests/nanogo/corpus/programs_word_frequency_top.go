package main

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

func main() {
	text := `Go is an open source programming language that makes it simple to build
secure, scalable systems. Go is expressive, concise, clean, and efficient. It's a
fast, statically typed, compiled language that feels like a dynamically typed language.`
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	})
	freq := map[string]int{}
	for _, w := range words {
		freq[w]++
	}
	type wc struct {
		w string
		c int
	}
	var list []wc
	for w, c := range freq {
		list = append(list, wc{w, c})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].c != list[j].c {
			return list[i].c > list[j].c
		}
		return list[i].w < list[j].w
	})
	fmt.Println("total words:", len(words), "unique:", len(freq))
	for _, e := range list[:6] {
		fmt.Printf("%-10s %s\n", e.w, strings.Repeat("*", e.c))
	}
}
