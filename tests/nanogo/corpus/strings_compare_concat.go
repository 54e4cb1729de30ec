package main

import (
	"fmt"
	"strings"
)

func main() {
	a, b := "apple", "banana"
	fmt.Println(a < b, a > b, a == "apple", a+b)
	fmt.Println(strings.Compare(a, b), strings.Compare(b, a), strings.Compare(a, a))
	s := ""
	for i := 0; i < 3; i++ {
		s += fmt.Sprint(i)
	}
	fmt.Println(s)
	fmt.Println("Z" < "a", "abc" < "abd", "ab" < "abc")
	multi := `raw
string \n with "quotes"`
	fmt.Println(multi)
	fmt.Println(len("\t\n\\"), "tab\there")
}
