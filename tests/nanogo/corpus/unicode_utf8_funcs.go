package main

import (
	"fmt"
	"unicode/utf8"
)

func main() {
	s := "Go✓語"
	fmt.Println(len(s), utf8.RuneCountInString(s), utf8.RuneCount([]byte(s)))
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		fmt.Printf("%c %d\n", r, size)
		s = s[size:]
	}
	last, size := utf8.DecodeLastRuneInString("abc語")
	fmt.Println(string(last), size)
	fmt.Println(utf8.Valid([]byte{0xff}), utf8.ValidRune('a'), utf8.ValidRune(0xD800))
	b := utf8.AppendRune(nil, '世')
	fmt.Println(b, utf8.FullRune(b[:2]), utf8.RuneStart(b[1]))
	fmt.Println(utf8.UTFMax, utf8.RuneSelf)
}
