package main

import (
	"fmt"
	"strings"
	"unicode"
)

func main() {
	rot13 := func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}
	fmt.Println(strings.Map(rot13, "Hello, Gopher!"))
	fmt.Println(strings.IndexFunc("abc123", unicode.IsDigit))
	fmt.Println(strings.TrimFunc("123abc456", unicode.IsDigit))
	fmt.Println(strings.ContainsAny("hello", "xyz"), strings.ContainsRune("hello", 'l'))
	fmt.Println(strings.IndexByte("golang", 'l'), strings.IndexRune("chicken", 'k'), strings.IndexAny("golang", "ny"))
	fmt.Println(strings.TrimRight("abc...", "."), strings.TrimSuffix("file.go", ".go"))
	fmt.Println(strings.ToTitle("go"), strings.LastIndexByte("aXbX", 'X'))
}
