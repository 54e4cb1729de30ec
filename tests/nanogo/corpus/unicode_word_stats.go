package main

import (
	"fmt"
	"strings"
	"unicode"
)

func main() {
	text := "Hello World! Go 1.19 is GREAT, isn't it? Ünïcödé too."
	var upper, lower, digit, space, punct, other int
	for _, r := range text {
		switch {
		case unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			lower++
		case unicode.IsDigit(r):
			digit++
		case unicode.IsSpace(r):
			space++
		case unicode.IsPunct(r):
			punct++
		default:
			other++
		}
	}
	fmt.Println(upper, lower, digit, space, punct, other)
	swapped := strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, text)
	fmt.Println(swapped)
	fmt.Println(unicode.IsLetter('語'), unicode.IsUpper('Ü'), unicode.IsLower('ß'), unicode.IsDigit('٣'))
}
