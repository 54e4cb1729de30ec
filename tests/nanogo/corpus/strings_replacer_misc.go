package main

import (
	"fmt"
	"strings"
)

func main() {
	r := strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;")
	fmt.Println(r.Replace("<a href=\"x\">Tom & Jerry</a>"))
	fmt.Println(strings.Index("chicken", "ken"), strings.Index("chicken", "dmr"))
	fmt.Println(strings.LastIndex("go gopher", "go"), strings.IndexAny("golang", "xyzn"))
	fmt.Printf("%q\n", strings.SplitN("a,b,c,d", ",", -1))
	fmt.Printf("%q\n", strings.SplitN("a,b,c,d", ",", 0))
	fmt.Println(strings.ContainsAny("", ""), strings.HasPrefix("", ""), strings.Contains("abc", ""))
	fmt.Println(strings.Repeat("ab", 0) == "", strings.ToUpper("ß straße"), strings.ToLower("ÀÉÎ"))
	fmt.Println(strings.TrimLeft("aaabca", "a"), strings.TrimPrefix("aaabca", "a"), strings.Trim("  x  ", " "))
	fmt.Println(strings.Fields(" \t\n "), len(strings.Fields(" \t\n ")))
	lines := strings.Split(strings.TrimSpace("l1\nl2\nl3\n"), "\n")
	fmt.Println(len(lines), lines)
}
