package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Go 1.19 knows Unicode 13.0: letters and symbols that Unicode 14.0 added are unassigned for it.
func main() {
	for _, r := range []rune{0x08C9, 0x2C2F, 0x2C5F, 0xA7C0, 0x1FAE0, 0x061D, 0x08C8, 0x2C2E, 0x1FAD6} {
		fmt.Println(r, unicode.IsLetter(r), unicode.IsPrint(r), unicode.IsUpper(r), unicode.IsSymbol(r), unicode.IsPunct(r),
			unicode.ToLower(r), unicode.ToUpper(r), strconv.QuoteRune(r), strconv.Quote(string(r)))
	}
	fmt.Printf("%q %q %v\n", strings.ToLower("\u2C2F\u2C2E"), "x\u08C9y", strings.Fields("a\u1FAE0 b"))
}
