package main

import (
	"fmt"
	"unicode/utf8"
)

func main() {
	s := "héllo, 世界"
	fmt.Println(len(s), utf8.RuneCountInString(s))
	for i, r := range s {
		fmt.Printf("%d:%c(%d) ", i, r, r)
	}
	fmt.Println()
	runes := []rune(s)
	fmt.Println(len(runes), string(runes[1]), string(runes[7:]))
	bytes := []byte("abc")
	bytes[0] = 'A'
	fmt.Println(bytes, string(bytes))
	fmt.Println(s[1], s[2], s[1:3])
	for i := 0; i < 3; i++ {
		fmt.Print(s[i], " ")
	}
	fmt.Println()
	r, size := utf8.DecodeRuneInString("世界")
	fmt.Println(string(r), size, utf8.RuneLen('é'), utf8.ValidString(s))
}
