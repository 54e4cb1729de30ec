package main

import (
	"fmt"
	"strings"
)

func main() {
	s := "héllo wörld"
	fmt.Println(strings.Index(s, "l"), strings.IndexRune(s, 'ö'), strings.LastIndex(s, "l"))
	fmt.Println(len("é"), strings.Count(s, "l"), strings.Count(s, ""))
	i := strings.Index(s, "w")
	fmt.Println(s[i:], s[:i])
	fmt.Println(strings.ToUpper(s), strings.Title(s))
	for i, b := range []byte("hé") {
		fmt.Print(i, ":", b, " ")
	}
	fmt.Println()
	fmt.Println(strings.Split("a-b_c-d", "-"), strings.Fields("a\u00a0b c"))
	r := []rune(s)
	fmt.Println(string(r[1]), len(r), string(r[len(r)-3:]))
}
