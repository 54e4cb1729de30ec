package main

import (
	"fmt"
	"strconv"
	"unicode"
)

// Quoting that keeps Unicode's graphic spaces, and the graphic, mark and title-case classes.
func main() {
	s := "a\u00a0b\u3000c\u2028d\te\u0301\x01\xff"
	fmt.Println(strconv.Quote(s), strconv.QuoteToGraphic(s), strconv.QuoteToASCII(s))
	for _, r := range []rune{' ', 0xA0, 0x2009, 0x2028, '\t', 0x0301, 0x01C5, 'A', 0x1F600, 0x378, 0xFFFD} {
		fmt.Println(r, strconv.QuoteRuneToGraphic(r), strconv.IsPrint(r), strconv.IsGraphic(r), unicode.IsGraphic(r),
			unicode.IsMark(r), unicode.IsTitle(r))
	}
}
