package main

import (
	"fmt"
	"strings"
	"unicode"
)

func main() {
	fmt.Printf("%q\n", strings.SplitAfterN("a,b,c,d", ",", 3))
	fmt.Println(strings.LastIndexAny("golang", "go"), strings.IndexAny("abc", ""), strings.ContainsAny("abc", "xyzc"))
	fmt.Println(strings.EqualFold("Straße", "STRASSE"), strings.EqualFold("Gopher", "GOPHER"))
	fmt.Println(strings.ToValidUTF8("a\xffb\xfe\xfdc", "?"))
	fmt.Println(strings.TrimLeftFunc("123abc", unicode.IsDigit), strings.TrimRightFunc("abc123", unicode.IsDigit))
	fmt.Println(strings.LastIndexFunc("go123", unicode.IsLetter), strings.IndexFunc("日本語abc", unicode.IsLower))
	fmt.Println(strings.Count("aaaa", "aa"), strings.Replace("aaaa", "a", "b", -1), strings.Replace("aaaa", "", "-", 2))
	r := strings.NewReplacer("a", "1", "b", "2")
	fmt.Println(r.Replace("abcab"))
	fmt.Println(strings.Title("hello wide-world o'neil"), strings.ToTitle("abc"))
	fmt.Printf("%q %q\n", strings.Fields("  "), strings.Split("", ""))
	var sb strings.Builder
	sb.WriteByte('x')
	sb.WriteRune('é')
	sb.Write([]byte("yz"))
	fmt.Println(sb.String(), sb.Len())
}
