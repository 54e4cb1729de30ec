package main

import (
	"fmt"
	"unicode/utf8"
)

func main() {
	s := "a\xffb"
	for i, r := range s {
		fmt.Println(i, r, r == utf8.RuneError)
	}
	fmt.Println(len(s), utf8.RuneCountInString(s), utf8.ValidString(s))
	fmt.Printf("%q %x\n", s, s)
	fmt.Println(string(rune(-1)) == "\uFFFD", []rune("\xff")[0])
	buf := make([]byte, 4)
	n := utf8.EncodeRune(buf, '€')
	fmt.Println(n, buf[:n])
	fmt.Println(utf8.RuneLen('a'), utf8.RuneLen('€'), utf8.RuneLen('😀'))
}
