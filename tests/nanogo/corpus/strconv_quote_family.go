package main

import (
	"fmt"
	"strconv"
)

func main() {
	for _, s := range []string{"plain", "tab\tnl\n", "quote\"back\\", "é世", "\x00\x7f", "emoji 😀"} {
		fmt.Println(strconv.Quote(s), strconv.QuoteToASCII(s))
	}
	fmt.Println(strconv.QuoteRune('\''), strconv.QuoteRune('"'), strconv.QuoteRuneToASCII('世'))
	for _, q := range []string{`"a\nb"`, "`raw\\n`", `'x'`, `"bad`, `"\u00e9"`} {
		s, err := strconv.Unquote(q)
		fmt.Printf("%q %v\n", s, err)
	}
	fmt.Println(strconv.Itoa(0), strconv.Itoa(-9223372036854775808+1))
	v, err := strconv.ParseFloat("1e400", 64)
	fmt.Println(v, err)
	v, err = strconv.ParseFloat("-inf", 64)
	fmt.Println(v, err)
	v, err = strconv.ParseFloat(".5", 64)
	fmt.Println(v, err)
	i, err := strconv.ParseInt("1_000", 0, 64)
	fmt.Println(i, err)
	i, err = strconv.ParseInt("1_000", 10, 64)
	fmt.Println(i, err)
}
