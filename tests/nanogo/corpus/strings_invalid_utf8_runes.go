package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Bytes that are not UTF-8 read as U+FFFD in the rune-wise functions of strings, strings order by
// bytes, EqualFold folds rune by rune, and %U prints any integer.
func main() {
	s := "\xffγγ\xf0\x9f\x98"
	fmt.Printf("%q %q %q\n", strings.Trim(s, " aé\xff"), strings.TrimLeft(s, "\ufffd"), strings.TrimRight("ab\x80", "\uFFFDé"))
	fmt.Printf("%q %q %q\n", strings.Split("a\xffb", ""), strings.SplitN("a\xffbc", "", 3), strings.SplitAfterN("", "", 3))
	fmt.Println(strings.IndexRune("ab\xffc", '\uFFFD'), strings.IndexRune("abc", -1), strings.ContainsRune("x\x80", 0xFFFD),
		strings.IndexAny("ab\xff", "\xfe"), strings.LastIndexAny("\xffa\xffb", "é\xff"), strings.ContainsAny("\x80", "\ufffd"))
	fmt.Println(strings.EqualFold("\xff", strings.ToUpper("\xff")), strings.EqualFold("Straße", "STRASSE"),
		strings.EqualFold("ǅ", "ǆ"), strings.EqualFold("K", "\u212a"), strings.EqualFold("ſ", "S"))
	a, b, c := "\xff", "é", "\ue000"
	fmt.Println(a < b, a > c, b < c, a >= c, strings.Compare(a, c), strings.Compare("ﬃ", "\xff"))
	x := []string{c, a, b, "z"}
	sort.Strings(x)
	fmt.Printf("%q\n", x)
	u, err := strconv.Unquote("\"a\xffb\\xff\"")
	fmt.Printf("%q %v\n", u, err)
	fmt.Printf("%U %U %#U %#U %.6U %08U|%-8U|\n", -1, 0x1F600, 'x', 0x378, 'a', 'b', 'c')
	fmt.Println(unicode.SimpleFold('A'), unicode.SimpleFold('a'), unicode.SimpleFold('K'), unicode.SimpleFold('k'),
		unicode.SimpleFold('\u212A'), unicode.SimpleFold('1'), unicode.SimpleFold(-2), unicode.SimpleFold('ß'))
}
