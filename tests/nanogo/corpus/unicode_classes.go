package main

import (
	"fmt"
	"unicode"
)

func main() {
	text := "Hello, Wörld! 123 ñ_\t"
	var letters, digits, spaces, upper, punct int
	for _, r := range text {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		case unicode.IsDigit(r):
			digits++
		case unicode.IsSpace(r):
			spaces++
		case unicode.IsPunct(r):
			punct++
		}
	}
	fmt.Println(letters, digits, spaces, upper, punct)
	fmt.Println(string(unicode.ToUpper('ö')), string(unicode.ToLower('Ä')), unicode.ToUpper('1'))
	fmt.Println(unicode.IsLetter('中'), unicode.IsNumber('½'), unicode.IsDigit('½'), unicode.IsLower('a'))
	fmt.Println(unicode.IsSpace('\n'), unicode.IsPunct('-'), unicode.IsSymbol('+'), unicode.IsControl('\x01'))
	fmt.Println(unicode.MaxRune, unicode.ReplacementChar == '\uFFFD', string(unicode.ToTitle('x')))
}
