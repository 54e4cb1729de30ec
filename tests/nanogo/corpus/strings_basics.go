package main

import (
	"fmt"
	"strings"
)

func main() {
	s := "Hello, World"
	fmt.Println(len(s), s[0], s[7:], s[:5], s[3:8])
	fmt.Println(strings.ToUpper(s), strings.ToLower(s))
	fmt.Println(strings.Contains(s, "World"), strings.HasPrefix(s, "He"), strings.HasSuffix(s, "x"))
	fmt.Println(strings.Index(s, "o"), strings.LastIndex(s, "o"), strings.Index(s, "z"))
	fmt.Println(strings.Replace(s, "l", "L", 2), strings.ReplaceAll(s, "l", "L"))
	fmt.Println(strings.Split("a,b,c", ","), len(strings.Split("", ",")))
	fmt.Println(strings.Join([]string{"x", "y", "z"}, "-"))
	fmt.Println(strings.Repeat("ab", 3), strings.Count("cheese", "e"), strings.Count("five", ""))
	fmt.Printf("%q\n", strings.TrimSpace("  \t padded \n"))
	fmt.Println(strings.Trim("xxhixx", "x"), strings.TrimLeft("xxhixx", "x"), strings.TrimPrefix("prefix-body", "prefix-"))
	fmt.Println(strings.Fields("  a b   c  "), len(strings.Fields("  a b   c  ")))
	fmt.Println(strings.Title("hello"), strings.EqualFold("Go", "GO"))
}
