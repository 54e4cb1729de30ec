package main

import (
	"fmt"
	"unicode/utf8"
)

func main() {
	fmt.Printf("%q %q %q\n", string(rune(0x110000)), string(rune(0xD800)), string(rune(0x1F600)))
	fmt.Println(utf8.RuneLen(0xD800), utf8.ValidRune(0x10FFFF))
	r := 'a'
	r += 2
	fmt.Println(r, string(r), r-'a')
	b := byte('z')
	b++
	fmt.Println(b, string(rune(b)))
	s := "abc"
	fmt.Println(s[0]+s[1], string(s[0]+1), s[0] < s[1])
	var total int
	for _, c := range "12345" {
		total = total*10 + int(c-'0')
	}
	fmt.Println(total + 1)
}
